# traj.gp — trajectory overlay of every model on one scenario against the reference.
#
# Rows: x, v, F against t; columns: DOF i (x_i, v_i) and contact i (F_i), i = 1..ncol.
# Input: the trajectory CSVs of a results directory (header t,x,v,F,... for one DOF;
# t,x1..xn,v1..vn,F1..Fnc,... otherwise), so column of x_i = 1+i, v_i = 1+n+i,
# F_i = 1+2n+i.  The files are drawn in the order given (the caller puts the noisiest
# first, so they sit behind the others), the reference last, thick dashed black.
#
# Variables (-e): sdir (scripts dir), fmt, out, files (space-separated quoted paths),
# titles (quoted legend entries, one per file), colors (one '#rrggbb' or '#aarrggbb'
# per file), ref (reference CSV or ''), n (DOFs), nc (contacts), ncol (columns shown),
# scen (plot title), note (a line under the title, may be ''), W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
if (!exists("ncol")) ncol = 1
# panel geometry (screen coordinates): the top strip holds the title and the legend
L = (ncol > 1) ? 0.075 : 0.095; R = 0.985; B = 0.065; Tp = 0.85; gx = 0.075; gy = 0.045
pw = (R - L - (ncol - 1) * gx) / ncol
ph = (Tp - B - 2 * gy) / 3.0
set multiplot title scen font ',15'
set format y '%.3g'
unset key
do for [row = 1:3] {
  do for [i = 1:ncol] {
    have = (row == 3) ? (i <= nc) : (i <= n)
    if (have) {
      set lmargin at screen L + (i - 1) * (pw + gx)
      set rmargin at screen L + (i - 1) * (pw + gx) + pw
      set tmargin at screen Tp - (row - 1) * (ph + gy)
      set bmargin at screen Tp - (row - 1) * (ph + gy) - ph
      col = (row == 1) ? 1 + i : ((row == 2) ? 1 + n + i : 1 + 2 * n + i)
      sub = (n > 1) ? sprintf('_%d', i) : ''
      if (row == 1) { set ylabel sprintf('x%s [m]', sub) }
      if (row == 2) { set ylabel sprintf('v%s [m/s]', sub) }
      if (row == 3) { set ylabel sprintf('F%s [N] (friction)', sub) }
      if (row == 3 || (row == 2 && i > nc)) { set xlabel 't [s]' offset 0, 0.4 } else { unset xlabel }
      if (ref ne '') {
        plot for [k = 1:nf] word(files, k) skip 1 u 1:col w l lw 1.6 lc rgb word(colors, k) notitle, \
             ref skip 1 u 1:col w l lw 3 dt (8, 6) lc rgb 'black' notitle
      } else {
        plot for [k = 1:nf] word(files, k) skip 1 u 1:col w l lw 1.6 lc rgb word(colors, k) notitle
      }
    }
  }
}
# the legend: an empty full-width plot in the top strip
set lmargin at screen 0.03
set rmargin at screen 0.97
set tmargin at screen 0.94
if (exists("note") && note ne '') { set label 99 note at screen 0.5, 0.958 center font ',11' tc rgb '#444444' }
set bmargin at screen Tp + 0.03
unset border
unset tics
unset xlabel
unset ylabel
unset grid
set xrange [0 : 1]
set yrange [0 : 1]
set key at screen 0.5, 0.94 center top horizontal maxcols (ncol > 1 ? 5 : 3) Left reverse width 2 samplen 3 spacing 1.15 font ',11' box
if (ref ne '') {
  plot for [k = 1:nf] NaN w l lw 2.5 lc rgb word(colors, k) title word(titles, k), \
       NaN w l lw 3 dt (8, 6) lc rgb 'black' title 'reference'
} else {
  plot for [k = 1:nf] NaN w l lw 2.5 lc rgb word(colors, k) title word(titles, k)
}
unset multiplot
set output

# contact_traj.gp — bounce trajectories of every normal treatment against the reference:
# the gap over the whole span (top) and around the first impact (bottom, where the force
# laws' penetration and contact duration show).
#
# Input: the trajectory CSVs (header t,x,v: the gap is column 2).
# Variables (-e): sdir, fmt, out, files (quoted paths or '< gzip -dc ...'), titles, colors
# (one per file), ref (reference CSV or ''), t1 (first impact time, s), pen (deepest
# penetration of the runs, m), scen, W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
set multiplot layout 2, 1 title scen font ',15' margins 0.08, 0.78, 0.08, 0.92 spacing 0, 0.09
set ylabel 'gap g_n [m]'
set xlabel 't [s]'
set key at screen 0.80, 0.90 left top Left reverse spacing 1.1 font ',11' box
if (ref ne '') {
  plot for [k = 1:nf] word(files, k) skip 1 u 1:2 w l lw 1.8 lc rgb word(colors, k) title word(titles, k), \
       ref skip 1 u 1:2 w l lw 2.5 dt (8, 6) lc rgb 'black' title 'closed form (Newton)'
} else {
  plot for [k = 1:nf] word(files, k) skip 1 u 1:2 w l lw 1.8 lc rgb word(colors, k) title word(titles, k)
}
unset key
set title sprintf('around the first impact (t_1 = %.4f s): penetration and contact duration', t1) font ',12'
set xrange [t1 - 0.01 : t1 + 0.02]
set yrange [-1.3 * pen : 0.1]
set format y '%.2g'
if (ref ne '') {
  plot for [k = 1:nf] word(files, k) skip 1 u 1:2 w lp lw 1.8 ps 0.6 pt 7 lc rgb word(colors, k) notitle, \
       ref skip 1 u 1:2 w l lw 2.5 dt (8, 6) lc rgb 'black' notitle, 0 w l lw 1 lc rgb '#888888' notitle
} else {
  plot for [k = 1:nf] word(files, k) skip 1 u 1:2 w lp lw 1.8 ps 0.6 pt 7 lc rgb word(colors, k) notitle
}
unset multiplot
set output

# regularization.gp — sensitivity to the regularization parameter: one panel per model,
# x = its parameter (log), left axis the modelling error E_mod of x (L2; the total error
# where a run has no own reference) and the drift inside the
# reference's stick intervals (log), right axis the RHS evaluations (log).  Zero values
# are drawn at the floor yfloor (open triangles).
#
# Input: data, one block per model separated by two blank lines; rows
#   "value mod_x_l2 drift nfe err_zero drift_zero" (errors/drifts nan when 0, *_zero =
#   yfloor then, nan otherwise).
# Variables (-e): sdir, fmt, out, data, ns (panels, at most 4), ptitles (quoted panel
# titles), pxlabels (quoted x labels), colors, yfloor, nzero (zero values drawn), scen,
# W, H.

load sdir.'/common.gp'
rows = (ns > 2) ? 2 : 1
cols = (ns > 1) ? 2 : 1
# geometry (screen coordinates); the top strip holds the title and the legend
L = 0.08; R = 0.92; gx = 0.16; gy = (rows > 1) ? 0.12 : 0
Tp = (rows > 1) ? 0.84 : 0.78; B = (rows > 1) ? 0.07 : 0.12
pw = (R - L - (cols - 1) * gx) / cols
ph = (Tp - B - (rows - 1) * gy) / rows
set multiplot title scen font ',15'
unset key
do for [k = 1:ns] {
  r = int((k - 1) / cols); c = (k - 1) % cols
  set lmargin at screen L + c * (pw + gx)
  set rmargin at screen L + c * (pw + gx) + pw
  set tmargin at screen Tp - r * (ph + gy)
  set bmargin at screen Tp - r * (ph + gy) - ph
  set title word(ptitles, k) font ',12' noenhanced
  set logscale x
  set logscale y
  set logscale y2
  set format x '10^{%L}'
  set format y '10^{%L}'
  set format y2 '10^{%L}'
  set ytics nomirror
  set y2tics
  set xlabel word(pxlabels, k) noenhanced
  set ylabel 'E_{mod} [m s^{1/2}], drift [m]'
  set y2label 'RHS evaluations [-]'
  plot data index (k - 1) u 1:2 w lp lw 2 ps 1.3 pt 7 lc rgb word(colors, k) notitle, \
       data index (k - 1) u 1:3 w lp lw 2 ps 1.3 pt 5 dt 2 lc rgb '#333333' notitle, \
       data index (k - 1) u 1:4 axes x1y2 w lp lw 1.5 ps 1 pt 6 dt 3 lc rgb '#888888' notitle, \
       data index (k - 1) u 1:5 w p ps 1.8 pt 10 lc rgb word(colors, k) notitle, \
       data index (k - 1) u 1:6 w p ps 1.8 pt 10 lc rgb '#333333' notitle
}
# the legend: an empty full-width plot in the top strip
set lmargin at screen 0.03
set rmargin at screen 0.97
set tmargin at screen 0.93
set bmargin at screen Tp + 0.04
unset border
unset tics
unset xlabel
unset ylabel
unset y2label
unset title
unset grid
unset logscale
set xrange [0 : 1]
set yrange [0 : 1]
set key at screen 0.5, 0.935 center top horizontal maxcols 4 Left reverse width 2 samplen 3 font ',11' box
zt = (nzero > 0) ? sprintf('exactly 0 (drawn at %.0e)', yfloor) : ''
plot NaN w lp lw 2 ps 1.3 pt 7 lc rgb '#444444' title 'modelling error E_{mod} of x (model colour)', \
     NaN w lp lw 2 ps 1.3 pt 5 dt 2 lc rgb '#333333' title 'drift inside the reference stick', \
     NaN w lp lw 1.5 ps 1 pt 6 dt 3 lc rgb '#888888' title 'RHS evaluations (right axis)', \
     NaN w p ps 1.8 pt 10 lc rgb '#333333' title zt
unset multiplot
set output

# pract_yaw.gp — the puck launched at a yaw angle (docs/design.md §6): top, the largest angle between
# the friction force and the reversed slip (deg); bottom, the magnitude error
# |F|/(mu N) - 1 of largest size, both against the yaw angle.  Exact: 0 and 0 for the
# isotropic (disc) law; a per-axis (box) cone errs in direction until 45 degrees and in
# magnitude by up to sqrt 2 - 1.  Colour by model; solid the disc, dashed the box cone.
#
# Input: data, one block per series separated by two blank lines; each block opens with
# its quoted legend entry, then rows "yaw dir_err_max slide_ratio_max".
# Variables (-e): sdir, fmt, out, data, ns, colors, dts, scen, W, H.

load sdir.'/common.gp'
set multiplot layout 2, 1 title scen font ',15' margins 0.08, 0.66, 0.08, 0.90 spacing 0, 0.08
set xrange [-2 : 47]
set xtics 0, 5, 45
set xlabel 'yaw angle of the initial velocity [deg]'
set ylabel 'direction error, largest [deg]'
set key at screen 0.67, 0.90 left top Left reverse spacing 1.0 font ',9'
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 1.6 ps 1.1 pt 7 dt int(word(dts, k)) lc rgb word(colors, k) title columnheader(1)
unset key
set ylabel '|F| / (mu N) - 1, largest'
plot for [k = 1:ns] data index (k - 1) u 1:3 w lp lw 1.6 ps 1.1 pt 7 dt int(word(dts, k)) lc rgb word(colors, k) notitle
unset multiplot
set output

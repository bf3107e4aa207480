# pract_creep.gp — push-hold's creep velocity (mean velocity over the 5 s push) against the
# load fraction r, log y (docs/design.md §6: the curve simulator users quote).  One curve per
# treatment and step: colour by model, solid 1 ms, dashed 0.1 ms, dotted the adaptive
# defaults.  Exact: 0 for r < 1, so creeps at or below yfloor (round-off, or exactly 0)
# are drawn at it as open downward triangles (point type 10).
#
# Input: data, one block per series separated by two blank lines; each block opens with
# its quoted legend entry, then rows "r creep zero" (creep nan when at or below yfloor;
# zero = yfloor then, nan otherwise).
# Variables (-e): sdir, fmt, out, data, ns, colors, dts, yfloor, scen, W, H.

load sdir.'/common.gp'
set title scen font ',15'
set logscale y
set format y '10^{%L}'
set yrange [yfloor / 3 : *]
set xrange [0.45 : 1.1]
set xlabel 'load fraction r = push / (mu m g)'
set ylabel 'mean velocity over the push [m/s]'
set key outside right top vertical Left reverse spacing 1.0 font ',9'
set rmargin at screen 0.70
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lw 1 dt 3 lc rgb '#888888'
set label 1 'breakaway' at 1, graph 0.97 right offset -0.5, 0 tc rgb '#666666' font ',10'
set label 2 sprintf('open triangles: %.0e m/s or less (exactly 0)', yfloor) at graph 0.02, first yfloor left offset 0, 1.2 tc rgb '#444444' font ',10'
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 1.6 ps 1.1 pt 7 dt int(word(dts, k)) lc rgb word(colors, k) title columnheader(1), \
     for [k = 1:ns] data index (k - 1) u 1:3 w p ps 1.6 pt 10 lc rgb word(colors, k) notitle
set output

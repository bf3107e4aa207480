# drift.gp — drift per forcing cycle of every model under each drift variant (docs/design.md §5
# `drift`: loads below breakaway, so the exact answer is no motion at all), log y.
# A drift of exactly 0 cannot sit on a log axis: drifts below the floor yfloor (round-off
# or exactly 0) are drawn at it as open downward triangles (point type 10), and the
# floor is named on the plot.
#
# Input: data, one row per model: "index model v_1 z_1 v_2 z_2 ..." where v_j is the
# drift per cycle of variant j (nan when below yfloor or missing) and z_j is yfloor when
# the drift is below it (nan otherwise).
# Variables (-e): sdir, fmt, out, data, nv (variants), variants (quoted names), colors,
# pts, yfloor, threshold (the verdict's drift threshold), nm (models), scen, W, H.

load sdir.'/common.gp'
set title scen font ',15'
set logscale y
set format y '10^{%L}'
set yrange [yfloor / 3 : *]
set xrange [0.4 : nm + 0.6]
set ylabel 'drift per forcing cycle [m/cycle]'
set xlabel 'model (its default integrator)'
set xtics nomirror font ',12'
set grid noxtics ytics
set key outside right top vertical Left reverse spacing 1.2 font ',11'
set rmargin at screen 0.76
set bmargin 4.5
dx(j) = (j - (nv + 1) / 2.0) * 0.16
set arrow 1 from graph 0, first threshold to graph 1, first threshold nohead lw 1.5 dt 2 lc rgb '#b00000' front
set label 1 sprintf('verdict threshold %.0e m/cycle', threshold) at graph 0.99, first threshold right offset 0, 0.7 tc rgb '#b00000' font ',10'
set label 2 sprintf('open triangles: below %.0e m/cycle (round-off) or exactly 0', yfloor) at graph 0.99, first yfloor right offset 0, 1.4 tc rgb '#444444' font ',10'
plot data u 1:(NaN):xtic(2) notitle, \
     for [j = 1:nv] data u ($1 + dx(j)):(column(1 + 2 * j)) w p ps 2 pt int(word(pts, j)) lc rgb word(colors, j) title word(variants, j), \
     for [j = 1:nv] data u ($1 + dx(j)):(column(2 + 2 * j)) w p ps 2 pt 10 lw 2 lc rgb word(colors, j) notitle
set output

# chatter.gp — chatter against the step: sign changes of the velocity per second inside
# the reference's stick intervals (counted on every accepted step) on one scenario,
# log-log.  A rate of exactly 0 is drawn at the floor as an open downward triangle.
#
# Input: data, one block per (model, integrator) separated by two blank lines; each
# block opens with its quoted legend entry, then rows "h rate zero" with rate nan when
# it is 0 and zero = the floor then (nan otherwise).
# Variables (-e): sdir, fmt, out, data, ns, titles (quoted legend entries), colors, pts,
# dts, yfloor, threshold (the verdict's chatter threshold), scen, W, H.  The zero markers
# are spread horizontally by a few percent so that coinciding series stay visible.

load sdir.'/common.gp'
set title scen font ',15'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set yrange [yfloor / 3 : *]
set xlabel 'fixed step h [s]'
set ylabel 'velocity sign changes in stick [1/s]'
set key outside right top vertical Left reverse spacing 1.2 width 1 font ',11'
set rmargin at screen 0.70
set arrow 1 from graph 0, first threshold to graph 1, first threshold nohead lw 1.5 dt 2 lc rgb '#b00000' front
set label 1 sprintf('verdict threshold %g /s', threshold) at graph 0.01, first threshold offset 0, 0.7 tc rgb '#b00000' font ',10'
set label 2 sprintf('open triangles at %g /s (spread in h): no sign change at all', yfloor) at graph 0.01, first yfloor offset 0, 1.0 tc rgb '#444444' font ',10'
jit(k) = 1 + 0.06 * (k - (ns + 1) / 2.0)
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.4 pt int(word(pts, k)) dt int(word(dts, k)) \
       lc rgb word(colors, k) notitle, \
     for [k = 1:ns] data index (k - 1) u ($1 * jit(k)):3 w lp lw 1 ps 1.8 pt 10 dt int(word(dts, k)) lc rgb word(colors, k) notitle, \
     for [k = 1:ns] NaN w lp lw 2 ps 1.4 pt int(word(pts, k)) dt int(word(dts, k)) lc rgb word(colors, k) title word(titles, k)
set output

# conv.gp — convergence: L2-in-time error of x against the fixed step h, log-log.
#
# Input: data, one block per (model, integrator) separated by two blank lines; each
# block opens with its quoted legend entry ("model/integrator (order p)"), then rows
# "h err_x_l2" (non-positive errors left out by the writer).
# Variables (-e): sdir, fmt, out, data, ns (blocks), colors, pts, dts (one word per block),
# scen (title), gx, gy (anchor of the order-1 and order-2 guide lines), W, H, note (a line at the
# bottom right: points drawn at the round-off floor or the blow-up ceiling; may be '').

load sdir.'/common.gp'
if (exists("note") && note ne '') { set label 98 note at screen 0.99, screen 0.025 right font ',10' tc rgb '#444444' front }
set title scen font ',15'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'fixed step h [s]'
set ylabel 'L2-in-time error of x vs reference [m s^{1/2}]'
set key outside right top vertical Left reverse spacing 1.2 width 1 font ',11'
set rmargin at screen 0.70
o1(x) = gy * (x / gx)
o2(x) = gy * (x / gx)**2
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.4 pt int(word(pts, k)) dt int(word(dts, k)) \
       lc rgb word(colors, k) title columnheader(1), \
     o1(x) w l lw 1 dt 3 lc rgb '#777777' title 'slope 1 (guide)', \
     o2(x) w l lw 1 dt 4 lc rgb '#aaaaaa' title 'slope 2 (guide)'
set output

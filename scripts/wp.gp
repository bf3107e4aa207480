# wp.gp — work-precision: L2-in-time error of x against the CPU time of the run, log-log.
#
# Input: data, one block per (model, integrator, ladder) separated by two blank lines;
# each block opens with its quoted legend entry, then rows "cpu_s err_x_l2" in ladder
# order (tolerance ladders solid, fixed-step ladders dashed: the dts word list).
# Variables (-e): sdir, fmt, out, data, ns, colors, pts, dts, scen, target (error level
# of the "matched accuracy" cost, drawn as a line; 0 for none), W, H, note (a line at the
# bottom right: points drawn at the round-off floor or the blow-up ceiling; may be '').

load sdir.'/common.gp'
if (exists("note") && note ne '') { set label 98 note at screen 0.99, screen 0.025 right font ',10' tc rgb '#444444' front }
set title scen font ',15'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'CPU time of the run [s]'
set ylabel 'L2-in-time error of x vs reference [m s^{1/2}]'
set key outside right top vertical Left reverse spacing 1.1 width 1 font ',10'
set rmargin at screen 0.68
if (target > 0) {
  set arrow 1 from graph 0, first target to graph 1, first target nohead lw 1.5 dt 2 lc rgb '#555555' front
  set label 1 sprintf('target %.0e', target) at graph 0.01, first target offset 0, 0.7 font ',10' tc rgb '#555555'
}
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.3 pt int(word(pts, k)) dt int(word(dts, k)) \
       lc rgb word(colors, k) title columnheader(1)
set output

# scale_cost.gp — the cost against the number of DOFs n (group `scale`): the chain's n blocks
# (docs/scenarios/chain.md) and the elastic frame's 6 ne DOFs (docs/scenarios/
# elastic-frame.md): CPU time per step (top) and per simulated second (bottom) per treatment
# of a banded plant, log-log, with the n^1 slope for reading.
#
# Input: data, one block per treatment separated by two blank lines; each block opens with
# its quoted legend entry, then rows "n cpu_per_step_s cpu_per_sim_s".
# Variables (-e): sdir, fmt, out, data, ns, colors, scen, W, H.

load sdir.'/common.gp'
set multiplot layout 2, 1 title scen font ',15' margins 0.10, 0.74, 0.09, 0.90 spacing 0, 0.08
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'DOFs n (chain: blocks = contacts; frame: 6 ne)'
set ylabel 'CPU time per step [s]'
set key at screen 0.76, 0.90 left top Left reverse spacing 1.1 font ',11' box
stats data index 0 u 1:2 nooutput
x0 = STATS_min_x
y0 = STATS_min_y
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.4 pt (4 + 2 * k) lc rgb word(colors, k) title columnheader(1), \
     y0 * (x / x0) w l lw 1 dt (6, 4) lc rgb '#888888' title 'n^1'
unset key
set ylabel 'CPU time per simulated second [s]'
plot for [k = 1:ns] data index (k - 1) u 1:3 w lp lw 2 ps 1.4 pt (4 + 2 * k) lc rgb word(colors, k) notitle
unset multiplot
set output

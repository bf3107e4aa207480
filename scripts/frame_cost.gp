# frame_cost.gp — the elastic frame's cost against its size: CPU time per step against the
# DOF count nq = 6 ne (penalty-newmark at h = 1e-3, dense store), log-log, with the n^2 and
# n^3 slopes for reading.
#
# Input: data, rows "nq cpu_per_step_s ne".
# Variables (-e): sdir, fmt, out, data, scen, W, H.

load sdir.'/common.gp'
set title scen font ',14'
set logscale xy
set format y '10^{%L}'
set xlabel 'DOFs nq = 6 ne'
set ylabel 'CPU time per step [s]'
set key top left box
stats data u 1:2 nooutput
x0 = STATS_min_x
y0 = STATS_min_y
plot data u 1:2 w lp lw 2 ps 1.6 pt 7 lc rgb '#1f77b4' title 'penalty-newmark (dense)', \
     data u 1:2:(sprintf('ne = %d', $3)) w labels offset 0, 1.2 font ',10' notitle, \
     y0 * (x / x0)**2 w l lw 1 dt (6, 4) lc rgb '#888888' title 'n^2', \
     y0 * (x / x0)**3 w l lw 1 dt (2, 4) lc rgb '#888888' title 'n^3'
set output

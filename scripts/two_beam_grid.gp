# two_beam_grid.gp — the two-beam system's isolated collision under penalty-nm: effective
# restitution against the step for each (c_N, d_N), with the paper's nominal e (0.3 at
# d_N = 50, 0.7 at d_N = 20) in grey: [Engleder2002] §3's "c_N, d_N and dt cannot be chosen
# separately".
#
# Input: data, one block per (c_N, d_N) separated by two blank lines; each block opens
# with its quoted legend entry, then rows "h e_eff".
# Variables (-e): sdir, fmt, out, data, ns (blocks), colors, dashes (one per block), scen,
# W, H.

load sdir.'/common.gp'
set title scen font ',14'
set logscale x
set format x '10^{%L}'
set xlabel 'step h [-]'
set ylabel 'effective e = -v_{out}/v_{in} [-]'
set yrange [0 : 1]
set xrange [7e-6 : 1.5e-3]
set key outside right top Left reverse spacing 1.1 font ',11' box
plot 0.3 w l lw 1.5 lc rgb '#999999' title 'e = 0.3 (d_N = 50)', \
     0.7 w l lw 1.5 dt 2 lc rgb '#999999' title 'e = 0.7 (d_N = 20)', \
     for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.4 pt 7 dt int(word(dashes, k)) lc rgb word(colors, k) title columnheader(1)
set output

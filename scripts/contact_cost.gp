# contact_cost.gp — cost against the contact stiffness per normal treatment (top: RHS
# evaluations, runs that hit their budget marked with an open square) and the deepest
# penetration it buys (bottom), log-log.
#
# Input: data, one block per treatment separated by two blank lines; each block opens with
# its quoted legend entry, then rows "stiffness nfe pen_max nfe_if_budget".
# Variables (-e): sdir, fmt, out, data, ns, colors, scen, W, H.

load sdir.'/common.gp'
set multiplot layout 2, 1 title scen font ',15' margins 0.10, 0.74, 0.09, 0.90 spacing 0, 0.08
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'stiffness (c_N, K [N/m]; Hertz k [N/m^{1.5}])'
set ylabel 'RHS evaluations nfe [-]'
set key at screen 0.76, 0.90 left top Left reverse spacing 1.1 font ',11' box
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 ps 1.4 pt (4 + 2 * k) lc rgb word(colors, k) title columnheader(1), \
     for [k = 1:ns] data index (k - 1) u 1:4 w p ps 3 pt 4 lw 2 lc rgb 'black' notitle
unset key
set ylabel 'deepest penetration [m]'
plot for [k = 1:ns] data index (k - 1) u 1:3 w lp lw 2 ps 1.4 pt (4 + 2 * k) lc rgb word(colors, k) notitle
unset multiplot
set output

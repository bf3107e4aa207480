# restitution.gp — effective against nominal restitution per normal treatment on
# bouncing-ball (the classic comparison of contact models, [FloresLankarani2016]), with the
# identity line a treatment that keeps e "as set" lies on.
#
# Input: data, one block per treatment separated by two blank lines; each block opens with
# its quoted legend entry, then rows "e_nominal e_eff".
# Variables (-e): sdir, fmt, out, data, ns (blocks), colors (one per block), scen, W, H.

load sdir.'/common.gp'
set title scen font ',14'
set xlabel 'nominal e (Newton''s law) [-]'
set ylabel 'effective e = -v_{out}/v_{in}, mean of the first three bounces [-]'
set xrange [0 : 1]
set yrange [0 : 1.05]
set size ratio -1
set key left top Left reverse spacing 1.1 font ',11' box opaque
plot x w l lw 2 dt 2 lc rgb '#888888' title 'e_eff = e (identity)', \
     for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2.2 ps 1.6 pt (4 + 2 * k) lc rgb word(colors, k) title columnheader(1)
set output

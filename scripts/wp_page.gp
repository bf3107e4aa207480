# wp_page.gp — a scenario's work-precision diagram (its page, report_wp_page.c): the
# L2-in-time error of x against the run's RHS evaluations (left) and CPU time (right),
# log-log, one curve per ladder, the curves split into np panels (rows) of at most 8.
#
# Input: data, one block per ladder separated by two blank lines; each block opens with
# its quoted legend entry, then rows "nfe cpu_s err_x_l2" by rising nfe.
# Variables (-e): sdir, fmt, out, data, np (panels), pfirst, plast (words: the first and
# last block of each panel, 1-based), colors, pts, dts (words per block: colour per
# treatment, point type per treatment, dash type per variant), scen, W, H, note (a line at
# the bottom right: points drawn at the round-off floor or the blow-up ceiling; may be ''),
# nlo, nhi, clo, chi, elo, ehi (the ranges of evaluations, CPU time and error: every panel's).
# Legibility: the legend is outside the data, right of each row's CPU-time panel.

load sdir.'/common.gp'
set multiplot title scen font ',15'
if (exists("note") && note ne '') { set label 98 note at screen 0.99, screen 0.012 right font ',10' tc rgb '#444444' front }
set logscale xy
set yrange [elo:ehi]
set format x '10^{%L}'
set format y '10^{%L}'

set key outside right top vertical Left reverse spacing 1.1 width 1 font ',10' samplen 3
top = 1.0 - 70.0 / H
bot = 50.0 / H
rowh = (top - bot) / np
do for [p = 1:np] {
  k0 = int(word(pfirst, p))
  k1 = int(word(plast, p))
  set tmargin at screen top - (p - 1) * rowh - 0.01
  set bmargin at screen top - p * rowh + 55.0 / H
  # evaluations: no legend (the CPU-time panel beside it names the same curves)
  set lmargin at screen 0.07
  set rmargin at screen 0.36
  set xlabel 'RHS evaluations of the run [1]'
  set xrange [nlo:nhi]
  set ylabel 'L2 error of x vs reference [m s^{1/2}]'
  plot for [k = k0:k1] data index (k - 1) u 1:3 w lp lw 2 ps 1.3 pt int(word(pts, k)) dt int(word(dts, k)) \
         lc rgb word(colors, k) notitle
  set lmargin at screen 0.43
  set rmargin at screen 0.70
  set xlabel 'CPU time of the run [s]'
  set xrange [clo:chi]
  set ylabel ''
  plot for [k = k0:k1] data index (k - 1) u 2:3 w lp lw 2 ps 1.3 pt int(word(pts, k)) dt int(word(dts, k)) \
         lc rgb word(colors, k) title columnheader(1)
}
unset multiplot
set output

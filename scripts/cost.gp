# cost.gp — cost against the friction coefficient mu: RHS evaluations (top) and CPU time
# (bottom), log y; runs that hit their budget are marked with a large open square (their
# cost is the cost so far, a lower bound).
#
# Input: data, one block per (model, integrator) separated by two blank lines; each
# block opens with its quoted legend entry, then rows
#   "mu nfe cpu_s nfe_if_budget cpu_if_budget" (the last two nan unless budget).
# Variables (-e): sdir, fmt, out, data, ns, colors, pts, dts (dash type per block: 2 for
# a tagged second series such as coupled-sledges' A=2, whose legend entry is empty),
# dashnote (one key entry naming the dashed series, '' when none), scen, logx (1: log mu axis),
# havecpu (0: no CPU times, the lower panel says so), nbudget (budget hits), W, H.

load sdir.'/common.gp'
set multiplot layout 2, 1 title scen font ',15' margins 0.10, 0.70, 0.09, 0.90 spacing 0, 0.08
set logscale y
set format y '10^{%L}'
if (logx) { set logscale x }
set xlabel 'friction coefficient mu [-]'
set key at screen 0.72, 0.90 left top vertical Left reverse spacing 1.0 width 1 maxrows 40 font ',10'
set ylabel 'RHS evaluations nfe [-]'
budgetnote = (nbudget > 0) ? 'budget hit (cost so far)' : ''
plot for [k = 1:ns] data index (k - 1) u 1:2 w lp lw 2 dt int(word(dts, k)) ps 1.3 pt int(word(pts, k)) lc rgb word(colors, k) title columnheader(1), \
     for [k = 1:ns] data index (k - 1) u 1:4 w p ps 3.2 pt 4 lw 2.5 lc rgb 'black' notitle, \
     NaN w p ps 2.5 pt 4 lw 2.5 lc rgb 'black' title budgetnote, \
     NaN w l lw 2 dt 2 lc rgb '#444444' title dashnote
unset key
set ylabel 'CPU time [s]'
if (havecpu) {
  plot for [k = 1:ns] data index (k - 1) u 1:3 w lp lw 2 dt int(word(dts, k)) ps 1.3 pt int(word(pts, k)) lc rgb word(colors, k) notitle, \
       for [k = 1:ns] data index (k - 1) u 1:5 w p ps 3.2 pt 4 lw 2.5 lc rgb 'black' notitle
} else {
  set label 1 'no CPU times in runs.csv' at graph 0.5, 0.5 center
  set yrange [1 : 10]
  plot NaN notitle
}
unset multiplot
set output

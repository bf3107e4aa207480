# grid.gp — [Engleder2002] figs. 3-4 on two-mass-drive: elasto-plastic penalty model with
# Newmark, eps = k/cT in {0.1, 0.001} (rows) x h in {0.1, 0.001} (columns).
#   what = 'phase': phase curve of the contact mass in coordinates relative to the drive's
#                   mean motion, xi = x_m - v t against xi' = v_m - v (our reading of the
#                   paper's "relative coordinates"), over t in [tmin, tmax];
#   what = 'force': contact (friction) force on the contact mass against t.
# The reference (event-driven switching) is drawn thick dashed black.
#
# Input: one data file per panel and one for the reference (plots/data/grid_1..4.dat,
# grid_ref.dat), written by the report from the trajectories: columns t, xi, xi' and F of
# the contact mass, xi NaN outside [tmin, tmax] (computed there, so that gnuplot
# evaluates no expression per point).
# Variables (-e): sdir, fmt, out, what, files (4 paths, row-major), titles (4 quoted),
# ref ('' for none), tmin, tmax, scen, W, H.

load sdir.'/common.gp'
set datafile separator ','
set multiplot layout 2, 2 title scen font ',15' margins 0.08, 0.98, 0.08, 0.86 spacing 0.08, 0.12
do for [k = 1:4] {
  set title word(titles, k) font ',12' noenhanced
  if (k == 1) {
    set key at screen 0.5, 0.94 center top horizontal Left reverse width 2 spacing 1.25 font ',11' box opaque
  } else {
    unset key
  }
  f = word(files, k)
  if (what eq 'phase') {
    set xlabel 'xi = x_m - v t [m]'
    set ylabel "xi' = v_m - v [m/s]"
    if (ref ne '') {
      plot f skip 1 u 2:3 w l lw 1.6 lc rgb '#8c564b' title 'penalty/newmark', \
           ref skip 1 u 2:3 w l lw 2.5 dt (8, 6) lc rgb 'black' title 'reference (event-driven switching)'
    } else {
      plot f skip 1 u 2:3 w l lw 1.6 lc rgb '#8c564b' title 'penalty/newmark'
    }
  } else {
    set xlabel 't [s]'
    set ylabel 'contact force F [N]'
    set xrange [tmin : tmax]
    if (ref ne '') {
      plot f skip 1 u 1:4 w l lw 1.4 lc rgb '#8c564b' title 'penalty/newmark', \
           ref skip 1 u 1:4 w l lw 2.5 dt (8, 6) lc rgb 'black' title 'reference (event-driven switching)'
    } else {
      plot f skip 1 u 1:4 w l lw 1.4 lc rgb '#8c564b' title 'penalty/newmark'
    }
  }
}
unset multiplot
set output

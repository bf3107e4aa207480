# conveyor.gp — conveyor-wall ([Xiong2013] §5.2 fig. 9; docs/scenarios/conveyor-wall.md).
# what = 'coords': xA, xB (top) and yA, yB (middle) of every treatment's run against the
# reference, the reference's A-B contact intervals shaded gray, and the reference's normal
# forces lambda_n of the three contacts (bottom; means over 1 ms, impacts clipped);
# what = 'energy': the reference's energy change, the belt's work and their difference.
#
# Input: data (CSV, '#' header): t, xA, yA, xB, yB, lambda_n1..3, dE, W_belt, dissipated,
# AB (1 while A and B touch); the trajectory CSVs (t, x1 = xA, x2 = yA, x3 = xB, x4 = yB, ...).
# Variables (-e): sdir, fmt, out, data, files, titles, colors (one per file), what, W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = exists("files") ? words(files) : 0
tmax = 1.0
if (what eq 'coords') {
  set multiplot layout 3, 1 title "conveyor-wall: treatments (colours) and the reference (black, dashed); gray: A-B in contact" font ',14' margins 0.08, 0.80, 0.06, 0.93 spacing 0, 0.07
  set xrange [0 : tmax]
  set y2range [0 : 1]
  unset y2tics
  set boxwidth 0.001 absolute
  set style fill solid 0.25 noborder
  set key at screen 0.815, 0.92 left top Left reverse spacing 1.1 font ',10' box
  set ylabel 'x [m]  (xA solid, xB dashed)'
  plot data u 1:($12 > 0 ? 1 : 1/0) axes x1y2 w boxes lc rgb '#888888' notitle, \
       for [k = 1:nf] word(files, k) skip 1 u 1:2 w l lw 1.6 lc rgb word(colors, k) title word(titles, k), \
       for [k = 1:nf] word(files, k) skip 1 u 1:4 w l lw 1.6 dt 2 lc rgb word(colors, k) notitle, \
       data u 1:2 w l lw 2.2 dt (8, 6) lc rgb 'black' title 'reference', \
       data u 1:4 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle
  unset key
  set ylabel 'y [m]  (yA solid, yB dashed)'
  plot data u 1:($12 > 0 ? 1 : 1/0) axes x1y2 w boxes lc rgb '#888888' notitle, \
       for [k = 1:nf] word(files, k) skip 1 u 1:3 w l lw 1.6 lc rgb word(colors, k) notitle, \
       for [k = 1:nf] word(files, k) skip 1 u 1:5 w l lw 1.6 dt 2 lc rgb word(colors, k) notitle, \
       data u 1:3 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle, \
       data u 1:5 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle
  set key at screen 0.815, 0.30 left top Left reverse spacing 1.1 font ',10' box
  set xlabel 't [s]'
  set ylabel 'lambda_n [N] (1 ms means)'
  set yrange [0 : 30]
  plot data u 1:($12 > 0 ? 1 : 1/0) axes x1y2 w boxes lc rgb '#888888' notitle, \
       data u 1:6 w l lw 1.8 lc rgb '#1f77b4' title 'wall-A', \
       data u 1:7 w l lw 1.8 lc rgb '#d62728' title 'A-B', \
       data u 1:8 w l lw 1.8 lc rgb '#2ca02c' title 'B-belt'
  unset multiplot
} else {
  set title "conveyor-wall reference: energy balance with the belt's work" font ',14'
  set xlabel 't [s]'
  set ylabel 'energy [J]'
  set key left top Left reverse spacing 1.1 font ',11' box
  plot data u 1:9 w l lw 2 lc rgb '#1f77b4' title 'dE (kinetic + spring + gravity)', \
       data u 1:10 w l lw 2 lc rgb '#2ca02c' title 'W_belt = int F_3 v_c dt', \
       data u 1:11 w l lw 2 dt 2 lc rgb '#d62728' title 'dissipated = W_belt - dE'
}
set output

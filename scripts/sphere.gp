# sphere.gp — sphere-drop ([Xiong2013] §5.1, fig. 7): every normal treatment against the
# closed form, six panels: (a) height z, (b) slip speed |u|, (c) centre velocity vx, vy,
# (d) spin wx, wy, (e) penetration r - z around the first impact, (f) the tangential force
# |F_t| = m |dv_t/dt| read off the output grid (momentum balance: friction is the only
# horizontal force), whose spikes are the Coulomb impulses of the impacts.
#
# Input: the trajectory CSVs, header t,x1..x6,v1..v6,F1,F2,...: z is column 4, vx, vy, vz
# columns 8-10, wx, wy columns 11, 12.
# Variables (-e): sdir, fmt, out, files, titles, colors (one per file), ref (the closed
# form's CSV), r (radius, m), m (mass, kg), t1 (first impact, s), troll (rolling onset of the
# closed form, s), pen (deepest penetration of the runs, m), scen, W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
set multiplot layout 3, 2 title scen font ',15' margins 0.07, 0.84, 0.06, 0.93 spacing 0.07, 0.09
set key at screen 0.855, 0.90 left top Left reverse spacing 1.1 font ',11' box
set xlabel 't [s]'
set arrow 1 from troll, graph 0 to troll, graph 1 nohead dt 3 lc rgb '#888888'
# (a) height
set ylabel 'z [m]'
set title '(a) height of the centre' font ',12'
plot for [k = 1:nf] word(files, k) skip 1 u 1:4 w l lw 1.6 lc rgb word(colors, k) title word(titles, k), \
     ref skip 1 u 1:4 w l lw 2.2 dt (8, 6) lc rgb 'black' title 'closed form'
unset key
# (b) slip speed
set ylabel '|u| [m/s]'
set title '(b) slip speed |u| = |(vx - r wy, vy + r wx)| (dotted: rolling onset)' font ',12'
plot for [k = 1:nf] word(files, k) skip 1 u 1:(sqrt(($8 - r * $12)**2 + ($9 + r * $11)**2)) w l lw 1.6 lc rgb word(colors, k) notitle, \
     ref skip 1 u 1:(sqrt(($8 - r * $12)**2 + ($9 + r * $11)**2)) w l lw 2.2 dt (8, 6) lc rgb 'black' notitle
# (c) velocity
set ylabel 'v [m/s]'
set title '(c) centre velocity vx (solid), vy (dashed)' font ',12'
plot for [k = 1:nf] word(files, k) skip 1 u 1:8 w l lw 1.6 lc rgb word(colors, k) notitle, \
     for [k = 1:nf] word(files, k) skip 1 u 1:9 w l lw 1.6 dt 2 lc rgb word(colors, k) notitle, \
     ref skip 1 u 1:8 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle, \
     ref skip 1 u 1:9 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle
# (d) spin
set ylabel '{/Symbol w} [rad/s]'
set title '(d) spin wx (solid), wy (dashed); wz = 0 throughout' font ',12'
plot for [k = 1:nf] word(files, k) skip 1 u 1:11 w l lw 1.6 lc rgb word(colors, k) notitle, \
     for [k = 1:nf] word(files, k) skip 1 u 1:12 w l lw 1.6 dt 2 lc rgb word(colors, k) notitle, \
     ref skip 1 u 1:11 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle, \
     ref skip 1 u 1:12 w l lw 2.2 dt (8, 6) lc rgb 'black' notitle
unset arrow 1
# (e) penetration around the first impact
set ylabel 'r - z [m]'
set title sprintf('(e) penetration around the first impact (t_1 = %.4f s)', t1) font ',12'
set xrange [t1 - 0.002 : t1 + 0.008]
set yrange [-0.3 * pen : 1.2 * pen]
set format y '%.2g'
plot for [k = 1:nf] word(files, k) skip 1 u 1:(r - $4) w lp lw 1.6 ps 0.5 pt 7 lc rgb word(colors, k) notitle, \
     0 w l lw 1 lc rgb '#888888' notitle
set autoscale x
set autoscale y
set format y '%g'
# (f) tangential force from the momentum balance on the output grid
set ylabel '|F_t| [N]'
set title '(f) tangential force m |dv_t/dt| on the output grid (log; impulses as spikes)' font ',12'
set logscale y
set yrange [1e-3 : *]
set format y '10^{%L}'
kk = 0; pt = 0; p8 = 0; p9 = 0
plot for [k = 1:nf] word(files, k) skip 1 u 1:(dt = $1 - pt, f = (k == kk && dt > 0) ? m * sqrt(($8 - p8)**2 + ($9 - p9)**2) / dt : NaN, kk = k, pt = $1, p8 = $8, p9 = $9, f) w l lw 1.4 lc rgb word(colors, k) notitle
unset logscale y
unset multiplot
set output

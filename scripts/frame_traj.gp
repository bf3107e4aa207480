# frame_traj.gp — the elastic frame ([Engleder2002] §4, figs. 10-11): the tip's horizontal
# velocity u_P' with the belt speed (top), its gap g_n = v_P - q1^0 (middle: the paper's
# vertical displacement, lift-off above 0) and the normal force lambda_n of the penalty runs
# (bottom, from the state: max(0, -c_N g_n - D_N g_n')), over the window of each run.
#
# Input: the trajectory CSVs (header t,x1..xn,v1..vn,...).
# Variables (-e): sdir, fmt, out, files (quoted paths or '< gzip -dc ...'), titles, colors,
# pens (1: draw lambda_n) (one word per file), cu, cv, cvu, cvv (columns of u_P, v_P, u_P',
# v_P'), q10 (m), vb (belt velocity, m/s), cN, dN, t1 (end of the span, s), zoom (the span
# drawn: the last zoom seconds), scen, W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
set multiplot layout 3, 1 title scen font ',15' margins 0.08, 0.78, 0.07, 0.92 spacing 0, 0.06
set key at screen 0.80, 0.90 left top Left reverse spacing 1.1 font ',11' box
set xrange [t1 - zoom : t1]
set ylabel "u_P' [m/s]"
plot for [k = 1:nf] word(files, k) skip 1 u 1:(column(cvu)) w l lw 1.6 lc rgb word(colors, k) title word(titles, k), \
     vb w l lw 1 dt (6, 4) lc rgb '#555555' title 'belt speed'
unset key
set ylabel 'g_n = v_P - q_1^0 [mm]'
plot for [k = 1:nf] word(files, k) skip 1 u 1:(1e3 * (column(cv) - q10)) w l lw 1.6 lc rgb word(colors, k) notitle, \
     0 w l lw 1 lc rgb '#888888' notitle
set ylabel 'lambda_n [N] (penalty runs)'
set xlabel 't [s]'
plot for [k = 1:nf] word(files, k) skip 1 u 1:(word(pens, k) eq '1' ? ((l = -cN * (column(cv) - q10) - dN * column(cvv)) > 0 ? l : 0) : 1/0) w l lw 1.6 lc rgb word(colors, k) notitle
unset multiplot
set output

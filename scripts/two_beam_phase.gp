# two_beam_phase.gp — the two-beam system's phase curves in the stationary state
# ([Engleder2002] figs. 6 and 7): (q0, q0') solid and (q1, q1') dashed in one panel per run
# (the reference newton and the paper's penalty-nm, at both cases); where the curves
# overlap, m0 and m1 move together (persistent contact).
#
# Input: the trajectory CSVs (header t,x1,x2,x3,v1,v2,v3: q0 column 2, q1 column 3, q0'
# column 5, q1' column 6).
# Variables (-e): sdir, fmt, out, files (quoted paths or '< gzip -dc ...'), titles (one per
# file), scen, W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
rows = nf > 2 ? 2 : 1
cols = nf > 1 ? 2 : 1
set multiplot layout rows, cols title scen font ',15' spacing 0.09, 0.12
set xlabel 'displacement relative to the base q [-]'
set ylabel 'velocity q'' [-]'
set format x '%.1te%T'
set format y '%.1te%T'
set key top right font ',10' box opaque
do for [k = 1:nf] {
  set title word(titles, k) font ',12'
  plot word(files, k) skip 1 u 2:5 w l lw 1.2 lc rgb '#1f77b4' title 'm0: (q0, q0'')', \
       word(files, k) skip 1 u 3:6 w l lw 1.2 dt (6, 4) lc rgb '#d62728' title 'm1: (q1, q1'')'
}
unset multiplot
set output

# xy.gp — paths in the plane of a 2-D friction scenario (docs/design.md §13): every run's
# path (columns x1, x2 of its trajectory file) against the reference's, disc and box cones
# side by side (box runs dashed).
#
# Variables (-e): sdir, fmt, out, files (space-separated quoted paths), titles (legend
# entries), colors ('#rrggbb' per file), dashes (one gnuplot dash type per file: 1 solid, 2 dashed),
# ref (reference CSV or ''), scen (title), note (a line under it, may be ''), W, H.

load sdir.'/common.gp'
set datafile separator ','
nf = words(files)
set title scen font ',15'
if (exists("note") && note ne '') { set title scen."\n{/*0.75 ".note."}" enhanced }
set xlabel 'x [m]'
set ylabel 'y [m]'
# free aspect: a billiard path is 1.5 m long and 0.25 m wide
set key outside right top vertical Left reverse samplen 3 spacing 1.1 font ',10'
if (ref ne '') {
  plot for [k = 1:nf] word(files, k) skip 1 u 2:3 w l lw 2 \
         dt 1*word(dashes, k) lc rgb word(colors, k) title word(titles, k), \
       ref skip 1 u 2:3 w l lw 3.5 dt (8, 6) lc rgb 'black' title 'reference'
} else {
  plot for [k = 1:nf] word(files, k) skip 1 u 2:3 w l lw 2 \
         dt 1*word(dashes, k) lc rgb word(colors, k) title word(titles, k)
}
set output

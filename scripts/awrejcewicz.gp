# awrejcewicz.gp — [Xiong2013] fig. 11 (docs/scenarios/awrejcewicz.md): phase curves (x, xdot)
# of the DAI->ODE (eq. 49) and of the linear smoothing (eq. 50) over their last two cycles
# against the exact limit cycle (first block, black dashed, drawn over them); left the whole
# cycle, then the corner where stick begins, (x_a, vb), and the one where it ends and the
# slip arc starts, (x_b, vb).
#
# Input: data, one block per curve separated by two blank lines, each opened by its quoted
# legend entry; rows "x xdot".
# Variables (-e): sdir, fmt, out, data, colors ('#rrggbb' per block), dts (dash type per
# block), scen (title), xa, xb, xmax (stick start, breakaway point and largest x of the
# cycle), vb (belt speed), W, H.

load sdir.'/common.gp'
nb = words(colors)
set multiplot title scen font ',14' layout 1, 3
set xlabel 'x [m]'
set ylabel 'xdot [m/s]'
set key below maxrows 2 font ',10' samplen 4 width 2
set title 'the limit cycle' font ',12'
plot for [k = 2:nb] data index (k - 1) u 1:2 w l lw 2.5 \
       dt int(word(dts, k)) lc rgb word(colors, k) title columnheader(1), \
     data index 0 u 1:2 w l lw 2 dt (6, 4) lc rgb word(colors, 1) title columnheader(1)
set title 'where stick begins (x_a, vb)' font ',12' noenhanced
set xrange [xa - 0.03 : xa + 0.12]
set yrange [vb - 0.25 * vb : vb + 0.05 * vb]
plot for [k = 2:nb] data index (k - 1) u 1:2 w l lw 2.5 \
       dt int(word(dts, k)) lc rgb word(colors, k) notitle, \
     data index 0 u 1:2 w l lw 2 dt (6, 4) lc rgb word(colors, 1) notitle
set title 'where stick ends (x_b, vb)' font ',12' noenhanced
dx = xmax - xb
set xrange [xb - 3 * dx : xmax + 0.5 * dx]
set yrange [vb - 0.15 * vb : vb + 0.03 * vb]
plot for [k = 2:nb] data index (k - 1) u 1:2 w l lw 2.5 \
       dt int(word(dts, k)) lc rgb word(colors, k) notitle, \
     data index 0 u 1:2 w l lw 2 dt (6, 4) lc rgb word(colors, 1) notitle
unset multiplot
set output

# common.gp — shared set-up of every fricbench plot script (loaded by each, not run alone).
#
# The caller (bench/report/report_gnuplot.c) sends a gnuplot process, per plot and format:
#   reset session
#   reset errorstate; sdir="..."; VARS; fmt='png'; out="A.png"; load "SCRIPT"
#   unset output; set print; print sprintf('@@fricbench N %d', GPVAL_ERRNO)
# so every script runs twice, once per format (the PNG in a process that draws plot after
# plot, the SVG in one of its own), and must leave nothing behind that `reset session`
# does not clear.  Before loading this file a script may set W and H (pixels of the PNG;
# the SVG gets the same size).
# Variables: fmt ('png' or 'svg'), out (output path).

reset
if (!exists("W")) W = 1200
if (!exists("H")) H = 800
if (fmt eq 'svg') {
  set terminal svg size W, H dynamic enhanced font 'DejaVu Sans,13' background rgb 'white' linewidth 1.2
} else {
  set terminal pngcairo size W, H enhanced font 'DejaVu Sans,12' background rgb 'white' linewidth 1.2
}
set output out
set datafile missing 'nan'
set grid lc rgb '#d8d8d8' lw 1
set border lw 1.2
set key noenhanced
set tics nomirror
set border 3
# log-scale tic labels as powers of ten
set format x '%g'
set format y '%g'

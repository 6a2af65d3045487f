# A sweep's Pareto plot: energy against the metric, a panel per platform
# (a front across platforms would compare machines, not settings), one
# colour and marker per policy, fixed by its name (src/whatif/policy_style.c:
# rfc is the same blue in every figure); in each panel of two points or
# more the points no other point of that platform beats on both axes
# (its front) circled and joined; every point labelled with its
# parameters by short keys (the title's last line names their columns).
# Data: pareto.dat: energy_J metric panel series label label_pos
#       energy_drawn count [energy_lo energy_hi metric_lo metric_hi]
#       (label_pos 1-6: above right, below right, above left, below left
#       of its point, above right and above left a line higher, chosen by
#       src/whatif/pareto_labels.c to keep clear of the labels beside it; energy_drawn: where its marker goes, set off
#       from the other policies' on the same spot; count: the points its
#       label stands for)
#       labels-PANEL-POS.dat: energy_J metric label, the labels drawn at
#       spot POS of panel PANEL
#       pareto-front.dat: energy_J metric panel, each panel's front by energy
# With --repeat (vars.gp sets errorbars) each point is the mean of its
# runs, with its 95 % confidence interval on both axes as error bars,
# clipped to what the axis can hold (a jank % stays in 0..100).
load datadir.'/vars.gp'
# a panel per platform, stacked: each keeps the full width for its
# labels and key
height = npanel > 1 ? 80 + 400 * npanel : 720
load plotsdir.'/common.gp'
f = datadir.'/pareto.dat'
fr = datadir.'/pareto-front.dat'
lab(p, k) = sprintf('%s/labels-%d-%d.dat', datadir, p, k)
# a marker per policy style as well as a colour: overlapping points stay
# told apart
array marker[10] = [7, 5, 9, 11, 13, 15, 7, 5, 9, 11]
mk(s) = marker[seriesstyle[s]]
# every column of a point, its bars' ends too: gnuplot's autoscale takes
# them in whether the point itself is drawn or not
inpanel(p, v) = (p == panel ? v : NaN)
set multiplot layout npanel, 1 title runtitle noenhanced
set xlabel 'energy (J)'
set ylabel ylab noenhanced
set key outside right top vertical
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
if (exists('errorbars')) { set errorbars small }
# a metric never below 0 starts at 0 (vars.gp says so): the margin and
# a confidence interval would otherwise reach below it (gnuplot 5.4
# adds the offset past a fixed limit too, so the bottom one goes)
if (exists('ynonneg')) { set offsets graph 0.05, graph 0.12, graph 0.08, 0 }
do for [panel = 1:npanel] {
set title 'on '.panellabel[panel] noenhanced
# an axis along which the panel's points all sit at one value gets the
# range vars.gp gives it (gnuplot would warn and pick one)
if (xfix[panel]) { set xrange [xlo[panel]:xhi[panel]] } else { set xrange [*:*] }
if (yfix[panel]) { set yrange [ylo[panel]:yhi[panel]] } else { if (exists('ynonneg')) { set yrange [0:*] } else { set yrange [*:*] } }
fronttitle = hasfront[panel] ? (exists('errorbars') ? 'Pareto front (means)' : 'Pareto front') : ''
if (exists('errorbars')) {
plot fr using (inpanel($3, $1)):2 with lines lc rgb '#444444' dt 2 lw 1.5 title fronttitle, \
     fr using (inpanel($3, $1)):2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using (inpanel($3, $4 == s ? $7 : NaN)):2:(inpanel($3, $9 + $7 - $1)):(inpanel($3, $10 + $7 - $1)):(inpanel($3, $11)):(inpanel($3, $12)) with xyerrorbars lc rgb seriescolour[s] pt mk(s) ps 1.4 title serieslabel[s].' (mean, 95 % CI)', \
     lab(panel, 1) using 1:2:3 with labels offset 0.9, 0.7 left font ',9' noenhanced notitle, \
     lab(panel, 2) using 1:2:3 with labels offset 0.9, -0.7 left font ',9' noenhanced notitle, \
     lab(panel, 3) using 1:2:3 with labels offset -0.9, 0.7 right font ',9' noenhanced notitle, \
     lab(panel, 4) using 1:2:3 with labels offset -0.9, -0.7 right font ',9' noenhanced notitle, \
     lab(panel, 5) using 1:2:3 with labels offset 0.9, 1.9 left font ',9' noenhanced notitle, \
     lab(panel, 6) using 1:2:3 with labels offset -0.9, 1.9 right font ',9' noenhanced notitle
} else {
plot fr using (inpanel($3, $1)):2 with lines lc rgb '#444444' dt 2 lw 1.5 title fronttitle, \
     fr using (inpanel($3, $1)):2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using (inpanel($3, $4 == s ? $7 : NaN)):2 with points lc rgb seriescolour[s] pt mk(s) ps 1.4 title serieslabel[s], \
     lab(panel, 1) using 1:2:3 with labels offset 0.9, 0.7 left font ',9' noenhanced notitle, \
     lab(panel, 2) using 1:2:3 with labels offset 0.9, -0.7 left font ',9' noenhanced notitle, \
     lab(panel, 3) using 1:2:3 with labels offset -0.9, 0.7 right font ',9' noenhanced notitle, \
     lab(panel, 4) using 1:2:3 with labels offset -0.9, -0.7 right font ',9' noenhanced notitle, \
     lab(panel, 5) using 1:2:3 with labels offset 0.9, 1.9 left font ',9' noenhanced notitle, \
     lab(panel, 6) using 1:2:3 with labels offset -0.9, 1.9 right font ',9' noenhanced notitle
}
}
unset multiplot

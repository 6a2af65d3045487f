# A sweep's Pareto plot: energy against the metric, a panel per platform
# (a front across platforms would compare machines, not settings), one
# colour and marker per policy; in each panel the points no other point
# of that platform beats on both axes (its front) circled and joined,
# every point labelled with its parameters.
# Data: pareto.dat: energy_J metric panel series label [energy_err metric_err]
#       label_pos (1-4: above right, below right, above left, below left of
#       its point, chosen by src/whatif/pareto_labels.c to keep clear of
#       the labels beside it)
#       pareto-front.dat: energy_J metric panel, each panel's front by energy
# With --repeat (vars.gp sets errorbars) each point is the mean of its
# runs, with its 95 % confidence interval on both axes as error bars.
load datadir.'/vars.gp'
# a panel per platform, stacked: each keeps the full width for its
# labels and key
height = npanel > 1 ? 80 + 400 * npanel : 720
load plotsdir.'/common.gp'
f = datadir.'/pareto.dat'
fr = datadir.'/pareto-front.dat'
# a marker per policy as well as a colour: overlapping points stay told apart
array marker[6] = [7, 5, 9, 11, 13, 15]
mk(s) = marker[(s - 1) % 6 + 1]
inpanel(p, v) = (p == panel ? v : NaN)
# the label_pos column, and a label's x where its spot is @k
lp = exists('errorbars') ? 8 : 6
lx(k) = (inpanel($3, column(lp) == k ? $1 : NaN))
set multiplot layout npanel, 1 title runtitle noenhanced
set xlabel 'energy (J)'
set ylabel ylab noenhanced
set key outside right top vertical
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
if (exists('errorbars')) { set errorbars small }
# a metric never below 0 starts at 0 (vars.gp says so): the margin and
# a confidence interval would otherwise reach below it (gnuplot 5.4
# adds the offset past a fixed limit too, so the bottom one goes)
if (exists('ynonneg')) { set offsets graph 0.05, graph 0.12, graph 0.08, 0; set yrange [0:*] }
do for [panel = 1:npanel] {
set title 'on '.panellabel[panel] noenhanced
if (exists('errorbars')) {
plot fr using (inpanel($3, $1)):2 with lines lc rgb '#444444' dt 2 lw 1.5 title 'Pareto front (means)', \
     fr using (inpanel($3, $1)):2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using (inpanel($3, $4 == s ? $1 : NaN)):2:6:7 with xyerrorbars lc (s - 1) % 10 + 1 pt mk(s) ps 1.4 title serieslabel[s].' (mean, 95 % CI)', \
     f using (lx(1)):2:5 with labels offset 0.9, 0.7 left font ',9' notitle, \
     f using (lx(2)):2:5 with labels offset 0.9, -0.7 left font ',9' notitle, \
     f using (lx(3)):2:5 with labels offset -0.9, 0.7 right font ',9' notitle, \
     f using (lx(4)):2:5 with labels offset -0.9, -0.7 right font ',9' notitle
} else {
plot fr using (inpanel($3, $1)):2 with lines lc rgb '#444444' dt 2 lw 1.5 title 'Pareto front', \
     fr using (inpanel($3, $1)):2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using (inpanel($3, $4 == s ? $1 : NaN)):2 with points lc (s - 1) % 10 + 1 pt mk(s) ps 1.4 title serieslabel[s], \
     f using (lx(1)):2:5 with labels offset 0.9, 0.7 left font ',9' notitle, \
     f using (lx(2)):2:5 with labels offset 0.9, -0.7 left font ',9' notitle, \
     f using (lx(3)):2:5 with labels offset -0.9, 0.7 right font ',9' notitle, \
     f using (lx(4)):2:5 with labels offset -0.9, -0.7 right font ',9' notitle
}
}
unset multiplot

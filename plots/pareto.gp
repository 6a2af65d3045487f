# A sweep's Pareto plot: energy against a latency metric, one colour per
# policy and platform; the points no other point beats on both axes (the
# front) circled and joined, every point labelled with its parameters.
# Data: pareto.dat: energy_J metric series label [energy_err metric_err]
#       pareto-front.dat: the front, by energy
# With --repeat (vars.gp sets errorbars) each point is the mean of its
# runs, with its 95 % confidence interval on both axes as error bars.
load datadir.'/vars.gp'
height = 720
load plotsdir.'/common.gp'
f = datadir.'/pareto.dat'
set title runtitle noenhanced
set xlabel 'energy (J)'
set ylabel ylab noenhanced
set key outside right top vertical
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
if (exists('errorbars')) {
set errorbars small
plot datadir.'/pareto-front.dat' using 1:2 with lines lc rgb '#444444' dt 2 lw 1.5 title 'Pareto front (means)', \
     datadir.'/pareto-front.dat' using 1:2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using ($3 == s ? $1 : NaN):2:5:6 with xyerrorbars lc (s - 1) % 10 + 1 pt 7 ps 1.4 title serieslabel[s].' (mean, 95 % CI)', \
     f using 1:2:4 with labels offset 0.9, 0.7 left font ',9' notitle
} else {
plot datadir.'/pareto-front.dat' using 1:2 with lines lc rgb '#444444' dt 2 lw 1.5 title 'Pareto front', \
     datadir.'/pareto-front.dat' using 1:2 with points pt 6 ps 2.6 lw 2 lc rgb '#222222' notitle, \
     for [s = 1:nseries] f using ($3 == s ? $1 : NaN):2 with points lc (s - 1) % 10 + 1 pt 7 ps 1.4 title serieslabel[s], \
     f using 1:2:4 with labels offset 0.9, 0.7 left font ',9' notitle
}

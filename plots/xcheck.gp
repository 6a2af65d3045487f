# capsim xcheck: the guest kernel's and the simulator's run of one
# workload. xcheck-freq: each domain's frequency over the same window, the
# guest above the simulator on one time axis, with each CPU's clamp band
# (the OPPs its capacity_min/max resolve to; dashed: max, dotted: min).
# xcheck-residency: each domain's time per OPP, guest and simulator side
# by side (and the simulation with the guest's other tasks modelled, the
# one the gate compares). Data (written by capsim xcheck):
# plot-{guest,sim}-fDOM.dat lines "f DOM T KHZ", plot-{guest,sim}-bCPU.dat
# lines "b CPU T MIN_KHZ MAX_KHZ"; plot-residency-domN.dat
# "MHz guest% sim% sim-with-others%"; plot-vars.gp. The figures go to
# outdir (a directory capsim made for them, src/outputs/gnuplot.c).
load datadir.'/plot-vars.gp'
tl(side, kind, idx) = sprintf('%s/plot-%s-%s%d.dat', datadir, side, kind, idx)

out = outdir.'/xcheck-freq.'.fmt
height = 760
load scriptsdir.'/common.gp'
# left: the whole window; right: 200 ms from its middle, where single
# bursts and each decision's step show
zoom0 = duration / 2
zoom1 = zoom0 + (duration > 0.4 ? 0.2 : duration / 4)
set multiplot layout 2, 2 title runtitle."\nfrequency and each CPU's clamp band (right: 200 ms from the middle)" noenhanced
set yrange [0:fmaxmhz * 1.1]
set ylabel 'MHz'
do for [side = 1:2] {
	name = side == 1 ? 'guest' : 'sim'
	do for [z = 0:1] {
		set title (side == 1 ? 'guest kernel' : 'simulator').(z ? ', zoomed' : '') noenhanced
		if (z) { set xrange [zoom0:zoom1]; set key outside right top vertical font ',8' } \
		else { set xrange [0:duration]; unset key }
		if (side == 2) { set xlabel 's from the first event of a workload task' } else { unset xlabel }
		plot for [d = 0:ndoms - 1] tl(name, 'f', d) using 3:($4 / 1000) \
			with steps lw 1.5 lc d + 1 title sprintf('domain %d', d), \
		     for [c = 0:ncpus - 1] tl(name, 'b', c) using 3:($5 / 1000) \
			with steps lw 2 dt 2 lc c + 3 title sprintf('cpu%d max', c), \
		     for [c = 0:ncpus - 1] tl(name, 'b', c) using 3:($4 / 1000) \
			with steps lw 2 dt 3 lc c + 3 notitle
	}
}
unset multiplot
unset xlabel

out = outdir.'/xcheck-residency.'.fmt
height = 480
load scriptsdir.'/common.gp'
set key inside top left font ',10'
set multiplot layout 1, ndoms title runtitle."\ntime at each OPP: guest and simulator" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set yrange [0:115]
set xrange [*:*]
set ylabel '% of the window'
set xlabel 'MHz'
unset title
set key inside top left font ',10'
do for [d = 1:ndoms] {
	f = sprintf('%s/plot-residency-dom%d.dat', datadir, d - 1)
	if (hassimk) {
		set title sprintf('domain %d: TVD to the guest %.3f (with other tasks), %.3f (without)', d - 1, tvd[d], tvdp[d]) noenhanced
		plot f using 2:xtic(1) title 'guest' lc 1, \
		     f using 4 title 'simulator + other tasks' lc 3, \
		     f using 3 title 'simulator' lc 2
	} else {
		set title sprintf('domain %d: TVD to the guest %.3f', d - 1, tvd[d]) noenhanced
		plot f using 2:xtic(1) title 'guest' lc 1, \
		     f using 3 title 'simulator' lc 2
	}
}
unset multiplot

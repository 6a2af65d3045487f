# The import check: the source trace's task lanes above the simulated
# run's, the same lanes (tasks matched by name) on one time axis from the
# window's start (lanes.gp draws each), then per frequency domain the
# source's frequency (solid) and the simulation's (dashed) on that axis;
# no line where a trace does not know its frequency.
# Data: activity-source.dat, activity-sim.dat (lane t0_s t1_s state cpu),
# freq-source-dom<N>.dat, freq-sim-dom<N>.dat (time_s MHz ...: steps, or
# the mean per bin when the window holds more changes than 1000 px show)
load datadir.'/vars.gp'
lanes_h = 120 + 26 * (nlanes < 4 ? 4 : nlanes)
# tall enough for the key's one column: runnable and up to 9 CPU colours
key_h = 130 + 18 * ((ncpus < 9 ? ncpus : 9) + 1)
lanes_h = lanes_h > key_h ? lanes_h : key_h
freq_h = 190
height = 20 + 2 * lanes_h + ndoms * freq_h
load plotsdir.'/common.gp'
set multiplot
set xrange [tfrom:tto]
top = 1.0
f = datadir.'/activity-source.dat'
set size 1, lanes_h * 1.0 / height
set origin 0, top - lanes_h * 1.0 / height
top = top - lanes_h * 1.0 / height
set title srctitle."\nrunning (colour: CPU), runnable (grey), sleeping (blank)".(lanenote eq '' ? '' : '; '.lanenote) noenhanced
load plotsdir.'/lanes.gp'
f = datadir.'/activity-sim.dat'
set size 1, lanes_h * 1.0 / height
set origin 0, top - lanes_h * 1.0 / height
top = top - lanes_h * 1.0 / height
set title simtitle noenhanced
load plotsdir.'/lanes.gp'
set ytics auto
set yrange [*:*]
set grid ytics
set ylabel 'MHz'
do for [i = 1:ndoms] {
	set size 1, freq_h * 1.0 / height
	set origin 0, top - freq_h * 1.0 / height
	top = top - freq_h * 1.0 / height
	set title domlabel[i] noenhanced
	set yrange [0:domfmax[i] * 1.1]
	fs = sprintf('%s/freq-source-dom%d.dat', datadir, i - 1)
	fm = sprintf('%s/freq-sim-dom%d.dat', datadir, i - 1)
	plot fs using 1:2 with steps lc 1 lw 2 title 'source', \
	     fm using 1:2 with steps lc 2 lw 2 dt 2 title 'simulated'
}
unset multiplot

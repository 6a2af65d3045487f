# The import check: the source trace's task lanes above the simulated
# run's, the same lanes (tasks matched by name) on one time axis from the
# window's start (lanes.gp draws each).
# Data: activity-source.dat, activity-sim.dat (lane t0_s t1_s state cpu)
load datadir.'/vars.gp'
panel = 80 + 26 * (nlanes < 4 ? 4 : nlanes)
height = 60 + 2 * panel
load plotsdir.'/common.gp'
set multiplot layout 2,1
set xrange [tfrom:tto]
f = datadir.'/activity-source.dat'
set title srctitle."\nrunning (colour: CPU), runnable (grey), sleeping (blank)".(lanenote eq '' ? '' : '; '.lanenote) noenhanced
load plotsdir.'/lanes.gp'
f = datadir.'/activity-sim.dat'
set title simtitle noenhanced
load plotsdir.'/lanes.gp'
unset multiplot

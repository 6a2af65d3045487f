# Task activity: a lane per task (the group after its name); a tall bar
# while it runs, coloured by the CPU it runs on; a thin grey bar while it
# is runnable but waiting; nothing while it sleeps.
# Data: activity.dat: lane t0_s t1_s state(1 runnable, 2 running) cpu
load datadir.'/vars.gp'
height = 150 + 30 * (nlanes < 6 ? 6 : nlanes)
load plotsdir.'/common.gp'
f = datadir.'/activity.dat'
set title runtitle."\ntask activity: running (colour: CPU; height: share of the time, where runs merge), runnable (grey), sleeping (blank)".(lanenote eq '' ? '' : '; '.lanenote) noenhanced
set xrange [tfrom:tto]
load plotsdir.'/lanes.gp'

# Task activity: a lane per task (the group after its name); a tall bar
# while it runs, coloured by the CPU it runs on; a thin grey bar while it
# is runnable but waiting; nothing while it sleeps.
# Under them, a lane per chain of a run with chains: its vsync marks, each
# frame from its vsync to its completion, late ones red (lanes.gp).
# Data: activity.dat: lane t0_s t1_s state(1 runnable, 2 running, 3-6 a
# frame lane's rows) cpu share
load datadir.'/vars.gp'
# the task lanes, then a lane per chain (nframelanes: lanes.gp); tall
# enough for the key's one column too: runnable, up to 9 CPU colours and
# the frame lanes' four or five entries
height = 150 + 30 * (nlanes + nframelanes < 6 ? 6 : nlanes + nframelanes)
keyn = 1 + (ncpus < 9 ? ncpus : 9) + (nframelanes > 0 ? 4 + framemarks : 0)
height = height > 130 + 20 * keyn ? height : 130 + 20 * keyn
load plotsdir.'/common.gp'
f = datadir.'/activity.dat'
set title runtitle."\ntask activity: running (colour: CPU; height: share of the time, where runs merge), runnable (grey), sleeping (blank)".(lanenote eq '' ? '' : '; '.lanenote).(framenote eq '' ? '' : "\n".framenote) noenhanced
set xrange [tfrom:tto]
load plotsdir.'/lanes.gp'

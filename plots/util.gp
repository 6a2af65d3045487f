# Per-CPU utilization (capsim's simplified signal, --trace-util) against
# the CPU's clamp range (the RFC's, cap_clamp_cpu, or under uclamp the
# rq's clamps, lisa__uclamp_util_cfs: the band's source), in capacity units;
# gaps where the CPU was idle (no samples).
# Data: util-cpu<N>.dat: time_s util clamp_min clamp_max. vars.gp: nutil
# panels, utilcpu[i] the CPU of panel i (at most 16, the busiest: cpunote
# says so), utilhas[i] 1 when it has samples in the window
load datadir.'/vars.gp'
height = 110 + 170 * nutil
load plotsdir.'/common.gp'
set multiplot layout nutil, 1 title runtitle."\nCPU utilization (CFS+RT+DL) and the CPU's clamp range".(cpunote eq '' ? '' : '; '.cpunote) noenhanced
set xrange [tfrom:tto]
set yrange [0:1100]
set ytics 0, 256, 1024
set key outside right top vertical
set lmargin 10
set rmargin 24
do for [i = 1:nutil] {
	c = utilcpu[i]
	f = sprintf('%s/util-cpu%d.dat', datadir, c)
	set title sprintf('CPU %d', c)
	if (i == nutil) { set xlabel 'time (s)' } else { unset xlabel }
	if (i == 1) { set key } else { unset key }
	if (utilhas[i]) {
		plot f using 1:3:4 with filledcurves fc rgb '#cfe3f5' fs solid 1.0 noborder title 'clamp range', \
		     f using 1:2 with lines lc (c % 10) + 1 lw 1.5 title 'utilization'
	} else {
		set label 1 'no samples (idle)' at graph 0.5, 0.5 center noenhanced
		plot NaN notitle
		unset label 1
	}
}
unset multiplot

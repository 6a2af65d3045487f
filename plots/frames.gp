# Frames: a panel per chain, each frame's latency (its vsync to its last
# task's completion) at its vsync's time, against the chain's deadline
# (dashed); late frames red, on-time ones blue, a frame lost (a resume
# found the next task busy) a cross on the deadline, one never finished
# otherwise a circle there, a latency above the axis a triangle at its top
# (plot_frames.c).
# Data: frames.dat: chain(from 0) t_s latency_ms state(0 on time, 1 late,
# 2 lost, 3 not finished) clipped
load datadir.'/vars.gp'
# the first panel also holds the run's title line
panel_h = 300
height = 30 + panel_h * nframelanes
load plotsdir.'/common.gp'
f = datadir.'/frames.dat'
set multiplot
set xrange [tfrom:tto]
set xlabel "frame's vsync (s)"
set ylabel 'latency (ms)'
set key outside right top vertical
set lmargin 10
set rmargin 26
do for [i = 1:nframelanes] {
	set size 1, (panel_h + (i == 1 ? 30 : 0)) * 1.0 / height
	set origin 0, 1.0 - (30 + panel_h * i) * 1.0 / height
	set title (i == 1 ? runtitle."\n" : '').ftitle[i]."\n".fsub[i] noenhanced
	set yrange [0:fymax[i]]
	unset arrow
	set arrow 1 from graph 0, first fdeadline[i] to graph 1, first fdeadline[i] nohead dt 2 lw 1.5 lc rgb '#333333' front
	c = i - 1
	plot f using (($1 == c && $4 == 0 && $5 == 0) ? $2 : NaN):3 with points pt 7 ps 0.35 lc rgb '#5b8fc7' title 'on time', \
	     f using (($1 == c && $4 == 1 && $5 == 0) ? $2 : NaN):3 with points pt 7 ps 0.45 lc rgb '#d62728' title 'late', \
	     f using (($1 == c && $4 == 1 && $5 == 1) ? $2 : NaN):3 with points pt 9 ps 0.8 lc rgb '#d62728' title 'late, off the axis', \
	     f using (($1 == c && $4 == 2) ? $2 : NaN):3 with points pt 2 ps 0.9 lw 1.5 lc rgb '#8b0000' title 'lost', \
	     f using (($1 == c && $4 == 3) ? $2 : NaN):3 with points pt 6 ps 0.7 lw 1.5 lc rgb '#8b0000' title 'not done', \
	     NaN with lines dt 2 lw 1.5 lc rgb '#333333' title sprintf('deadline %.3f ms', fdeadline[i])
}
unset multiplot

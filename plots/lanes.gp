# Task lanes, shared by activity.gp and import-check.gp: a lane per task
# (lanelabel[1..nlanes] from the top); a tall bar while it runs,
# coloured by the CPU it runs on; a thin grey bar while it is runnable but
# waiting; nothing while it sleeps. The caller sets the title, the x
# range, ncpus and f, the data: lane t0_s t1_s state(1 runnable, 2 running) cpu
# [share]: a row may be runs less than a pixel apart merged (plot.c), share
# the part of it they fill, drawn as the bar's height (none: 1)
# Under the tasks, activity.gp's frame lanes (plot_frames.c), one per
# chain (framelabel[1..nframelanes]), rows of the same file told apart by
# their state: 3 a frame on time, 4 late (each from its vsync to its last
# task's completion, column 6 its offset in the lane), 5 a vsync mark
# (framemarks: drawn in this window), 6 lost (a cross at its vsync), 7
# not finished otherwise (a circle)
# CPU colours: the palette without its grey, which is the runnable bar's
array cpult[9] = [1, 2, 3, 4, 5, 6, 7, 9, 10]
nfl = exists('nframelanes') ? nframelanes : 0
set yrange [nlanes + nfl + 0.7:0.3]
set ytics () noenhanced
do for [i = 1:nlanes] { set ytics add (lanelabel[i] i) }
if (nfl > 0) { do for [i = 1:nfl] { set ytics add (framelabel[i] nlanes + i) } }
set grid noytics
set xlabel 'time (s)'
set key outside right top vertical
# lanemargin (plot.c): characters of the longest label; 22 where the
# caller does not measure its labels
set lmargin (exists('lanemargin') ? lanemargin : 22)
set rmargin 22
# a border in the bar's own colour keeps sub-pixel runs visible
set style fill solid 1.0 border
# a colour per CPU up to 9 CPUs, then CPUs c, c + 9, c + 18... share one:
# one pass over the data per colour, not per CPU (1024 were minutes)
ncol = ncpus < 9 ? ncpus : 9
cputitle(c) = ncpus <= 9 ? sprintf('on CPU %d', c) : sprintf('on CPU %d, %d, ...', c, c + 9)
# a bar's half height, at least a sliver's
share(h) = (valid(6) ? (column(6) > 0.08 ? column(6) : 0.08) : 1) * h
# a frame layer's key entry only where there are frame lanes
ftitle_if(s) = nfl > 0 ? s : ''
plot f using (($4 == 1) ? ($2 + $3) / 2 : NaN):1:(($3 - $2) / 2):(share(0.1)) with boxxyerror lc rgb '#b0b0b0' lw 0.5 title 'runnable', \
     for [c = 0:ncol - 1] f using (($4 == 2 && int($5) % 9 == c) ? ($2 + $3) / 2 : NaN):1:(($3 - $2) / 2):(share(0.36)) with boxxyerror lc cpult[c + 1] lw 0.5 title cputitle(c), \
     f using (($4 == 5) ? $2 : NaN):($1 - 0.42):(0):(0.84) with vectors nohead lc rgb '#9a9a9a' lw 0.5 title (nfl > 0 && framemarks ? 'vsync' : ''), \
     f using (($4 == 3) ? ($2 + $3) / 2 : NaN):($1 + $6):(($3 - $2) / 2):(0.11) with boxxyerror lc rgb '#5b8fc7' lw 0.5 title ftitle_if('frame on time'), \
     f using (($4 == 4) ? ($2 + $3) / 2 : NaN):($1 + $6):(($3 - $2) / 2):(0.11) with boxxyerror lc rgb '#d62728' lw 0.5 title ftitle_if('frame late'), \
     f using (($4 == 6) ? $2 : NaN):1 with points pt 2 ps 0.9 lw 1.5 lc rgb '#8b0000' title ftitle_if('frame lost'), \
     f using (($4 == 7) ? $2 : NaN):1 with points pt 6 ps 0.7 lw 1.5 lc rgb '#8b0000' title ftitle_if('frame not done')

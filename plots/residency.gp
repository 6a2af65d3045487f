# Residency: the share of the run (or of the window, --from/--to) each
# domain spent at each OPP.
# Data: residency-dom<N>.dat: MHz percent, for the domains of the freq
# panels (domidx[i]); domnopps[i] 0: no OPP known (no cpu_frequency event
# and no platform)
load datadir.'/vars.gp'
# at most 4 panels a row (8 in one row were too narrow to read), a row
# 400 px more each
ncols = ndoms < 1 ? 1 : ndoms < 4 ? ndoms : 4
nrows = ndoms < 1 ? 1 : (ndoms + 3) / 4
height = 480 + 400 * (nrows - 1)
load plotsdir.'/common.gp'
set multiplot layout nrows, ncols title runtitle."\ntime at each OPP per domain".(windownote eq '' ? ', whole run' : ', '.windownote).(domnote eq '' ? '' : '; '.domnote) noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:115]
set ylabel '% of the run'
set xlabel 'MHz'
set xtics rotate by -45 font ',9'
unset key
if (ndoms == 0) {
	set label 1 'no frequency domain' at graph 0.5, 0.5 center noenhanced
	plot NaN notitle
	unset label 1
}
do for [i = 1:ndoms] {
	f = sprintf('%s/residency-dom%d.dat', datadir, domidx[i])
	# name and CPUs on two lines: a panel is 1000 px / ndoms wide, and
	# one line was clipped from 6 domains on
	set title domname[i]."\n".domcpus[i] noenhanced
	if ((i - 1) % ncols == 0) { set ylabel (windownote eq '' ? '% of the run' : '% of the window') } else { unset ylabel }
	if (!domnopps[i]) {
		set label 1 'no OPP known' at graph 0.5, 0.5 center noenhanced
		plot NaN notitle
		unset label 1
		continue
	}
	plot f using 0:2:xtic(1) with boxes lc i, \
	     f using 0:2:(sprintf('%.0f', $2)) with labels offset 0, 0.7 font ',9'
}
unset multiplot

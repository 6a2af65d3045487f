# Residency: the share of the run each domain spent at each OPP.
# Data: residency-dom<N>.dat: MHz percent
load datadir.'/vars.gp'
height = 480
load plotsdir.'/common.gp'
set multiplot layout 1, ndoms title runtitle."\ntime at each OPP per domain" noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:115]
set ylabel '% of the run'
set xlabel 'MHz'
set xtics rotate by -45 font ',9'
unset key
do for [i = 1:ndoms] {
	f = sprintf('%s/residency-dom%d.dat', datadir, i - 1)
	set title domlabel[i] noenhanced
	plot f using 0:2:xtic(1) with boxes lc i, \
	     f using 0:2:(sprintf('%.0f', $2)) with labels offset 0, 0.7 font ',9'
}
unset multiplot

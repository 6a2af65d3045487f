# capsim compare: every policy side by side in one figure. Top: energy
# per domain, a bar per policy; below, a panel per domain: the share of
# the run at each OPP, a bar per policy.
# Data (compare-data/): energy.dat "domain" "POLICY"...: a row per domain,
# mJ per policy; residency-dom<N>.dat "MHz" "POLICY"...: a row per OPP.
load datadir.'/vars.gp'
height = 420 + 330 * ndoms
load plotsdir.'/common.gp'
set multiplot layout 1 + ndoms, 1 title runtitle noenhanced
set style fill solid 0.85 border -1
set boxwidth bw absolute
set xtics scale 0 noenhanced
set key outside right top vertical
set lmargin 10
set rmargin 16
f = datadir.'/energy.dat'
set title 'energy per domain (whole run)' noenhanced
set ylabel 'energy (mJ)'
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.15, 0
# the header row: the policies' titles; skipped for tics and labels
plot f skip 1 using 0:(0):xtic(1) with points ps 0 notitle, \
     for [c = 2:nseries + 1] f using (barx($0, c - 2)):c with boxes title columnheader(c) lc rgb seriescolour[c - 1], \
     for [c = 2:nseries + 1] f skip 1 using (barx($0, c - 2)):c:(sprintf('%.0f', column(c))) with labels offset 0, 0.7 font ',9' notitle
set ylabel '% of the run'
set yrange [0:115]
set xlabel 'MHz'
unset key
do for [i = 1:ndoms] {
	f = sprintf('%s/residency-dom%d.dat', datadir, i - 1)
	set title 'time at each OPP: '.domlabel[i] noenhanced
	plot f skip 1 using 0:(0):xtic(1) with points ps 0 notitle, \
	     for [c = 2:nseries + 1] f using (barx($0, c - 2)):c with boxes title columnheader(c) lc rgb seriescolour[c - 1], \
	     for [c = 2:nseries + 1] f skip 1 using (barx($0, c - 2)):c:(sprintf('%.0f', column(c))) with labels offset 0, 0.7 font ',8' notitle
}
unset multiplot

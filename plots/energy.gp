# Energy per domain, one bar per series (a run's policy, or each policy of
# a comparison), its value on top of it. Data: energy.dat: a header
# "domain" "SERIES"..., then a row per domain: "label" mJ...
# Bars and labels are placed by one function, barx() (common.gp): a label sits on
# its own bar by construction (the histogram style counted the header as
# a row for the labels: each label sat on the bar to its right).
load datadir.'/vars.gp'
height = 460
load plotsdir.'/common.gp'
f = datadir.'/energy.dat'
set title runtitle."\nenergy per domain".(exists('energynote') && energynote ne '' ? '; '.energynote : '') noenhanced
set style fill solid 0.85 border -1
set boxwidth bw absolute
set ylabel 'energy (mJ)'
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.12, 0
set xtics scale 0 noenhanced
set key outside right top vertical
# the header row: the series' titles for the bars; skipped for the domain
# names (a tic under each cluster's middle) and the labels
plot f skip 1 using 0:(0):xtic(1) with points ps 0 notitle, \
     for [c = 2:nseries + 1] f using (barx($0, c - 2)):c with boxes title columnheader(c) lc rgb seriescolour[c - 1], \
     for [c = 2:nseries + 1] f skip 1 using (barx($0, c - 2)):c:(sprintf('%.0f', column(c))) with labels offset 0, 0.7 font ',9' notitle

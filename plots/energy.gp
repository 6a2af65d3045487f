# Energy per domain, one bar per series (a run's policy, or each policy of
# a comparison). Data: energy.dat: a header "domain" "SERIES"..., then a
# row per domain: "label" mJ...
load datadir.'/vars.gp'
if (!exists('nseries')) nseries = 1
height = 460
load plotsdir.'/common.gp'
f = datadir.'/energy.dat'
set title runtitle."\nenergy per domain" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'energy (mJ)'
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set key outside right top vertical
plot for [c = 2:nseries + 1] f using c:xtic(1) title columnheader(c) lc c - 1, \
     for [c = 2:nseries + 1] f using ($0 + (c - 2 - (nseries - 1) / 2.0) / (nseries + 1.0)):c:(sprintf('%.0f', column(c))) with labels offset 0, 0.7 font ',9' notitle

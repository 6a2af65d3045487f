# One panel per frequency domain: the frequency and the clamp band
# composed for the domain (MAX of the mins, MAX of the maxes of its busy
# CPUs: the RFC's core's rule, and the range schedutil's MAX over the
# CPUs' clamped utils stays in under uclamp), drawn as the OPPs it
# allows: the lowest OPP at or above fmax * clamp / capacity, as
# schedutil resolves a request. A cap and a frequency compare by eye on
# the same MHz axis. bandname says whose range: the RFC's ('clamp band')
# or uclamp's rq clamps ('uclamp effective range').
# Data: freq-dom<N>.dat: time_s MHz MHz_low MHz_high band_min_MHz
# band_max_MHz has_band -- steps, or, when the window holds more changes
# than 1000 px can show, bins (dombin[N] ms wide): the time-weighted mean
# frequency, the range of levels within the bin, the band's envelope in
# the bin (its lowest min, its highest max).
# vars.gp: ndoms panels, domidx[i] the domain of panel i (at most 8, the
# busiest: domnote says so), domhas[i] 0 when it has no frequency level.
load datadir.'/vars.gp'
npanels = ndoms > 0 ? ndoms : 1
height = 110 + 250 * npanels
load plotsdir.'/common.gp'
set multiplot layout npanels, 1 title runtitle."\nfrequency per domain".(hasband ? '; shaded blue: the OPPs the '.bandname.' allows' : '; '.bandnote).(domnote eq '' ? '' : '; '.domnote).(freqnote eq '' ? '' : "\n".freqnote) noenhanced
set xrange [tfrom:tto]
set ylabel 'MHz'
set lmargin 10
set rmargin 4
if (ndoms == 0) {
	set label 1 'no frequency domain' at graph 0.5, 0.5 center noenhanced
	plot NaN notitle
	unset label 1
}
do for [i = 1:ndoms] {
	f = sprintf('%s/freq-dom%d.dat', datadir, domidx[i])
	binned = dombin[i] > 0
	set title domlabel[i].(hasband && !domband[i] ? '  (no clamp on its CPUs)' : '').(binned ? sprintf('  [busy: mean per %.3g ms bin; light red: lowest..highest OPP, blue: widest band in the bin]', dombin[i]) : '') noenhanced
	# domytics holds numbers only (plot.c writes it): the one string
	# pasted into a command; cmd below is built from literals
	eval sprintf('set ytics (%s)', domytics[i])
	set yrange [0:domfmax[i] * 1.1]
	if (!domhas[i]) {
		set label 1 'no cpu_frequency event for this domain' at graph 0.5, 0.5 center noenhanced
		plot NaN notitle
		unset label 1
		continue
	}
	if (i == ndoms) {
		set xlabel 'time (s)'
		set key outside below center horizontal samplen 2
	} else {
		unset xlabel
		unset key
	}
	# one plot command, the band and the bin envelope only when drawn
	# fills first, the band's lines over them: the band max stays visible
	# over a bin's OPP range
	cmd = 'plot '
	if (hasband) {
		cmd = cmd."f using 1:($7 > 0 ? $5 : NaN):($7 > 0 ? $6 : NaN) with filledcurves fc rgb '#cfe3f5' fs solid 1.0 noborder title bandname, "
	}
	if (binned) {
		cmd = cmd."f using 1:3:4 with filledcurves fc rgb '#f4b6b6' fs transparent solid 0.5 noborder title 'OPP range in bin', "
	}
	if (hasband) {
		cmd = cmd."f using 1:($7 > 0 ? $6 : NaN) with lines lc rgb '#1f4e9c' lw 1.5 title 'band max (allowed OPP)', "
		cmd = cmd."f using 1:($7 > 0 ? $5 : NaN) with lines lc rgb '#2ca02c' lw 1 title 'band min (allowed OPP)', "
	}
	cmd = cmd."f using 1:2 with lines lc rgb '#d62728' lw 2 title '".(binned ? 'frequency (mean)' : 'frequency')."'"
	eval cmd
}
unset multiplot

#!/bin/sh
# Frequency timeline of an ftrace text trace (capsim's trace.txt or one
# captured from a kernel): one step line per CPU from the cpu_frequency
# events, and each CPU's clamp range (min and max, on the capacity axis)
# from cap_clamp_cpu events when present. A dependency-free quick look;
# `capsim plot` draws the band in frequency units.
#   plots/freq-timeline.sh TRACE OUT.png|OUT.svg [CPU...]
set -eu
trace=${1:?usage: freq-timeline.sh TRACE OUT.png|OUT.svg [CPU...]}
out=${2:?}
shift 2
cpus="$*"
command -v gnuplot >/dev/null || { echo "freq-timeline: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }
[ -r "$trace" ] || { echo "freq-timeline: cannot read $trace" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "comm-pid [cpu] flags secs.usecs: event: k=v ..." -> per-CPU data files
awk -v dir="$tmp" -v want="$cpus" '
BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
/^#/ { next }
{
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
	if (i > NF) next
	t = substr($i, 1, length($i) - 1) + 0
	if (t > tmax) tmax = t
	ev = $(i + 1)
	delete kv
	for (j = i + 2; j <= NF; j++) { split($j, p, "="); kv[p[1]] = p[2] }
	if (ev == "cpu_frequency:") {
		c = kv["cpu_id"]
		# a CPU is a number: it names files and lands in gnuplot code
		if (c !~ /^[0-9]+$/ || (n && !(c in keep))) next
		print t, kv["state"] / 1000 >> (dir "/freq" c)
		lastf[c] = kv["state"] / 1000
		seen[c] = 1
	} else if (ev == "cap_clamp_cpu:") {
		c = kv["cpu"]
		if (c !~ /^[0-9]+$/ || (n && !(c in keep))) next
		print t, kv["min"], kv["max"] >> (dir "/clamp" c)
		lastc[c] = kv["min"] " " kv["max"]
	}
}
END {
	# Hold every last state until the end of the trace, so steps show.
	for (c in lastf) print tmax, lastf[c] >> (dir "/freq" c)
	for (c in lastc) print tmax, lastc[c] >> (dir "/clamp" c)
	for (c in seen) print c > (dir "/cpus")
}' "$trace"

[ -s "$tmp/cpus" ] || { echo "freq-timeline: no cpu_frequency events in $trace" >&2; exit 1; }

case $out in
*.svg) term="svg size 1000,600 dynamic" ;;
*.png) term="pngcairo size 1000,600" ;;
*) echo "freq-timeline: output must end in .png or .svg" >&2; exit 2 ;;
esac
gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 || term=$(echo "$term" | sed 's/pngcairo/png/')

# A string for gnuplot code, as capsim's gp_quote(): single-quoted (no
# backtick or escape runs there), each ' as "'" (gnuplot 5.4 misreads a
# doubled ''), control characters as '?' (a newline would end the line)
gp_quote() {
	printf "'%s'" "$(printf %s "$1" | tr '[:cntrl:]' '?' | sed "s/'/'.\"'\".'/g")"
}

# gnuplot writes into the temporary directory; the plot is moved to
# $out after: no path of the user's is in the script (a name starting
# with '|' would be a command to gnuplot's set output)
{
	echo "set terminal $term"
	echo "set output '$tmp/out'"
	echo "set title $(gp_quote "CPU frequency: $(basename "$(dirname "$trace")")/$(basename "$trace")") noenhanced"
	echo "set xlabel 'time (s)'"
	echo "set ylabel 'frequency (MHz)'"
	echo "set y2label 'clamp (capacity)'"
	echo "set y2range [0:1100]"
	echo "set y2tics"
	echo "set key outside right"
	echo "set grid"
	printf "plot "
	sep=""
	for c in $(sort -n "$tmp/cpus"); do
		printf "%s'%s' using 1:2 with steps lw 2 title 'cpu%s'" "$sep" "$tmp/freq$c" "$c"
		sep=", "
		if [ -s "$tmp/clamp$c" ]; then
			printf "%s'%s' using 1:3 axes x1y2 with steps dt 2 title 'cpu%s max'" "$sep" "$tmp/clamp$c" "$c"
			printf "%s'%s' using 1:2 axes x1y2 with steps dt 3 title 'cpu%s min'" "$sep" "$tmp/clamp$c" "$c"
		fi
	done
	echo
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
mv -f "$tmp/out" "$out"
echo "freq-timeline: wrote $out"

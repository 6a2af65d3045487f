#!/bin/bash
# The table of kernel/tools/overhead.sh from its results.txt: per metric
# and variant the number of runs, the median, min and max over all runs
# (boots x repetitions), and the ratio of the median to the base
# variant's (off unless named; "-" when the base has no value).
# Usage: overhead-table.sh RESULTS.txt [BASE]
#   msg time      capsim-msg's time_ns, in ms
#   wake median   capsim-wake (timer) per-run median delay, in us
#   wake p99      its per-run 99th percentile, in us
#   pipe median   capsim-wake -P per-run median delay, in us
#   pipe p99      its per-run 99th percentile, in us
set -euo pipefail
[ $# = 1 ] || [ $# = 2 ] || { echo "usage: overhead-table.sh RESULTS.txt [BASE]" >&2; exit 2; }
base_variant=${2:-off}
case $base_variant in *[!a-z0-9-]*|'') echo "overhead-table: BASE=$base_variant: [a-z0-9-] only" >&2; exit 2 ;; esac
awk -v basev="$base_variant" '
/^#/ { print "<!-- " substr($0, 3) " -->"; next }
function val(key,   i, kv) {
	for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) return kv[2] }
	return ""
}
function add(metric, v, x) {
	if (x == "") return
	n = ++cnt[metric, v]; vals[metric, v, n] = x
	if (!((metric, v) in seen)) { seen[metric, v] = 1 }
	if (!(v in vseen)) { vseen[v] = 1; vorder[++nv] = v }
}
{
	v = $1
	if ($3 == "msg") add("msg time (ms)", v, val("time_ns") / 1e6)
	if ($3 == "wake") { add("wake median (us)", v, val("median_ns") / 1e3); add("wake p99 (us)", v, val("p99_ns") / 1e3) }
	if ($3 == "pipe") { add("pipe median (us)", v, val("median_ns") / 1e3); add("pipe p99 (us)", v, val("p99_ns") / 1e3) }
}
function median(metric, v,   n, i, j, a, t) {
	n = cnt[metric, v]
	for (i = 1; i <= n; i++) a[i] = vals[metric, v, i]
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	split("msg time (ms)|wake median (us)|wake p99 (us)|pipe median (us)|pipe p99 (us)", metrics, "|")
	print "| metric | variant | runs | median | min | max | median / " basev " |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
	for (m = 1; m <= 5; m++) {
		metric = metrics[m]
		base = (basev in vseen) && cnt[metric, basev] ? median(metric, basev) : 0
		for (k = 1; k <= nv; k++) {
			v = vorder[k]
			if (!cnt[metric, v]) continue
			med = median(metric, v)
			ratio = base > 0 ? sprintf("%.4f", med / base) : "-"
			printf "| %s | %s | %d | %.3f | %.3f | %.3f | %s |\n", metric, v, cnt[metric, v], med, lo, hi, ratio
		}
	}
}' "$1"

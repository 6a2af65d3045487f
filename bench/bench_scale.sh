#!/bin/sh
# How the simulator's cost grows: per simulated event and in peak memory,
# from 8 to 1 024 CPUs and from 64 to 100 000 tasks (issue 16).
#
# Generated inputs: platforms of N CPUs of capacity 1024 in frequency
# domains of 8 (sym4's OPPs and idle states); workloads of periodic tasks
# with their own timers ("ref": "unique"), 100 tasks x K instances above
# 100 tasks (a task has at most 1024 instances).
#
#   cpus axis:  N CPUs, 64 tasks running 1 ms every 10 ms (no CPU
#               overloaded at any N: 6.4 CPUs of work)
#   tasks axis: 1 024 CPUs, T tasks running 100 us every 100 ms, their
#               starts spread over the period (100 000 tasks are 100
#               CPUs of work: none overloaded)
#
# Each point is `capsim run --no-trace` for a simulated time that gives
# it about EVENTS events, minus the same command run for 1 us (parsing,
# setup, summary), divided by the events: the cost of one event. CPU
# time (user + sys), the minimum of ROUNDS runs (the machine is shared;
# the minimum is the run least disturbed); peak RSS of the long run.
# After the table: the two growth ratios of issue 28 (ns per event at
# 1 024 over 8 CPUs, at 100 000 over 64 tasks). Then: `capsim validate`
# of the 100 000-task workload and of 100 000 distinct tasks (time, RSS),
# and the full 1 024-CPU, 100 000-task point of the issue (0.2 s
# simulated, --no-trace and with its trace).
# Usage: bench_scale.sh CAPSIM [EVENTS [ROUNDS]]
set -eu
capsim=${1:?usage: bench_scale.sh CAPSIM [EVENTS [ROUNDS]]}
events=${2:-400000}
rounds=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# platform N [D]: $tmp/pN.json, N CPUs in frequency domains of D (8);
# with D given, $tmp/pNxD.json (issue 28's two 512-CPU shared policies:
# platform 1024 512)
platform() {
	n=$1 dn=${2:-8} f=$tmp/p$1${2:+x$2}.json
	{
		printf '{ "name": "scale%d", "description": "generated",\n  "cpus": [\n' "$n"
		i=0
		while [ $i -lt "$n" ]; do
			printf '    { "id": %d, "capacity": 1024, "domain": %d }%s\n' \
				$i $((i / dn)) "$([ $i -lt $((n - 1)) ] && echo ,)"
			i=$((i + 1))
		done
		printf '  ],\n  "domains": [\n'
		d=0
		while [ $((d * dn)) -lt "$n" ]; do
			c=$((d * dn))
			printf '    { "id": %d, "cpus": [%s], "transition_latency_us": 0, "rate_limit_us": 1000, "opps": [ { "khz": 500000, "capacity": 205, "power_mw": 60 }, { "khz": 1000000, "capacity": 410, "power_mw": 160 }, { "khz": 1500000, "capacity": 614, "power_mw": 320 }, { "khz": 2000000, "capacity": 819, "power_mw": 560 }, { "khz": 2500000, "capacity": 1024, "power_mw": 900 } ] }%s\n' \
				$d "$(seq -s ', ' $c $((c + dn - 1)))" \
				"$([ $(((d + 1) * dn)) -lt "$n" ] && echo ,)"
			d=$((d + 1))
		done
		printf '  ],\n  "idle": [ { "name": "WFI", "power_mw": 12, "exit_latency_us": 1, "target_residency_us": 1 }, { "name": "cpu-sleep", "power_mw": 1, "exit_latency_us": 150, "target_residency_us": 600 } ]\n}\n'
	} >"$f"
}

# workload T RUN_US PERIOD_US: $tmp/wT.json (distinct tasks up to 100,
# then 100 tasks of T/100 instances); task i starts i/ntask of a period
# late, so that the instances do not all wake at once
workload() {
	t=$1 run=$2 period=$3 f=$tmp/w$1.json
	if [ "$t" -le 100 ]; then ntask=$t inst=1; else ntask=100 inst=$((t / 100)); fi
	{
		printf '{ "tasks": {\n'
		i=0
		while [ $i -lt $ntask ]; do
			printf '  "t%d": { "instance": %d, "delay": %d, "run": %d, "timer": { "ref": "unique", "period": %d } }%s\n' \
				$i $inst $((i * period / ntask)) "$run" "$period" \
				"$([ $i -lt $((ntask - 1)) ] && echo ,)"
			i=$((i + 1))
		done
		printf '} }\n'
	} >"$f"
}

# run PLATFORM WORKLOAD SECONDS [ARGS]: "cpu_s rss_kb events" of one run
run1() {
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$capsim" run "$2" \
		--platform "$1" --duration "$3" -o "$tmp/out" --quiet \
		${4:-} >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	ev=$(sed -n 's/^  "events": \([0-9]*\),$/\1/p' "$tmp/out/summary.json")
	awk -v ev="$ev" '{ printf "%.4f %d %d\n", $1 + $2, $3, ev }' "$tmp/time"
}

# the minimum CPU time of ROUNDS runs, with the RSS and events of the last
best() {
	r=0
	while [ $r -lt "$rounds" ]; do
		run1 "$@"
		r=$((r + 1))
	done | sort -n | head -n 1
}

# point LABEL CPUS TASKS RUN_US PERIOD_US EV_PER_SIM_S: at least two
# periods, every task started and in its steady state
point() {
	label=$1 n=$2 t=$3
	[ -f "$tmp/p$n.json" ] || platform "$n"
	workload "$t" "$4" "$5"
	secs=$(awk -v e="$events" -v r="$6" -v p="$5" 'BEGIN { s = e / r;
		printf "%.6f", s < 2 * p / 1e6 ? 2 * p / 1e6 : s }')
	set -- $(best "$tmp/p$n.json" "$tmp/w$t.json" "$secs")
	long_c=$1 long_rss=$2 long_ev=$3
	set -- $(best "$tmp/p$n.json" "$tmp/w$t.json" 0.000001)
	base_c=$1 base_ev=$3
	awk -v l="$label" -v n="$n" -v t="$t" -v s="$secs" -v lc="$long_c" \
	    -v le="$long_ev" -v bc="$base_c" -v be="$base_ev" -v rss="$long_rss" \
	    'BEGIN { ev = le - be; c = lc - bc; if (c < 0) c = 0;
		     printf "| %s | %d | %d | %.3g | %d | %.3f | %.3f | %.2f | %.1f |\n",
			    l, n, t, s, ev, lc, bc, c / ev * 1e9, rss / 1024 }'
}

echo "| axis | CPUs | tasks | simulated s | events | CPU s | setup CPU s | ns per event | peak RSS MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
{
	# 64 tasks x 1 ms / 10 ms: ~6 events per activation, 6 400 activations/s
	for n in 8 64 256 1024; do
		point cpus "$n" 64 1000 10000 38400
	done
	# T tasks x 100 us / 100 ms: 10 activations per task and second
	for t in 64 1000 10000 100000; do
		point tasks 1024 "$t" 100 100000 $((t * 60))
	done
} | tee "$tmp/table"
# the growth the issue sets goals for (issue 28: <= 2x each)
awk -F' *[|] *' '{ ns[$2 "," $3 "," $4] = $9 } END {
	printf "\ngrowth per event: 8 -> 1 024 CPUs x%.2f, 64 -> 100 000 tasks x%.2f\n",
	       ns["cpus,1024,64"] / ns["cpus,8,64"],
	       ns["tasks,1024,100000"] / ns["tasks,1024,64"] }' "$tmp/table"

# Memory: peak RSS of the setup-only run (1 us simulated: parse, build,
# the first events, the summary) on a grid, fitted as a + b*CPUs +
# c*tasks from three points, the other three predicted (the residuals
# say whether it is linear)
echo
echo "| CPUs | tasks | peak RSS MB (1 us run) | fit MB |"
echo "| ---: | ---: | ---: | ---: |"
platform 8
platform 1024
for t in 64 10000 100000; do
	workload "$t" 100 100000
	for n in 8 1024; do
		/usr/bin/time -f '%M' -o "$tmp/time" "$capsim" run \
			"$tmp/w$t.json" --platform "$tmp/p$n.json" \
			--duration 0.000001 -o "$tmp/m" --quiet --no-trace \
			>/dev/null
		echo "$n $t $(cat "$tmp/time")"
	done
done >"$tmp/mem"
awk '{ r[$1 "," $2] = $3 * 1024 } END {
	c = (r["1024,100000"] - r["1024,10000"]) / 90000;
	b = (r["1024,64"] - r["8,64"]) / 1016;
	a = r["8,64"] - 8 * b - 64 * c;
	n = split("8,64 1024,64 8,10000 1024,10000 8,100000 1024,100000", k, " ");
	for (i = 1; i <= n; i++) {
		split(k[i], x, ",");
		printf "| %d | %d | %.1f | %.1f |\n", x[1], x[2], r[k[i]] / 1e6,
		       (a + b * x[1] + c * x[2]) / 1e6 }
	printf "\nbytes = %.3g + %.0f * CPUs + %.0f * tasks (from 8 and 1 024 CPUs at 64 tasks, 10 000 and 100 000 tasks at 1 024 CPUs)\n", a, b, c }' "$tmp/mem"

echo
workload 100000 100 100000
platform 1024
/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$capsim" validate \
	--platform "$tmp/p1024.json" "$tmp/w100000.json" >/dev/null
awk '{ printf "capsim validate, 100 000 tasks with a timer each: %.2f s wall, %.2f s CPU, peak RSS %.0f MB\n", $1, $2 + $3, $4 / 1024 }' "$tmp/time"
# the same as 100 000 distinct tasks (a JSON member and a name each, the
# issue's validate figure): $tmp/d100000.json
awk 'BEGIN { n = 100000; print "{ \"tasks\": {";
	for (i = 0; i < n; i++)
		printf "  \"t%d\": { \"delay\": %d, \"run\": 100, \"timer\": { \"ref\": \"unique\", \"period\": 100000 } }%s\n",
		       i, i, i < n - 1 ? "," : "";
	print "} }" }' >"$tmp/d100000.json"
/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$capsim" validate \
	--platform "$tmp/p1024.json" "$tmp/d100000.json" >/dev/null
awk '{ printf "capsim validate, 100 000 distinct tasks with a timer each: %.2f s wall, %.2f s CPU (%.2f user), peak RSS %.0f MB\n", $1, $2 + $3, $2, $4 / 1024 }' "$tmp/time"
for tr in --no-trace ""; do
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$capsim" run \
		"$tmp/w100000.json" --platform "$tmp/p1024.json" \
		--duration 0.2 -o "$tmp/big" --quiet $tr >/dev/null
	sum=$(wc -c <"$tmp/big/summary.json")
	trc=$([ -f "$tmp/big/trace.txt" ] && wc -c <"$tmp/big/trace.txt" || echo 0)
	awk -v tr="${tr:-with the trace}" -v sum="$sum" -v trc="$trc" '{
		printf "capsim run, 1 024 CPUs + 100 000 tasks, 0.2 s simulated, %s: %.2f s wall, %.2f s CPU, peak RSS %.0f MB, summary.json %.1f MB, trace %.1f MB\n",
		       tr, $1, $2 + $3, $4 / 1024, sum / 1e6, trc / 1e6 }' "$tmp/time"
	rm -rf "$tmp/big"
done

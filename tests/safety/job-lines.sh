#!/bin/sh
# Issue 23: no input string becomes a shell command through a sweep's
# --emit-jobs FILE (one job a line, for `parallel < FILE` or sh) or its
# FILE.slurm. Hostile names (a newline, a quote, $(...), backticks, ;) as
# the workload's file name, -o, the --emit-jobs path and a platform file:
# each is either refused (exit 2, nothing written) or, when accepted, the
# emitted jobs run under sh and parallel, and the Slurm script parses
# (bash -n) and runs its first task, without ever creating the marker.
# Usage: job-lines.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

# the marker any injected command would create, wherever it runs
marker=PWNED
nl='
'
names="q'uote|q'\$(touch $marker)'x|dollar\$(touch $marker)x|back\`touch $marker\`tick|semi;touch $marker;colon|dq\"uote|new${nl}touch $marker${nl}line|tab	char"

# every command runs in the case's directory: a marker there is its own
pwned() { [ -n "$(find "$case" -name "$marker*" 2>/dev/null)" ]; }

# try LABEL WHERE: one sweep --emit-jobs in a fresh directory, with the
# hostile name already placed by the caller in $case (see below)
try() {
	label=$1
	shift
	ls -A "$case" >"$tmp/before"
	(cd "$case" && "$W" sweep "$@" --set 'tasks.t.run=1000,2000' \
		--policies rfc --duration 0.01 --quiet) >"$case/.out" 2>&1
	rc=$?
	if pwned; then
		bad "$label: the marker was created by capsim itself"
	elif [ $rc -eq 2 ]; then
		ls -A "$case" | grep -v '^\.out$' >"$tmp/after"
		if ! cmp -s "$tmp/before" "$tmp/after"; then
			bad "$label: refused but wrote $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
		elif grep -q "control character" "$case/.out"; then
			ok "$label: refused (exit 2)"
		else
			bad "$label: exit 2 without naming the control character: $(head -c 300 "$case/.out")"
		fi
	elif [ $rc -ne 0 ]; then
		bad "$label: exit $rc: $(head -c 300 "$case/.out")"
	else
		run_jobs
	fi
}

run_jobs() {
	jf=$(cd "$case" && ls -A | grep -v '^\.out$' | grep -v '\.slurm$' | grep -v '\.json$' | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done | head -1)
	if [ -z "$jf" ] || [ ! -f "$case/$jf.slurm" ]; then
		bad "$label: exit 0 but no jobs file and .slurm script"
		return
	fi
	n=$(wc -l <"$case/$jf")
	[ "$n" -eq 2 ] || bad "$label: $n job lines, expected 2"
	(cd "$case" && sh "./$jf") >/dev/null 2>&1
	if command -v parallel >/dev/null 2>&1; then
		(cd "$case" && parallel --will-cite <"./$jf") >/dev/null 2>&1
	fi
	if ! bash -n "$case/$jf.slurm"; then
		bad "$label: bash -n refuses the .slurm script"
	fi
	(cd "$case" && SLURM_ARRAY_TASK_ID=1 bash "./$jf.slurm") >/dev/null 2>&1
	if pwned; then
		bad "$label: running the emitted jobs created the marker"
		return
	fi
	# the jobs ran their points for real (a job that is a no-op would
	# pass the marker check above)
	s=$(find "$case" -path '*/points/0001/run/summary.json' | wc -l)
	s2=$(find "$case" -path '*/points/0002/run/summary.json' | wc -l)
	if [ "$s" -ne 1 ] || [ "$s2" -ne 1 ]; then
		bad "$label: the jobs did not run both points"
	else
		ok "$label: accepted; sh, parallel and the .slurm script ran the points, nothing injected"
	fi
}

W_JSON='{ "global": { "duration": 0.01 }, "tasks": { "t": { "run": 1000, "sleep": 1000 } } }'
i=0
IFS='|'
for name in $names; do
	IFS=' '
	i=$((i + 1))
	shown=$(printf '%s' "$name" | tr '\n\t' '??')

	case=$tmp/c$i-workload; mkdir "$case"
	printf '%s' "$W_JSON" >"$case/$name.json"
	try "workload named \"$shown.json\"" "./$name.json" -o out --emit-jobs jobs

	case=$tmp/c$i-outdir; mkdir "$case"
	printf '%s' "$W_JSON" >"$case/w.json"
	try "-o \"$shown\"" w.json -o "$name" --emit-jobs jobs

	case=$tmp/c$i-emit; mkdir "$case"
	printf '%s' "$W_JSON" >"$case/w.json"
	try "--emit-jobs \"$shown\"" w.json -o out --emit-jobs "$name"

	case=$tmp/c$i-platform; mkdir "$case"
	printf '%s' "$W_JSON" >"$case/w.json"
	"$W" platform show sym4 >"$case/$name.json"
	try "--platforms \"./$shown.json\"" w.json --platforms "./$name.json" -o out --emit-jobs jobs
	IFS='|'
done
IFS=' '
if [ -n "$(find "$tmp" -name "$marker*" 2>/dev/null)" ]; then
	bad "a marker was created: $(find "$tmp" -name "$marker*" | head -3)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

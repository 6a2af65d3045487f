#!/bin/sh
# Instructions per simulated event (issue 28, item 3), two capsim binaries
# side by side in one run: `capsim run` under callgrind (instruction
# counts do not depend on the machine's load) on traces/audio.json (sym4)
# and on bench_sim's EAS reference workload (64 periodic tasks on sd855,
# written here as JSON), each with and without the trace, SECONDS
# simulated (default 10). Per case and binary: the whole process, the
# model (`sim_run()` inclusive: the events and the trace lines), the
# event queue (`evq_push()` + `evq_pop()` + `evq_cancel()`, per event) and a trace line (the
# traced run's instructions less the untraced one's, per line: the
# typed emitters have no one function to count), then AFTER/BEFORE. With one binary, only its
# column. Nothing here passes or fails on a figure.
#
# Usage: bench_per_event.sh CAPSIM_AFTER SOURCE_ROOT [CAPSIM_BEFORE [SECONDS]]
#        (meson: CAPSIM_BEFORE in the environment names the "before";
#        KEEP=1 keeps the profiles in the temporary directory)
set -eu
after=${1:?usage: bench_per_event.sh CAPSIM_AFTER SOURCE_ROOT [CAPSIM_BEFORE [SECONDS]]}
root=${2:?usage}
before=${3:-${CAPSIM_BEFORE:-}}
secs=${4:-10}
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
	echo "bench_per_event: valgrind (callgrind) is not installed; nothing measured"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capsim-per-event.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# bench/bench_sim.c's reference_workload(), the same tasks
awk 'BEGIN {
	printf "{ \"tasks\": {\n"
	for (i = 0; i < 64; i++) {
		printf "%s  \"t%d\": { %s\"run\": %d, \"timer\": { \"ref\": \"unique\", \"period\": %d } }",
		       i ? ",\n" : "", i,
		       i % 16 ? "" : "\"policy\": \"SCHED_FIFO\", \"priority\": 10, ",
		       50 + 20 * (i % 5), 4000 + (i % 8) * 2000
	}
	printf "\n} }\n"
}' > "$tmp/eas-ref.json"

# incl FILE FUNC: FUNC's inclusive count in a callgrind profile (0 if
# absent). A function can be listed under more than one file name (a
# relative binary's debug paths), the largest entry is the function.
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v f="$2" '
			{ gsub(",", "", $1) }
			$0 ~ ("/sim/[a-z_]+\\.c:" f " ") && $1 + 0 > max { max = $1 + 0 }
			END { print max + 0 }'
}

# one BIN CASE WORKLOAD ARGS...: "total events entries simrun evq trace"
one() {
	bin=$1; case=$2; w=$3; shift 3
	rm -rf "$tmp/out"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
		"$bin" run "$w" "$@" --duration "$secs" --quiet -o "$tmp/out" \
		>/dev/null 2>"$tmp/vg" || { cat "$tmp/vg" >&2; exit 1; }
	total=$(sed -n 's/^summary: *//p' "$tmp/cg")
	ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/out/summary.json" | head -1)
	ent=$(sed -n 's/.*"trace_entries": *\([0-9]*\).*/\1/p' "$tmp/out/summary.json" | head -1)
	evq=$(( $(incl "$tmp/cg" evq_pop) + $(incl "$tmp/cg" evq_push) + $(incl "$tmp/cg" evq_cancel) ))
	echo "$total $ev $ent $(incl "$tmp/cg" sim_run) $evq"
}

printf 'instructions per event, callgrind, %s s simulated\n' "$secs"
printf 'before: %s\nafter:  %s\n\n' "${before:-(none)}" "$after"
printf '| case | events | trace lines | measure | before | after | after/before |\n'
printf '| --- | ---: | ---: | --- | ---: | ---: | ---: |\n'
for c in "audio --no-trace|$root/traces/audio.json|--no-trace" \
	 "audio traced|$root/traces/audio.json|" \
	 "EAS ref --no-trace|$tmp/eas-ref.json|--no-trace --platform sd855" \
	 "EAS ref traced|$tmp/eas-ref.json|--platform sd855"; do
	name=${c%%|*}; rest=${c#*|}; w=${rest%%|*}; args=${rest#*|}
	# shellcheck disable=SC2086
	a=$(one "$after" "$name" "$w" $args)
	b=
	# shellcheck disable=SC2086
	[ -n "$before" ] && b=$(one "$before" "$name" "$w" $args)
	# a trace line: the traced run's instructions over the untraced
	# one's (the case before it, the same events), per line
	case $name in *no-trace) ua=${a%% *}; ub=${b%% *} ;; esac
	printf '%s\n%s\n' "$a" "${b:-}" | awk -v name="$name" -v ua="$ua" \
		-v ub="${ub:-0}" '
		NR == 1 { split($0, A); A[6] = A[1] - ua }
		NR == 2 { split($0, B); hb = NF > 0; B[6] = B[1] - ub }
		function per(X, i, j) { return X[j] > 0 ? X[i] / X[j] : 0 }
		function row(m, i, j, a, b) {
			a = per(A, i, j); b = hb ? per(B, i, j) : 0
			printf "| %s | %d | %d | %s | %s | %.1f | %s |\n", name, A[2],
			       A[3], m, (hb ? sprintf("%.1f", b) : "-"), a,
			       (b > 0 ? sprintf("%.3f", a / b) : "-")
		}
		END {
			row("whole run / event", 1, 2)
			row("sim_run() / event", 4, 2)
			row("event queue / event", 5, 2)
			if (name !~ /no-trace/)
				row("trace line (traced - untraced) / line", 6, 3)
		}'
done
printf '\ngoals (issues 28, 43): audio <= 1200 without the trace, <= 2400 with it; EAS ref <= 1250 without; a trace line <= 400\n'

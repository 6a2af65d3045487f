#!/bin/sh
# Every xcheck level reads the guest's trace in any format src/trace reads:
# each guest fixture (tests/fixtures/guest) as ftrace text, as trace.dat
# (capsim trace-dat), as `trace-cmd report` text (default and -R, from
# that trace.dat) and as Perfetto protobuf (tests/trace/to_perfetto.py,
# compact_sched where it can) gives the same figures of levels 1-3 (replay-levels:
# every figure and every problem found, without its file:line, which a
# trace.dat counts in records and a report shifts by its header) and,
# where the fixture holds the workload's tasks (level 4 needs them), the
# same `capsim xcheck` report (xcheck.md, xcheck.json) and level-4
# timeline (plot-guest.dat); the trace.dat's report names its copy
# guest/trace.dat (the Perfetto one's guest/trace.perfetto-trace), the
# only difference allowed.
# The fixtures' trace_marker lines are left out of every form: trace-dat
# has no format for ftrace's print event; no level reads them, which the
# fixture that has one shows (its report with the line is the same).
# Usage: guest-forms.sh CAPSIM REPLAY_LEVELS SRCDIR   (trace-cmd on PATH
# for the report forms; a capsim without libtracecmd skips the trace.dat
# ones)
set -u
W=${1:?usage: guest-forms.sh CAPSIM REPLAY_LEVELS SRCDIR}
L=${2:?}
SRC=${3:?}
G=$SRC/tests/fixtures/guest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
have_tc=false
command -v trace-cmd >/dev/null && have_tc=true

# check FORM PLATFORM OUT: levels 1-3's figures in OUT.levels, and with
# $full the xcheck report in OUT/ (exit 0 or 1: pass/fail)
check() {
	if ! "$L" "$1" "$2" > "$3.raw" 2>&1; then
		echo "FAIL: replay-levels $(basename "$1"): exit $?"
		sed 's/^/  /' "$3.raw" | head -5
		return 1
	fi
	sed -E 's|[^ ]*:[0-9]+(:[0-9]+)?: |LOCATION: |' "$3.raw" > "$3.levels"
	$full || return 0
	"$W" xcheck "$G/workload.json" --platform "$2" --guest-trace "$1" \
		-o "$3" --no-plots --quiet > "$3.out" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "FAIL: xcheck --guest-trace $(basename "$1"): exit $rc"
		sed 's/^/  /' "$3.out" | head -5
		return 1
	fi
	# the copy's name is the one thing a trace.dat changes
	sed -E 's#guest/trace\.(dat|perfetto-trace)#guest/trace.txt#' "$3/xcheck.md" > "$3.md"
	sed -E 's#guest/trace\.(dat|perfetto-trace)#guest/trace.txt#' "$3/xcheck.json" > "$3.json"
}

# same REF GOT FORM: the two forms' figures (and reports) are the same
same() {
	if ! cmp -s "$1.levels" "$2.levels"; then
		echo "FAIL: $3: levels 1-3 differ from the text's:"
		diff "$1.levels" "$2.levels" | head -6
		fail=1
		return
	fi
	if $full; then
		for f in md json; do
			if ! cmp -s "$1.$f" "$2.$f"; then
				echo "FAIL: $3: xcheck.$f differs from the text's:"
				diff "$1.$f" "$2.$f" | head -6
				fail=1
				return
			fi
		done
		if ! cmp -s "$1/plot-guest.dat" "$2/plot-guest.dat"; then
			echo "FAIL: $3: plot-guest.dat differs from the text's"
			fail=1
			return
		fi
	fi
	echo "ok: $3: the same $($full && echo "levels 1-3 and xcheck report" || echo "levels 1-3")"
}

n=0
# FIXTURE:PLATFORM:FULL (FULL: it holds the workload's tasks)
for fx in juno-r0-rfc-sugov:juno-r0:false sym4-bg-hog-rfc-clamp:sym4:true \
	  sym4-range-remote-race:sym4:false sym4-rfc-window:sym4:true \
	  sym4-rt-remote-race:sym4:false \
	  sym4-single-rfc-sugov:$G/sym4-single.json:false; do
	name=${fx%%:*}
	full=${fx##*:}
	pf=${fx#*:}
	pf=${pf%:*}
	t=$tmp/$name
	grep -v ': tracing_mark_write: ' "$G/$name.txt" > "$t.txt"
	check "$t.txt" "$pf" "$t-txt" || { fail=1; continue; }
	grep -q '^[a-z].*[1-9]' "$t-txt.levels" ||
		{ echo "FAIL: $name: no figure"; fail=1; }
	n=$((n + 1))
	if ! cmp -s "$G/$name.txt" "$t.txt"; then
		check "$G/$name.txt" "$pf" "$t-orig" || { fail=1; continue; }
		same "$t-txt" "$t-orig" "$name with its trace_marker lines"
	fi
	if ! "$W" trace-dat "$t.txt" "$t.dat" > "$t.tdlog" 2>&1; then
		echo "FAIL: capsim trace-dat $name: $(cat "$t.tdlog")"
		fail=1
		continue
	fi
	if "$W" plot "$t.dat" -o "$tmp/probe" --quiet 2>&1 |
	   grep -q 'without libtracecmd'; then
		echo "skip: $name.dat (capsim built without libtracecmd)"
	else
		if check "$t.dat" "$pf" "$t-dat"; then
			same "$t-txt" "$t-dat" "$name.dat"
		else
			fail=1
		fi
	fi
	rm -rf "$tmp/probe"
	if python3 "$SRC/tests/trace/to_perfetto.py" --compact "$t.txt" \
	   "$t.perfetto-trace" > "$t.pflog" 2>&1; then
		if check "$t.perfetto-trace" "$pf" "$t-pf"; then
			same "$t-txt" "$t-pf" "$name.perfetto-trace"
		else
			fail=1
		fi
	else
		echo "FAIL: to_perfetto.py $name: $(cat "$t.pflog")"
		fail=1
	fi
	$have_tc || { echo "skip: $name report forms (no trace-cmd)"; continue; }
	for opt in "" -R; do
		trace-cmd report $opt -i "$t.dat" > "$t.report$opt" 2>/dev/null ||
			{ echo "FAIL: trace-cmd report $opt $name.dat"; fail=1; continue; }
		check "$t.report$opt" "$pf" "$t-rep$opt" &&
			same "$t-txt" "$t-rep$opt" "$name: trace-cmd report $opt"
	done
done
[ $n -eq 6 ] || { echo "FAIL: $n of 6 fixtures checked"; fail=1; }

# a bad line stops every level alike: exit 2, FILE:LINE:COL, no DIR (a
# later cap_clamp line, which only level 1 reads, its timestamp going back)
awk '/cap_clamp_enqueue/ && ++n == 5 { sub(/ [0-9]+\.[0-9]+: cap_/, " 1.000000: cap_") } 1' \
	"$G/sym4-bg-hog-rfc-clamp.txt" > "$tmp/back.txt"
cmp -s "$tmp/back.txt" "$G/sym4-bg-hog-rfc-clamp.txt" &&
	{ echo "FAIL: the timestamp was not moved back"; fail=1; }
"$W" xcheck "$G/workload.json" --platform sym4 --guest-trace "$tmp/back.txt" \
	-o "$tmp/xc-back" --no-plots --quiet > "$tmp/back.out" 2>&1
rc=$?
if [ $rc -ne 2 ] || ! grep -q "back.txt:[0-9]*:[0-9]*: error: timestamp 1.000000000 is before" "$tmp/back.out" ||
   [ -e "$tmp/xc-back" ]; then
	echo "FAIL: a timestamp going back: exit $rc (want 2, FILE:LINE:COL, no DIR):"
	head -3 "$tmp/back.out"
	fail=1
else
	echo "ok: a timestamp going back: exit 2, $(grep -o 'back.txt:[0-9]*:[0-9]*' "$tmp/back.out" | head -1)"
fi
exit $fail

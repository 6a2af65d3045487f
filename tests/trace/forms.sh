#!/bin/sh
# Every format of one capture (tests/fixtures/traces, made by its make.sh)
# yields the same events and the same plot: trace_events' normalized
# stream, sorted (trace-cmd report orders events of one timestamp by CPU),
# has the same count and digest of (ts, cpu, pid, event, fields) for each;
# `capsim plot` of each writes the same lanes (labels and segments), the
# same frequency series and residency. Then the real device trace
# (tests/fixtures/traces/juno) is plotted. Usage:
#   forms.sh TRACE_EVENTS CAPSIM SRCDIR
set -u
EV=${1:?usage: forms.sh TRACE_EVENTS CAPSIM SRCDIR}
W=${2:?}
SRC=${3:?}
F=$SRC/tests/fixtures/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

digest() {
	"$EV" "$1" > "$tmp/ev" || { echo "FAIL: trace_events $1 exit $?"; return 1; }
	echo "$(wc -l < "$tmp/ev") $(sort "$tmp/ev" | sha256sum | cut -c1-16)"
}

ref=$(digest "$F/capture.txt")
echo "capture.txt: $ref (events, digest)"
case $ref in 0\ *|'') echo "FAIL: no events in capture.txt"; exit 1 ;; esac
"$W" plot "$F/capture.txt" --platform juno-r0 -o "$tmp/p-ref" --quiet ||
	{ echo "FAIL: plot capture.txt"; exit 1; }
for form in capture.dat capture-v7.dat capture-v7-none.dat report.txt \
	    report-N.txt report-R.txt systrace.txt systrace.html; do
	got=$(digest "$F/$form")
	if [ "$got" != "$ref" ]; then
		echo "FAIL: $form: $got, capture.txt $ref"
		fail=1
	fi
	if ! "$W" plot "$F/$form" --platform juno-r0 -o "$tmp/p-$form" --quiet; then
		echo "FAIL: plot $form exit $?"
		fail=1
		continue
	fi
	if ! diff -r "$tmp/p-ref/data" "$tmp/p-$form/data" >/dev/null; then
		echo "FAIL: plot $form: its data differ from capture.txt's:"
		diff -r "$tmp/p-ref/data" "$tmp/p-$form/data" | head -5
		fail=1
	else
		echo "ok: $form: $got, the same plot data"
	fi
done
# A comm "</script>" inside systrace's HTML (written unescaped, issue 36):
# the block ends at "</script>" alone on its line, so the trace is read
# whole, not cut at the first such comm (was 12 events of 422)
sed 's|audio_ft|</script>|g' "$F/systrace.txt" >"$tmp/script-comm.txt"
want=$(digest "$tmp/script-comm.txt")
got=$(digest "$F/systrace-script-comm.html")
if [ "$got" = "$want" ] && [ "${got%% *}" = "${ref%% *}" ]; then
	echo "ok: systrace-script-comm.html: $got, as its text"
else
	echo "FAIL: systrace-script-comm.html: $got, its text $want"
	fail=1
fi

# the lanes are labelled COMM-PID
grep -q "^lanelabel\[1\] = 'audio_ft-1001'" "$tmp/p-ref/data/vars.gp" ||
	{ echo "FAIL: lane 1 not audio_ft-1001"; fail=1; }

# --tasks: a regular expression over the name and every comm of a pid
# (rt-app names its thread "rt-app" before the task's name)
"$W" plot "$F/systrace.html" --tasks 'mix|ui' -o "$tmp/p-tasks" --quiet
if [ "$(grep '^lanelabel\[' "$tmp/p-tasks/data/vars.gp" | cut -d"'" -f2 | tr '\n' ' ')" != "mixer-1002 ui-1003 " ]; then
	echo "FAIL: --tasks 'mix|ui': lanes $(grep '^lanelabel\[' "$tmp/p-tasks/data/vars.gp")"
	fail=1
fi
{
	echo '   rt-app-7     [000] d..2  1.000000: sched_switch: prev_comm=rt-app prev_pid=7 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120'
	echo '   <idle>-0     [000] d..2  1.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ramp next_pid=7 next_prio=120'
	echo '     ramp-7     [000] d..2  1.002000: sched_switch: prev_comm=ramp prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120'
} > "$tmp/renamed.txt"
"$W" plot "$tmp/renamed.txt" --tasks '^rt-app$' -o "$tmp/p-renamed" --quiet
if grep -q "^lanelabel\[1\] = 'ramp-7'" "$tmp/p-renamed/data/vars.gp"; then
	echo "ok: --tasks finds the lanes by regex, a renamed thread by its first comm"
else
	echo "FAIL: --tasks '^rt-app$' on a thread renamed ramp: $(grep '^lanelabel' "$tmp/p-renamed/data/vars.gp")"
	fail=1
fi

# A real device's trace (tests/fixtures/traces/juno/README.md): read
# without a platform, devlib's markers make the time after them known,
# before them `unknown`, and its domains are inferred from them; juno-r0's
# OPP table does not fit it: exit 2
J=$F/juno/lisa-trace.txt
if "$W" plot "$J" -o "$tmp/p-juno" --quiet &&
   grep -q '^unknown ' "$tmp/p-juno/data/residency-dom0.dat" &&
   grep -q '^950 ' "$tmp/p-juno/data/residency-dom0.dat" &&
   grep -q '^1200 ' "$tmp/p-juno/data/residency-dom1.dat"; then
	echo "ok: the Juno trace: residency unknown, then 950 / 1200 MHz"
else
	echo "FAIL: the Juno trace's plot (unknown, 950, 1200 MHz rows)"
	fail=1
fi
# ... its domains inferred (docs/traces.md): Juno r0's LITTLE and big
if grep -q "^runtitle = 'kernel trace on inferred: {0,3-5},{1-2}, policy kernel'" "$tmp/p-juno/data/vars.gp" &&
   grep -q "^domlabel\[1\] = 'domain 0 (CPUs 0,3-5)'" "$tmp/p-juno/data/vars.gp" &&
   grep -q "^domlabel\[2\] = 'domain 1 (CPUs 1,2)'" "$tmp/p-juno/data/vars.gp" &&
   grep -q '^ndoms = 2$' "$tmp/p-juno/data/vars.gp"; then
	echo "ok: the Juno trace's domains inferred: {0,3-5},{1-2}"
else
	echo "FAIL: the Juno trace's domains: $(grep -E '^(runtitle|domlabel\[|ndoms)' "$tmp/p-juno/data/vars.gp")"
	fail=1
fi
"$W" plot "$J" --platform juno-r0 -o "$tmp/p-juno-r0" --quiet 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "lisa-trace.txt:948:.*950000 kHz: not an OPP" "$tmp/err" &&
   [ ! -e "$tmp/p-juno-r0" ]; then
	echo "ok: the Juno trace on juno-r0: exit 2, $(cat "$tmp/err")"
else
	echo "FAIL: the Juno trace on juno-r0: exit $rc, $(cat "$tmp/err")"
	fail=1
fi
exit $fail

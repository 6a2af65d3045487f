#!/bin/sh
# The in-guest trace readers (kernel/guest/tests/*.awk) on hand-made
# traces, so that a check built on them can be seen to fail: a wake-up
# that leaves an idle previous CPU is what the EAS-off check must catch.
# Runs busybox awk when there is one (the guest's), else the host's awk.
# Usage: trace-readers.sh SOURCE_ROOT
T=$1/kernel/guest/tests
AWK="awk"
command -v busybox >/dev/null && busybox awk 'BEGIN {}' 2>/dev/null &&
	AWK="busybox awk"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect NAME WANT GOT
expect() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: want '$2', got '$3'"
		fail=1
	fi
}
placement() { $AWK -v pid=42 -v little="0 3" -f "$T/fields.awk" \
	-f "$T/placement.awk" "$tmp/trace"; }
# switch CPU TIME PREV_PID NEXT_PID
switch() {
	printf '  comm-%s [%03d] d..2. %s: sched_switch: prev_comm=a b prev_pid=%s prev_prio=120 prev_state=S ==> next_comm=x next_pid=%s next_prio=120\n' \
		"$3" "$1" "$2" "$3" "$4"
}
waking() { printf '  w-1 [%03d] d.h2. %s: sched_waking: comm=p pid=42 prio=120 target_cpu=%03d\n' "$1" "$2" "$1"; }
wakeup() { printf '  w-1 [%03d] d.h2. %s: sched_wakeup: comm=p pid=42 prio=120 target_cpu=%03d\n' "$1" "$2" "$3"; }

# the task sleeps on CPU 1, which goes idle; woken there again: a stay
{
	switch 1 1.000 42 0
	waking 1 1.010
	wakeup 1 1.010 1
} > "$tmp/trace"
expect "stays on its idle previous CPU" \
	"wakeups=1 on_little=0 stay=1 left_busy=0 left_idle=0 unknown=0" \
	"$(placement)"

# woken onto LITTLE CPU 3 while CPU 1 is idle: what only EAS does
{
	switch 1 1.000 42 0
	waking 1 1.010
	wakeup 3 1.010 3
} > "$tmp/trace"
expect "leaves its idle previous CPU" \
	"wakeups=1 on_little=1 stay=0 left_busy=0 left_idle=1 unknown=0" \
	"$(placement)"

# CPU 1 runs pid 7 at the wake-up: select_idle_sibling() looks elsewhere
{
	switch 1 1.000 42 0
	switch 1 1.005 0 7
	waking 1 1.010
	wakeup 0 1.010 0
} > "$tmp/trace"
expect "leaves its busy previous CPU" \
	"wakeups=1 on_little=1 stay=0 left_busy=1 left_idle=0 unknown=0" \
	"$(placement)"

# another task's wake-ups and a wake-up before the task was seen to run
{
	waking 2 0.900
	wakeup 2 0.900 2
	switch 2 1.000 42 0
	printf '  w-1 [002] d.h2. 1.010: sched_wakeup: comm=q pid=43 prio=120 target_cpu=000\n'
} > "$tmp/trace"
expect "only the task's, its previous CPU known" \
	"wakeups=0 on_little=0 stay=0 left_busy=0 left_idle=0 unknown=1" \
	"$(placement)"
# causes.awk: why schedutil asked for the top OPP
causes() { $AWK -v cpu=1 -v cap=256 -f "$T/fields.awk" -f "$T/causes.awk" \
	"$tmp/trace"; }
# sugov_cpu CPU IDLE CLAMP_MAX; sugov MAX PERF (both on CPU 1)
sugov_cpu() { printf '  k-1 [001] d..2. 1.0: capsim_sugov_cpu: cpu=%s idle=%s clamp_min=0 clamp_max=%s rt_runnable=0\n' "$1" "$2" "$3"; }
sugov() { printf '  k-1 [001] d..2. 1.0: capsim_sugov: max=%s perf=%s\n' "$1" "$2"; }
{
	sugov_cpu 0 0 1024
	sugov_cpu 1 0 256
	sugov 1024 1024
} > "$tmp/trace"
expect "the top OPP lifted by another CPU's range" "top=1 top_other=1 top_same=0" \
	"$(causes | tr ' ' '\n' | grep -E '^top(_other|_same)?=' | tr '\n' ' ' | sed 's/ $//')"
{
	sugov_cpu 0 1 1024
	sugov_cpu 1 0 256
	sugov 256 400
} > "$tmp/trace"
expect "a capped decision asking past its cap" "over=1" \
	"$(causes | tr ' ' '\n' | grep '^over=')"
exit $fail

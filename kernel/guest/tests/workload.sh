#!/bin/sh
# Run the workload JSON files in /work with tracing on, then send the trace
# to the host over ttyS1, gzip'ed. Usage: workload.sh [EVENTS]
# EVENTS: a comma list of set_event names (default: the one below), or
# "xcheck": the default plus schedutil's decisions and the PELT/util_est
# signals, the events `capsim xcheck` compares with the simulator's
# (capsim:capsim_sugov_cpu, capsim:capsim_sugov, lisa:lisa__sched_pelt_*,
# lisa:lisa__sched_util_est_*, lisa:capsim_pelt_se), or "+LIST": the
# default plus LIST. The policy: capsim.policy= on the kernel command
# line (init exports CAPSIM_POLICY), else the workload's.
TR=/sys/kernel/tracing
default=cap_clamp:*,power:cpu_frequency,sched:sched_switch,sched:sched_wakeup,sched:sched_waking,sched:sched_migrate_task
case "${1:-}" in
'') events=$default ;;
xcheck) events=$default,capsim:*,lisa:* ;;
+*) events=$default,${1#+} ;;
*) events=$1 ;;
esac
echo "workload: events $events"
echo 0 > $TR/tracing_on
echo > $TR/trace
set -f	# the names are globs for set_event, not for the shell
for e in $(echo "$events" | tr ',' ' '); do
	echo "$e" >> $TR/set_event || echo "workload: no event $e"
done
set +f
echo 1 > $TR/tracing_on
rc=0
for w in /work/*.json; do
	[ -e "$w" ] || continue
	echo "workload: $w"
	# capsim.policy= on the kernel command line overrides the workload's
	capsim-run ${CAPSIM_POLICY:+--policy "$CAPSIM_POLICY"} "$w" || rc=1
done
echo 0 > $TR/tracing_on
cat $TR/per_cpu/cpu*/stats | grep -E "^(overrun|dropped events)" | awk '{ s += $NF } END { print "workload: trace overrun+dropped:", s }'
stty -F /dev/ttyS1 raw -echo 2>/dev/null
# gzip'ed: the serial port is the slow part (an 18 MB xcheck trace took 21 s
# of guest time, 85 s of wall time under -icount); the host unpacks it
cat $TR/trace | gzip -1 > /dev/ttyS1
exit $rc

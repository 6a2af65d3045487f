#!/bin/sh
# Run the workload JSON files in /work with tracing on, then send the trace
# to the host over ttyS1. Usage: workload.sh [EVENTS]; the policy from
# capsim.policy= on the kernel command line (init exports CAPSIM_POLICY).
TR=/sys/kernel/tracing
events=${1:-cap_clamp:*,power:cpu_frequency,sched:sched_switch,sched:sched_wakeup,sched:sched_waking,sched:sched_migrate_task}
echo 0 > $TR/tracing_on
echo > $TR/trace
for e in $(echo "$events" | tr ',' ' '); do
	echo "$e" >> $TR/set_event || echo "workload: no event $e"
done
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
cat $TR/trace > /dev/ttyS1
exit $rc

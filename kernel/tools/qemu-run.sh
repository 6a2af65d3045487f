#!/bin/bash
# Boot the capsim guest under QEMU with a hard deadline.
# Usage: qemu-run.sh BZIMAGE INITRD OUTDIR TIMEOUT_S "EXTRA CMDLINE" [SMP]
# OUTDIR gets console.log (ttyS0) and trace.txt (ttyS1). The QEMU process is
# ended with SIGKILL, by its pid, if it has not exited by the deadline
# (SIGTERM is not enough for a hung TCG guest). Under -icount the deadline
# is TIMEOUT_S seconds of QEMU's own CPU time, not of the wall clock: the
# guest advances with the instructions QEMU executes, so a boot needs the
# same CPU time on a loaded host, where its wall time grows with the load
# (the in-guest suite ran past its 480 s wall deadline with stress-ng --cpu 2
# and another suite beside it). A hung guest still burns CPU (its clock
# jumps from timer to timer); the wall clock stops any boot at
# CAPSIM_WALL_FACTOR (default 10) x TIMEOUT_S. Without icount (real time,
# or KVM) the deadline is TIMEOUT_S of wall time. Exit: 0 when the guest
# printed its closing marker with rc=0, 1 otherwise, 124 on timeout, 2
# when the console shows a timekeeping warning (below), whatever the rest.
#
# Deterministic guest time (TCG only): QEMU runs with -icount
# "$CAPSIM_ICOUNT" (default shift=2,sleep=off,align=off: the guest clock
# advances 4 ns per instruction and jumps over idle time, so two boots of
# the same workload see the same time; CAPSIM_ICOUNT=off: real time).
# Any RCU stall, clocksource or watchdog warning, hung task or soft
# lockup on the console fails the boot (exit 2, the lines on stderr).
set -uo pipefail
kernel=$1 initrd=$2 out=$3 timeout=$4 extra=${5:-} smp=${6:-4}
mkdir -p "$out"
rm -f "$out/console.log" "$out/trace.txt"
accel=${CAPSIM_ACCEL:-tcg}
icount=${CAPSIM_ICOUNT:-shift=2,sleep=off,align=off}
icount_args=()
if [ "$icount" != off ] && [ "$accel" = tcg ]; then
	icount_args=(-icount "$icount")
else
	icount=off
fi
echo "qemu-run: accel $accel, smp $smp, icount $icount, deadline ${timeout}s" > "$out/qemu.log"
qemu-system-x86_64 -accel "$accel" -cpu "${CAPSIM_CPU:-Nehalem}" -nodefaults -display none -no-reboot \
	"${icount_args[@]}" -smp "$smp" -m 1024M \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=6 $extra" \
	-serial "file:$out/console.log" -serial "file:$out/trace.txt" \
	</dev/null >>"$out/qemu.log" 2>&1 &
pid=$!
hz=$(getconf CLK_TCK)
# QEMU's CPU time so far in whole seconds (utime + stime of all its threads)
qemu_cpu_s() {
	local stat
	stat=$(cat "/proc/$pid/stat" 2>/dev/null) || { echo 0; return; }
	set -- ${stat##*) }	# from the state field on: utime is $12, stime $13
	echo $(( (${12} + ${13}) / hz ))
}
start=$(date +%s.%N)
if [ "$icount" = off ]; then
	wall_limit=$timeout
	what="${timeout}s"
else
	wall_limit=$(( timeout * ${CAPSIM_WALL_FACTOR:-10} ))
	what="${timeout}s of QEMU CPU time (wall limit ${wall_limit}s)"
fi
wall_deadline=$(( $(date +%s) + wall_limit ))
rc=124 cpu=0 c=0
while [ "$(date +%s)" -lt "$wall_deadline" ]; do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; rc=0; break
	fi
	c=$(qemu_cpu_s)	# 0 once it is a zombie: keep the last real reading
	[ "$c" -gt "$cpu" ] && cpu=$c
	if [ "$icount" != off ] && [ "$cpu" -ge "$timeout" ]; then
		break
	fi
	sleep 0.2
done
if [ $rc = 124 ]; then
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "qemu-run: deadline of $what reached, qemu $pid killed" >&2
fi
end=$(date +%s.%N)
printf 'qemu-run: %.1f s wall, %d s QEMU CPU\n' "$(echo "$end - $start" | bc)" \
	"$cpu" > "$out/time.txt"
if [ $rc = 124 ]; then exit 124; fi
# timekeeping and liveness warnings: a run with them is not to be trusted
bad='rcu: INFO|rcu_.*detected stall|timer wakeup didn.t happen|clocksource.*unstable|Marking clocksource|TSC unstable|watchdog: BUG|soft lockup|hard LOCKUP|blocked for more than|hung_task'
if grep -Eq "$bad" "$out/console.log"; then
	echo "qemu-run: timekeeping/liveness warning on the console (icount $icount): $out/console.log" >&2
	grep -E "$bad" "$out/console.log" | head -5 >&2
	exit 2
fi
grep -q "capsim-guest: done rc=0" "$out/console.log" && exit 0
exit 1

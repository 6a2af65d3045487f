#!/bin/sh
# In-guest checks of an asymmetric platform with EAS: the juno-r0 platform
# (CPUs 0,3-5 LITTLE, capacity 447, 450-850 MHz; CPUs 1-2 big, 1024,
# 450-1100 MHz) given to the virtual cpufreq driver on the command line by
# the host (capsim platform cmdline juno-r0), booted with sched_verbose.
# Prints PASS/FAIL lines and a closing "N passed, N failed" line.
. /tests/lib.sh
SYS=/sys/devices/system/cpu
DBG=/sys/kernel/debug
mount -t debugfs none $DBG 2>/dev/null
LITTLE="0 3 4 5"
BIG="1 2"
is_big() { case " $BIG " in *" $1 "*) return 0 ;; esac; return 1; }

echo "== asymmetric platform and energy model"
expect "LITTLE policy's CPUs" "$LITTLE" "$(cat $SYS/cpu0/cpufreq/related_cpus)"
expect "big policy's CPUs" "$BIG" "$(cat $SYS/cpu1/cpufreq/related_cpus)"
expect "LITTLE top OPP" 850000 "$(cat $SYS/cpu0/cpufreq/cpuinfo_max_freq)"
expect "big top OPP" 1100000 "$(cat $SYS/cpu1/cpufreq/cpuinfo_max_freq)"
some "sched domains see asymmetric capacities (SD_ASYM_CPUCAPACITY_FULL)" \
	"$(cat $DBG/sched/domains/cpu0/domain*/flags 2>/dev/null | grep -c SD_ASYM_CPUCAPACITY_FULL)"
# the energy model's performance = capacity at the OPP, computed by the
# kernel from arch_scale_cpu_capacity()
expect "LITTLE capacity at its top OPP" 447 "$(cat $DBG/energy_model/cpu0/ps:850000/performance 2>/dev/null)"
expect "big capacity at its top OPP" 1024 "$(cat $DBG/energy_model/cpu1/ps:1100000/performance 2>/dev/null)"
expect "LITTLE capacity at its lowest OPP" 236 "$(cat $DBG/energy_model/cpu0/ps:450000/performance 2>/dev/null)"
expect "energy model power, uW (LITTLE, 850 MHz)" 93000 "$(cat $DBG/energy_model/cpu0/ps:850000/power 2>/dev/null)"
expect "energy model power, uW (big, 1.1 GHz)" 616000 "$(cat $DBG/energy_model/cpu1/ps:1100000/power 2>/dev/null)"
expect "EAS possible (sched_energy_aware)" 1 "$(cat /proc/sys/kernel/sched_energy_aware)"
some "EAS started" "$(dmesg | grep -c 'sched_energy_set: starting EAS')"

echo "== placement"
# little_share: run a 1/16 ms periodic task, unpinned, for 3 s; print
# "WAKEUPS ON_LITTLE" from its cap_clamp_enqueue events
little_share() {
	echo 0 > $TR/tracing_on
	echo > $TR/trace
	echo 1 > $TR/events/cap_clamp/cap_clamp_enqueue/enable
	echo 1 > $TR/tracing_on
	$RUN periodic 1000 16000 3 &
	p=$!
	wait $p
	echo 0 > $TR/tracing_on
	grep "cap_clamp_enqueue: .* pid=$p " $TR/trace |
		sed 's/.*cap_clamp_enqueue: cpu=\([0-9]*\) .*/\1/' > /tmp/cpus
	echo "$(wc -l < /tmp/cpus) $(grep -cxE "0|3|4|5" /tmp/cpus)"
}
set -- $(little_share)
echo "small task, EAS on: $1 wakeups, $2 on LITTLE CPUs"
check "EAS places a 1/16 ms task on LITTLE CPUs (>= 90%: $2 of $1)" \
	"$1" -ge 50 -a $(($2 * 10)) -ge $(($1 * 9))
echo 0 > /proc/sys/kernel/sched_energy_aware
set -- $(little_share)
echo "small task, EAS off: $1 wakeups, $2 on LITTLE CPUs"
# the control: without EAS, wakeups prefer the biggest idle CPU
check "with sched_energy_aware=0 it runs on big CPUs (<= 50% LITTLE: $2 of $1)" \
	"$1" -ge 50 -a $(($2 * 2)) -le "$1"
echo 1 > /proc/sys/kernel/sched_energy_aware
expect "EAS back on" 1 "$(cat /proc/sys/kernel/sched_energy_aware)"

taskset -c 3 $RUN spin 4 &
p=$!
sleep 0.2
taskset -p -c 0-5 $p >/dev/null
sleep 1.5
onbig=0
for i in 1 2 3 4 5; do
	c=$(awk '{ print $39 }' /proc/$p/stat)
	is_big "$c" && onbig=$((onbig + 1))
	sleep 0.2
done
wait $p
check "a hog started on a LITTLE CPU moves to a big one (misfit: $onbig of 5 samples)" "$onbig" -ge 4

echo "== frequencies, per domain"
mkdir $CG/cap300
wr $CG/cap300/cpu.capacity_max 300 >/dev/null
POL=$SYS/cpu1/cpufreq
r=$(residency 2 taskset -c 1 $RUN spin 3)
echo "big, uncapped hog: $r"
s=$(share 1100000 1100000 "$r")
check "uncapped hog on big runs at 1.1 GHz ($s%)" "$s" -ge 80
r=$(residency 2 ingroup /cap300 taskset -c 1 $RUN spin 3)
echo "big, hog capped at 300: $r"
s=$(share 0 450000 "$r")
# 300 of 1024 at 1.1 GHz: 322 MHz -> the lowest OPP
check "hog capped at 300 on big runs at 450 MHz ($s%)" "$s" -ge 80
POL=$SYS/cpu0/cpufreq
r=$(residency 2 taskset -c 0 $RUN spin 3)
echo "LITTLE, uncapped hog: $r"
s=$(share 850000 850000 "$r")
check "uncapped hog on LITTLE runs at 850 MHz ($s%)" "$s" -ge 80
r=$(residency 2 ingroup /cap300 taskset -c 0 $RUN spin 3)
echo "LITTLE, hog capped at 300: $r"
# 300 of 447 at 850 MHz: 570 MHz -> 575 MHz
s=$(share 0 575000 "$r")
check "hog capped at 300 on LITTLE runs at <= 575 MHz ($s%)" "$s" -ge 80
rmdir $CG/cap300

echo "== fixed work scales with capacity (the runner, the simulator's parser)"
expect "LITTLE capsim_capacity" 447 "$(cat $SYS/cpu0/cpufreq/capsim_capacity)"
expect "big capsim_capacity" 1024 "$(cat $SYS/cpu1/cpufreq/capsim_capacity)"
# "run 50000" is 50 ms of work on a capacity-1024 CPU at its top OPP; the
# group's capacity_min of 1024 holds both domains at their top OPP
cat > /tmp/work.json <<'J'
{ "tasks": {
    "little": { "cpus": [0], "taskgroup": "/fast", "loop": 1, "run": 50000 },
    "big": { "cpus": [1], "taskgroup": "/fast", "loop": 1, "run": 50000 } },
  "capsim": { "taskgroups": { "/fast": { "capacity_min": 1024 } } } }
J
$RUN /tmp/work.json > /tmp/work.out 2>&1
cat /tmp/work.out
busy() { # TASK: busy_ms of its instance
	pid=$(sed -n "s/^capsim-run: task $1 pid=\([0-9]*\)/\1/p" /tmp/work.out)
	sed -n "s/^capsim-run: stats pid=$pid .*busy_ms=\([0-9]*\)/\1/p" /tmp/work.out
}
bl=$(busy little)
bb=$(busy big)
# 50 ms x 1024 / 447 = 114.5 ms on LITTLE, 50 ms on big
check "run 50000 takes ~114.5 ms of CPU on LITTLE ($bl ms)" "${bl:-0}" -ge 100 -a "${bl:-0}" -le 135
check "run 50000 takes ~50 ms of CPU on big ($bb ms)" "${bb:-0}" -ge 45 -a "${bb:-0}" -le 60
rmdir $CG/fast

dmesg_clean
finish

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
ALL=0-5
LITTLE_RE="^($(echo $LITTLE | tr ' ' '|'))$"
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
# little_share: start a 1/16 ms periodic task on big CPU 1, let it run
# anywhere after 0.2 s and trace the following 3 s of its wake-ups;
# placement.awk's counts in $P. Starting on a big CPU makes the control
# meaningful: without EAS, select_idle_sibling() keeps a fitting task on
# its previous CPU while that CPU is idle, only EAS leaves an idle one.
# start_on CPU CMD...: start CMD in the background on CPU, let it run on
# every CPU after 0.2 s; its pid in $p
start_on() {
	c=$1; shift
	taskset -c $c "$@" &
	p=$!
	sleep 0.2
	taskset -p -c $ALL $p >/dev/null
}
little_share() {
	echo 0 > $TR/tracing_on
	echo sched:sched_switch > $TR/set_event
	echo sched:sched_waking >> $TR/set_event
	echo sched:sched_wakeup >> $TR/set_event
	taskset -c 1 $RUN periodic 1000 16000 3.4 &
	p=$!
	sleep 0.2
	# traced from the wake-up that may first leave CPU 1
	echo > $TR/trace
	echo 1 > $TR/tracing_on
	taskset -p -c $ALL $p >/dev/null
	wait $p
	echo 0 > $TR/tracing_on
	P=$(awk -v pid=$p -v little="$LITTLE" -f /tests/fields.awk -f /tests/placement.awk $TR/trace)
	echo > $TR/set_event
}
placed() { echo "$P" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
little_share
echo "small task from big CPU 1, EAS on: $P"
w=$(placed wakeups) l=$(placed on_little)
check "EAS moves a 1/16 ms task to LITTLE CPUs (>= 90%: $l of $w)" \
	"$w" -ge 50 -a $((l * 10)) -ge $((w * 9))
echo 0 > /proc/sys/kernel/sched_energy_aware
little_share
echo "small task from big CPU 1, EAS off: $P"
# Where it ends up is timing (one wake-up finding CPU 1 busy moves it to
# an idle LITTLE CPU, its new previous CPU); why it moves is not: without
# EAS no wake-up leaves an idle previous CPU. At most 1 % of wake-ups may
# read a CPU that changed state between sched_waking and the choice.
w=$(placed wakeups) i=$(placed left_idle)
check "with sched_energy_aware=0 no wake-up leaves an idle previous CPU ($i of $w, <= 1%)" \
	"$w" -ge 50 -a $((i * 100)) -le "$w"
echo 1 > /proc/sys/kernel/sched_energy_aware
expect "EAS back on" 1 "$(cat /proc/sys/kernel/sched_energy_aware)"

start_on 3 $RUN spin 4
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
# hog_at CPU GROUP LOW HIGH WHAT: a hog on CPU in GROUP spends >= 80 % of
# its domain's time at LOW <= f <= HIGH
hog_at() {
	POL=$SYS/cpu$1/cpufreq
	r=$(residency 2 ingroup "$2" taskset -c $1 $RUN spin 3)
	echo "$5: $r"
	s=$(share $3 $4 "$r")
	check "$5 ($s%)" "$s" -ge 80
}
hog_at 1 "" 1100000 1100000 "uncapped hog on big runs at 1.1 GHz"
# 300 of 1024 at 1.1 GHz: 322 MHz -> the lowest OPP
hog_at 1 /cap300 0 450000 "hog capped at 300 on big runs at 450 MHz"
hog_at 0 "" 850000 850000 "uncapped hog on LITTLE runs at 850 MHz"
# 300 of 447 at 850 MHz: 570 MHz -> 575 MHz
hog_at 0 /cap300 0 575000 "hog capped at 300 on LITTLE runs at <= 575 MHz"
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

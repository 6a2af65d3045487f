#!/bin/sh
# In-guest test suite of the capsim kernel face. Prints one "PASS: name" or
# "FAIL: name" line per check and a closing "N passed, N failed" line.
# Usage: run.sh [STRESS_SECONDS | single]
#   single: only the frequency checks, for a boot with one cpufreq policy
#   per CPU (capsim_cpufreq.domains=0:1:2:3): schedutil's single path
#   eas: the asymmetric platform checks (eas.sh)
[ "${1:-}" = eas ] && exec sh /tests/eas.sh
STRESS_S=${1:-60}
MODE=shared
[ "$STRESS_S" = single ] && MODE=single
. /tests/lib.sh
# the policy of CPU 1, where the frequency checks run their tasks
POL=/sys/devices/system/cpu/cpu1/cpufreq

if [ $MODE = shared ]; then
# ---------------------------------------------------------------- matrix
echo "== write validation through the cgroup files"
expect "root capacity_min default" 0 "$(rd $CG/cpu.capacity_min)"
expect "root capacity_max default" 1024 "$(rd $CG/cpu.capacity_max)"
mkdir $CG/t1
expect "mkdir inherits min" 0 "$(rd $CG/t1/cpu.capacity_min)"
expect "mkdir inherits max" 1024 "$(rd $CG/t1/cpu.capacity_max)"
f=$CG/t1/cpu.capacity_max
# the static key (patch 13): the boot-wide trace has cap_clamp:* since boot
# and the hooks trace every task they account; until a value other than the
# default is written anywhere, they are patched out and account nothing
nenq() { grep -c 'cap_clamp_enqueue:' $TR/trace; }
expect "max=1024 (the default) accepted" OK "$(wr $f 1024)"
expect "hooks off until a non-default write: nothing enqueued" 0 "$(nenq)"
expect "min=0 (the default) accepted" OK "$(wr $CG/t1/cpu.capacity_min 0)"
expect "hooks still off after default writes" 0 "$(nenq)"
expect "max=1023 accepted" OK "$(wr $f 1023)"
some "the first non-default write accounts the RUNNABLE tasks" "$(nenq)"
for v in 0 1 1023 1024; do
	expect "max=$v accepted" OK "$(wr $f $v)"
	expect "max=$v read back" $v "$(rd $f)"
done
expect "max=1025 accepted" OK "$(wr $f 1025)"
expect "max=1025 clamped to 1024" 1024 "$(rd $f)"
wr $f 512 >/dev/null
expect "max=2^64-1 accepted" OK "$(wr $f 18446744073709551615)"
expect "max=2^64-1 clamped to 1024" 1024 "$(rd $f)"
expect "max=2^64 overflow" ERANGE "$(wr $f 18446744073709551616)"
expect "max=-1 negative" EINVAL "$(wr $f -1)"
expect "max=abc non-number" EINVAL "$(wr $f abc)"
expect "max=12abc trailing junk" EINVAL "$(wr $f 12abc)"
expect "max=1.5 non-integer" EINVAL "$(wr $f 1.5)"
expect "max='' empty write is a no-op" OK "$(wr $f '')"
expect "max='' leaves the value" 1024 "$(rd $f)"
expect "max=' 512' leading blank (kstrtoull)" EINVAL "$(wr $f ' 512')"
expect "max='512 ' trailing blank (kstrtoull)" EINVAL "$(wr $f '512 ')"
expect "max='\t512' leading tab" EINVAL "$(wr $f '	512')"
expect "max=' 512' leaves the value" 1024 "$(rd $f)"
expect "max='300\\n' newline" OK "$(wr $f '300
')"
expect "max='300\\n' read back" 300 "$(rd $f)"
expect "max=0x200 hex (kstrtoull base 0)" OK "$(wr $f 0x200)"
expect "max=0x200 read back" 512 "$(rd $f)"
expect "max=1024 1 two numbers" EINVAL "$(wr $f '1024 1')"
expect "min=600 above own max 512" EINVAL "$(wr $CG/t1/cpu.capacity_min 600)"
expect "min=512 equal to own max" OK "$(wr $CG/t1/cpu.capacity_min 512)"
expect "max=511 below own min" EINVAL "$(wr $f 511)"
expect "min back to 0" OK "$(wr $CG/t1/cpu.capacity_min 0)"

echo "== parent/child rules and inheritance"
echo +cpu > $CG/t1/cgroup.subtree_control
mkdir $CG/t1/c
expect "child inherits max" 512 "$(rd $CG/t1/c/cpu.capacity_max)"
expect "child inherits min" 0 "$(rd $CG/t1/c/cpu.capacity_min)"
expect "child max above parent's" EINVAL "$(wr $CG/t1/c/cpu.capacity_max 600)"
expect "child max below parent's" OK "$(wr $CG/t1/c/cpu.capacity_max 256)"
expect "parent max below a child's" EINVAL "$(wr $f 200)"
expect "parent max equal to a child's" OK "$(wr $f 256)"
expect "child min within range" OK "$(wr $CG/t1/c/cpu.capacity_min 100)"
expect "child min above own max" EINVAL "$(wr $CG/t1/c/cpu.capacity_min 300)"
expect "parent min above a child's" EINVAL "$(wr $CG/t1/cpu.capacity_min 150)"
expect "parent min equal to a child's" OK "$(wr $CG/t1/cpu.capacity_min 100)"
expect "child min below parent's" EINVAL "$(wr $CG/t1/c/cpu.capacity_min 50)"
expect "current value always accepted" OK "$(wr $CG/t1/c/cpu.capacity_min 100)"
expect "root max below a child's" EINVAL "$(wr $CG/cpu.capacity_max 100)"
expect "root min within children" OK "$(wr $CG/cpu.capacity_min 50)"
echo +cpu > $CG/t1/c/cgroup.subtree_control
mkdir $CG/t1/c/g
expect "grandchild inherits min" 100 "$(rd $CG/t1/c/g/cpu.capacity_min)"
expect "grandchild inherits max" 256 "$(rd $CG/t1/c/g/cpu.capacity_max)"
mkdir $CG/t2
expect "sibling inherits root min" 50 "$(rd $CG/t2/cpu.capacity_min)"
expect "sibling inherits root max" 1024 "$(rd $CG/t2/cpu.capacity_max)"
rmdir $CG/t1/c/g $CG/t1/c $CG/t1 $CG/t2
expect "root min back to 0" OK "$(wr $CG/cpu.capacity_min 0)"
expect "group writes are traced" 1 "$(grep -c 'cap_clamp_write: .*path=/t1/c attr=capacity_max value=600 ret=-22' $TR/trace)"

# ---------------------------------------------------------------- reposition
echo "== repositioning of a RUNNABLE task"
mkdir $CG/r1 $CG/r2
wr $CG/r1/cpu.capacity_max 300 >/dev/null
wr $CG/r2/cpu.capacity_max 400 >/dev/null
taskset -c 2 $RUN spin 4 &
hog=$!
echo $hog > $CG/r1/cgroup.procs
sleep 1
wr $CG/r1/cpu.capacity_max 700 >/dev/null
sleep 0.5
echo $hog > $CG/r2/cgroup.procs
sleep 0.5
r1=$(stat -c %i $CG/r1)
r2=$(stat -c %i $CG/r2)
t=$(cat $TR/trace)
some "hog enqueued with r1's max" "$(echo "$t" | grep -c "cap_clamp_enqueue: cpu=2 pid=$hog .*group=$r1 min=0 max=300 ")"
some "group write re-keys the RUNNABLE hog" "$(echo "$t" | grep -c "cap_clamp_update: cpu=2 pid=$hog .*group=$r1 old_min=0 old_max=300 min=0 max=700 ")"
some "group move dequeues with the snapshot key" "$(echo "$t" | grep -c "cap_clamp_dequeue: cpu=2 pid=$hog .*group=$r1 min=0 max=700 ")"
some "group move enqueues with r2's max" "$(echo "$t" | grep -c "cap_clamp_enqueue: cpu=2 pid=$hog .*group=$r2 min=0 max=400 ")"
kill $hog 2>/dev/null
wait $hog 2>/dev/null
rmdir $CG/r1 $CG/r2

# ---------------------------------------------------------------- xcheck events
# patches 11 and 12, in a trace instance of their own (the boot-wide buffer
# keeps only cap_clamp:* for the replay below)
echo "== decision and signal events (capsim:*, lisa:*)"
I=$TR/instances/xcheck
mkdir $I $CG/xc
echo 4096 > $I/buffer_size_kb
wr $CG/xc/cpu.capacity_max 300 >/dev/null
# recording starts once every event is on and stops before they go off:
# enabling one patches the kernel text, which takes milliseconds under TCG,
# during which a CPU can decide several times with one event of the two on
echo 0 > $I/tracing_on
echo 'capsim:*' > $I/set_event
echo 'lisa:*' >> $I/set_event
taskset -c 2 $RUN spin 2 &
hog=$!
echo $hog > $CG/xc/cgroup.procs
sleep 0.2
echo 1 > $I/tracing_on
sleep 1.3
echo 0 > $I/tracing_on
echo 0 > $I/events/enable
t=$(cat $I/trace)
n=0
for e in capsim_sugov_cpu capsim_sugov lisa__sched_pelt_se lisa__sched_pelt_cfs \
	lisa__sched_pelt_rt lisa__sched_pelt_dl lisa__sched_util_est_se \
	lisa__sched_util_est_cfs capsim_pelt_se; do
	c=$(echo "$t" | grep -c ": $e: ")
	echo "$e: $c"
	[ "$c" -ge 1 ] && n=$((n + 1))
done
expect "all 9 capsim/lisa events traced" 9 $n
# per CPU, each decision comes right after one line per CPU of the policy
# (not checked: each CPU's first and last decision, which tracing_on may
# cut)
echo "$t" | awk '/: capsim_sugov_cpu: / { k[$2]++ }
	/: capsim_sugov: / { n[$2]++; if (n[$2] > 2) { g[last[$2]]++; if (last[$2] != 4) print "  odd group: " prev[$2] }
		last[$2] = k[$2]; k[$2] = 0; prev[$2] = $0 }
	END { for (s in g) printf "capsim_sugov_cpu lines before a decision: %d x %d\n", g[s], s }' > /tmp/xc.groups
cat /tmp/xc.groups
bad=$(grep -c "odd group" /tmp/xc.groups)
[ "$(grep -c "x 4$" /tmp/xc.groups)" = 1 ] || bad=-1
expect "each capsim_sugov follows 4 capsim_sugov_cpu lines on its CPU" 0 "$bad"
some "the hog's CPU reports clamp_max=300" "$(echo "$t" | grep -c "capsim_sugov_cpu: dom=0 cpu=2 .* clamp_max=300 ")"
capped=$(echo "$t" | grep ": capsim_sugov: .* max=300 " | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^perf=/) { split($i, a, "="); if (a[2] + 0 > 300) b++ } n++ }
	END { printf "%d %d", n, b }')
check "decisions capped at 300 ask for at most 300 ($capped: count, over)" \
	"${capped% *}" -ge 1 -a "${capped#* }" = 0
some "capsim_pelt_se of the running hog" "$(echo "$t" | grep -c "capsim_pelt_se: cpu=2 pid=$hog .* on_rq=1 running=1")"
some "the group's entity: path=/xc comm=(null) pid=-1" "$(echo "$t" | grep -c "lisa__sched_pelt_se: cpu=2 path=/xc comm=(null) pid=-1 ")"
some "the group's cfs_rq: path=/xc" "$(echo "$t" | grep -c "lisa__sched_pelt_cfs: cpu=2 path=/xc ")"
# enabled again after the probes were released: they come back
echo > $I/trace
echo 1 > $I/tracing_on
echo 1 > $I/events/lisa/lisa__sched_pelt_cfs/enable
sleep 0.3
echo 0 > $I/events/lisa/lisa__sched_pelt_cfs/enable
some "lisa__sched_pelt_cfs again after disable/enable" "$(grep -c ": lisa__sched_pelt_cfs: " $I/trace)"
kill $hog 2>/dev/null
wait $hog 2>/dev/null
rmdir $I $CG/xc
fi

# ---------------------------------------------------------------- frequencies

echo "== frequencies ($MODE policy of CPU 1: CPUs $(cat $POL/related_cpus), $(cat $POL/scaling_driver), $(cat $POL/scaling_governor))"
expect "cpufreq driver" capsim-cpufreq "$(cat $POL/scaling_driver)"
expect "schedutil governor" schedutil "$(cat $POL/scaling_governor)"
if [ $MODE = shared ]; then
	expect "one policy for 4 CPUs" "0 1 2 3" "$(cat $POL/related_cpus)"
else
	expect "one policy per CPU" "1" "$(cat $POL/related_cpus)"
fi
mkdir $CG/bg $CG/boost $CG/rtcap
wr $CG/bg/cpu.capacity_max 256 >/dev/null
wr $CG/boost/cpu.capacity_min 819 >/dev/null
wr $CG/rtcap/cpu.capacity_max 256 >/dev/null

r=$(residency 2 taskset -c 1 $RUN spin 3)
echo "uncapped hog: $r"
s=$(share 2500000 2500000 "$r")
[ "$s" -ge 80 ] && pass "uncapped hog runs at the top OPP ($s%)" || fail "uncapped hog runs at the top OPP ($s%)"
r=$(residency 2 ingroup /bg taskset -c 1 $RUN spin 3)
echo "hog capped at 256: $r"
s=$(share 0 1000000 "$r")
[ "$s" -ge 80 ] && pass "capped hog stays at <= 1 GHz ($s%)" || fail "capped hog stays at <= 1 GHz ($s%)"

# The boost and RT checks read the causes of the decisions (causes.awk):
# a residency share under TCG follows the host's load (issue 15: 29 % ->
# 13 % with other builds running), which CPU's range let a frequency
# through does not. The residency is printed for the reader.
r=$(residency 2 taskset -c 1 $RUN periodic 1000 10000 3)
echo "periodic 1/10 ms: $r"
causes 1 1024 2 ingroup /boost taskset -c 1 $RUN periodic 1000 10000 3
echo "periodic 1/10 ms boosted to 819: $(cat /tmp/res) causes: $C"
b=$(cause boosted) bl=$(cause boost_low)
# a decision reads the other CPUs' ranges unlocked: allow 1 % of races
check "boosted task's CPU gets >= 819 at every decision it is busy ($bl of $b below)" \
	"$b" -ge 10 -a $((bl * 100)) -le "$b"

causes 1 256 2 taskset -c 1 $RUN periodic 2000 10000 3 fifo 10
echo "RT periodic 2/10 ms: $(cat /tmp/res) causes: $C"
check "RT in the root group drives the top OPP ($(cause rt_top) decisions)" \
	"$(cause rt_top)" -ge 1
causes 1 256 2 ingroup /rtcap taskset -c 1 $RUN periodic 2000 10000 3 fifo 10
echo "RT periodic 2/10 ms capped at 256: $(cat /tmp/res) causes: $C"
# On a shared policy any non-idle CPU running an uncapped task (kernel
# threads included) lifts the domain's max (the RFC's rule): those top-OPP
# decisions are the other CPUs' (top_other) or an uncapped task's sharing
# CPU 1 (top_same); a decision capped at 256 never asks for more (over),
# and at most 1 % are unlocked remote reads the lines do not explain
# (top_race: 2 of 207 in one loaded CI run).
check "the capped RT task's CPU reports max 256 while it runs ($(cause rt_capped) lines)" \
	"$(cause rt_capped)" -ge 10
t=$(cause top) tr=$(cause top_race)
check "RT in a capped group does not drive the top OPP ($t top decisions: $(cause top_other) other CPU, $(cause top_same) uncapped on CPU 1, $(cause top_idle) all idle, $tr remote-read races; $(cause over) capped decisions above 256)" \
	"$(cause over)" = 0 -a $((tr * 100)) -le "$t"
# mainline's policy in the same kernel: uclamp.max (percent) on a group.
# Last, as the first uclamp write turns uclamp on for the rest of the boot.
mkdir $CG/ucl
echo 25.00 > $CG/ucl/cpu.uclamp.max
r=$(residency 2 ingroup /ucl taskset -c 1 $RUN spin 3)
echo "hog under uclamp.max 25%: $r"
s=$(share 0 1000000 "$r")
[ "$s" -ge 80 ] && pass "uclamp.max-capped hog stays at <= 1 GHz ($s%)" || fail "uclamp.max-capped hog stays at <= 1 GHz ($s%)"
rmdir $CG/bg $CG/boost $CG/rtcap $CG/ucl

# ---------------------------------------------------------------- kselftest
# the series' own tools/testing/selftests/cgroup/test_cpu_capacity (patch
# 15; kernel/build.sh builds it), KTAP on the console: every test must
# pass, the frequency one included (the capsim driver is here)
echo "== kselftest test_cpu_capacity ($MODE policy)"
if command -v test_cpu_capacity >/dev/null; then
	test_cpu_capacity > /tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/ksft: /' /tmp/ksft.out
	expect "kselftest test_cpu_capacity exits 0" 0 $rc
	expect "kselftest: 4 tests ok, none skipped or failed" 4 \
		"$(grep -c '^ok [0-9]* test_cpucg_capacity_' /tmp/ksft.out)"
else
	fail "kselftest test_cpu_capacity in the initramfs"
fi

if [ $MODE = single ]; then
	dmesg_clean
	finish
fi

# ---------------------------------------------------------------- stress
echo "== stress: ${STRESS_S}s of group writes vs task churn and migrations"
mkdir -p $CG/s1 $CG/s2 $CG/s3 $CG/s4
echo +cpu > $CG/s4/cgroup.subtree_control
mkdir $CG/s4/a
end=$(( $(date +%s) + STRESS_S ))
writer() {
	i=$1
	while [ $(date +%s) -lt $end ]; do
		for g in s1 s2 s3 s4/a s4; do
			v=$(( (i * 97 + 13) % 1100 ))
			i=$((i + 1))
			echo $v > $CG/$g/cpu.capacity_max 2>/dev/null
			echo $((v / 3)) > $CG/$g/cpu.capacity_min 2>/dev/null
		done
	done
}
churn() {
	j=$1
	while [ $(date +%s) -lt $end ]; do
		for g in s1 s2 s3 s4/a; do
			j=$((j + 1))
			ingroup /$g taskset -c $((j % 4)) $RUN periodic 300 2000 0.2 &
		done
		wait
	done
}
mover() {
	while [ $(date +%s) -lt $end ]; do
		for g in s1 s2 s3 s4/a ""; do
			for p in $hogs; do
				echo $p > $CG/$g/cgroup.procs 2>/dev/null
				taskset -p -c $(( (p + ${#g}) % 4 )) $p >/dev/null 2>&1
			done
			sleep 0.05
		done
	done
}
# groups created and removed under load: each round makes a group under
# s4 (inheriting s4's values, which the writers change), caps it, runs a
# short task and a hog in it, moves the hog out and removes the group
groups() {
	k=0
	while [ $(date +%s) -lt $end ]; do
		k=$((k + 1))
		g=s4/tmp$((k % 3))
		mkdir $CG/$g 2>/dev/null
		echo $(( (k * 37) % 1025 )) > $CG/$g/cpu.capacity_max 2>/dev/null
		echo $1 > $CG/$g/cgroup.procs 2>/dev/null
		ingroup /$g taskset -c $((k % 4)) $RUN periodic 500 1500 0.05
		echo $1 > $CG/cgroup.procs 2>/dev/null
		rmdir $CG/$g 2>/dev/null && made=$((made + 1))
	done
	echo "groups made and removed under load: $made"
	[ "$made" -ge 10 ]
}
made=0
hogs=
for k in 1 2 3; do
	$RUN periodic 3000 4000 $STRESS_S &
	hogs="$hogs $!"
done
writer 1 & w1=$!
writer 500 & w2=$!
churn 0 & c1=$!
mover & m1=$!
set -- $hogs
groups $1 & g1=$!
wait $w1 $w2 $c1 $m1
wait $g1
check "groups created, used and removed during the stress (>= 10)" $? = 0
for p in $hogs; do kill $p 2>/dev/null; done
wait
sleep 0.5
rmdir $CG/s4/tmp* 2>/dev/null
rmdir $CG/s4/a $CG/s1 $CG/s2 $CG/s3 $CG/s4
echo 0 > $TR/tracing_on
cat $TR/per_cpu/cpu*/stats | grep -E "^(overrun|dropped events)" | awk '{ s += $NF } END { print "trace overrun+dropped:", s }'
cat $TR/trace > /tmp/trace.txt
echo "trace: $(wc -l < /tmp/trace.txt) lines"
$RUN replay /tmp/trace.txt 2>/tmp/replay.err
rc=$?
head -20 /tmp/replay.err
[ $rc = 0 ] && pass "ranges equal the replay of the trace" \
	|| fail "ranges equal the replay of the trace"
dmesg_clean
dmesg | grep -E -A20 "WARNING:|BUG:|possible circular|inconsistent lock|Oops" | head -60

if [ -e /dev/ttyS1 ]; then
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	grep -E "cap_clamp_|cpu_frequency" /tmp/trace.txt > /dev/ttyS1
fi
finish

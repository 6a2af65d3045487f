#!/bin/sh
# The overhead benchmarks in the guest (kernel/tools/overhead.sh):
#   capsim.run=bench capsim.arg=none|cap|uclamp
# The benchmarks run in the cgroup /sys/fs/cgroup/bench (one level below
# the root in every mode, so group scheduling costs the same), with
#   none    nothing written
#   cap     cpu.capacity_max=512 (the series: the clamp aggregator is
#           updated at every enqueue/dequeue of these tasks)
#   uclamp  cpu.uclamp.max=50 (mainline: the write turns the
#           sched_uclamp_used static key on, uclamp_rq_inc/dec run at
#           every enqueue/dequeue; 50 % is 512 of 1024, the same cap)
# Sizes from the kernel command line (defaults in brackets):
#   capsim.msg=GROUPS:FDS:LOOPS [4:10:400]   capsim-msg over pipes (the
#                                           guest kernel has no CONFIG_NET)
#   capsim.wake=THREADS:SAMPLES:PERIOD_US [4:1000:1000]   capsim-wake timer
#   capsim.pipe=SAMPLES [20000]             capsim-wake -P (pipe ping-pong)
#   capsim.reps=N [2]                       each benchmark N times
# Prints one "BENCH <name> <tool's line>" line per run; exit 1 on an error.
mode=${1:-none}
msg=4:10:400 wake=4:1000:1000 pipen=20000 reps=2
for w in $(cat /proc/cmdline); do
	case "$w" in
	capsim.msg=*) msg=${w#capsim.msg=} ;;
	capsim.wake=*) wake=${w#capsim.wake=} ;;
	capsim.pipe=*) pipen=${w#capsim.pipe=} ;;
	capsim.reps=*) reps=${w#capsim.reps=} ;;
	esac
done
cg=/sys/fs/cgroup/bench
mkdir -p $cg || exit 1
case "$mode" in
none) ;;
cap) echo 512 > $cg/cpu.capacity_max || { echo "bench: cpu.capacity_max not writable"; exit 1; } ;;
uclamp) echo 50 > $cg/cpu.uclamp.max || { echo "bench: cpu.uclamp.max not writable"; exit 1; } ;;
*) echo "bench: mode $mode: none, cap or uclamp"; exit 1 ;;
esac
echo $$ > $cg/cgroup.procs || exit 1
echo "BENCH-SETUP mode=$mode kernel=$(uname -v | tr ' ' _) capacity_max=$(cat $cg/cpu.capacity_max 2>/dev/null || echo none) uclamp_max=$(cat $cg/cpu.uclamp.max) cgroup=$(tr "\n" " " < /proc/self/cgroup)"
IFS=: read -r g f l <<EOT
$msg
EOT
IFS=: read -r t n p <<EOT
$wake
EOT
rc=0
run() { # NAME CMD...
	name=$1; shift
	if out=$("$@"); then
		echo "BENCH $name $out"
	else
		echo "BENCH-FAIL $name: $*"; rc=1
	fi
}
i=0
while [ $i -lt "$reps" ]; do
	run msg capsim-msg -p -g "$g" -f "$f" -l "$l"
	run wake capsim-wake -t "$t" -n "$n" -p "$p"
	run pipe capsim-wake -P -n "$pipen"
	i=$((i + 1))
done
exit $rc

# Helpers of the in-guest suites (sourced by run.sh and eas.sh).
CG=/sys/fs/cgroup
TR=/sys/kernel/tracing
RUN=capsim-run
npass=0
nfail=0

pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# check NAME CONDITION...: pass when the test(1) condition holds
check() { n=$1; shift; if [ "$@" ]; then pass "$n"; else fail "$n"; fi; }

# expect NAME WANT GOT
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (want '$2', got '$3')"; fi
}
# some NAME COUNT: at least one
some() {
	if [ "$2" -ge 1 ]; then pass "$1"; else fail "$1 (none found)"; fi
}

# wr FILE VALUE: write VALUE exactly as given, print OK/EINVAL/ERANGE/...
wr() { $RUN write "$1" "$2"; }
rd() { cat "$1"; }

# residency PHASE_SECONDS CMD...: run CMD (which must last PHASE_SECONDS
# + 1 s) in the background and print the time_in_state deltas of the
# cpufreq policy $POL (10 ms units) over PHASE_SECONDS, from 0.5 s into the
# run, as "freq:ticks ...". Waits for CMD to end, so phases never overlap.
tis() { cat $POL/stats/time_in_state; }
residency() {
	secs=$1; shift
	"$@" &
	p=$!
	sleep 0.5
	tis > /tmp/tis0
	sleep $secs
	tis > /tmp/tis1
	wait $p 2>/dev/null
	paste /tmp/tis0 /tmp/tis1 | awk '{ printf "%s:%d ", $1, $4 - $2 }'
}
# causes CPU CAP SECS CMD...: residency SECS CMD... with patch 11's
# decision events traced over the same run, then the counts of
# causes.awk for the task on CPU in a group of capacity_max CAP, in $C
# ("name=value ..."), the residency in /tmp/res. cause NAME: one count of $C.
causes() {
	ccpu=$1 ccap=$2; shift 2
	D=$TR/instances/causes
	mkdir $D
	echo 8192 > $D/buffer_size_kb
	echo 0 > $D/tracing_on
	echo capsim:capsim_sugov > $D/set_event
	echo capsim:capsim_sugov_cpu >> $D/set_event
	echo 1 > $D/tracing_on
	residency "$@" > /tmp/res
	echo 0 > $D/tracing_on
	echo 0 > $D/events/enable
	C=$(awk -v cpu=$ccpu -v cap=$ccap -f /tests/fields.awk -f /tests/causes.awk $D/trace)
	rmdir $D
}
cause() { echo "$C" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# share LOW HIGH RES: percent of the residency at LOW <= f <= HIGH
share() { echo "$3" | tr ' ' '\n' | awk -F: -v lo=$1 -v hi=$2 \
	'NF == 2 { t += $2; if ($1 >= lo && $1 <= hi) s += $2 }
	 END { printf "%d", t ? 100 * s / t : -1 }'; }
# ingroup GROUP CMD...: run CMD in cgroup GROUP (a path under $CG)
ingroup() { g=$1; shift; sh -c "echo \$\$ > $CG$g/cgroup.procs; exec $*"; }

# no lockdep splat, WARN, BUG or oops in the kernel log
DMESG_BAD="WARNING:|BUG:|possible circular|inconsistent lock|possible recursive|suspicious RCU|Oops|Call Trace|cap_clamp: [a-z]"
dmesg_clean() {
	expect "no lockdep splat, WARN or oops in dmesg" 0 "$(dmesg | grep -cE "$DMESG_BAD")"
}
# the closing count line; the exit status says whether all passed
finish() {
	echo "$npass passed, $nfail failed"
	[ $nfail = 0 ]
	exit
}

#!/bin/bash
# capsim kernel face test suite: builds the series (kernel/build.sh), checks
# it against the committed kernel/patches/, applies it with patch -p1 to the
# pristine files, runs checkpatch --strict on it, boots the guest under QEMU (TCG)
# and runs the in-guest suite. Ends with "N passed, N failed"; exits
# non-zero on any failure.
#
#   kernel/test.sh                 everything (stress: CAPSIM_STRESS_S, 60 s)
#   CAPSIM_SKIP_BUILD=1 kernel/test.sh   reuse the last build
#   CAPSIM_CLAMP_BACKEND=rbtree kernel/test.sh   build and boot the other
#                                  clamp aggregator (kernel/build.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
B=${CAPSIM_KBUILD:-$top/build/kernel}
L=$B/linux
STRESS_S=${CAPSIM_STRESS_S:-60}
npass=0
nfail=0
pass() { echo "PASS: kernel: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: kernel: $*"; nfail=$((nfail + 1)); }
t_start=$(date +%s)

# ------------------------------------------------------------ build
if [ -z "${CAPSIM_SKIP_BUILD:-}" ]; then
	mkdir -p "$B"
	if "$here/build.sh" > "$B.build.log" 2>&1; then
		pass "build.sh builds the series ($(tr '\n' ' ' < "$B/times.txt"))"
	else
		tail -30 "$B.build.log"
		fail "build.sh builds the series"
		echo "$npass passed, $nfail failed"
		exit 1
	fi
fi

# ------------------------------------------------------------ series
if diff -r -q "$here/patches" "$B/series" >/dev/null 2>&1; then
	pass "kernel/patches/ equals a fresh generation from src/core + kernel/glue"
else
	diff -r "$here/patches" "$B/series" | head -20
	fail "kernel/patches/ equals a fresh generation (run kernel/build.sh --update)"
fi

# patch -p1 on the pristine versions of the files the series touches
tmp=$(mktemp -d)
files=$(grep -h '^+++ b/' "$here"/patches/*.patch | sed 's|^+++ b/||' | sort -u)
existing=$(for f in $files; do git -C "$L" cat-file -e "pristine:$f" 2>/dev/null && echo "$f"; done)
git -C "$L" archive pristine $existing | tar -C "$tmp" -x
ok=1
for p in "$here"/patches/*.patch; do
	(cd "$tmp" && patch -p1 -s --no-backup-if-mismatch < "$p") || { ok=0; echo "does not apply: $p"; }
done
[ $ok = 1 ] && pass "the series applies with patch -p1 to the pristine tree" \
	|| fail "the series applies with patch -p1 to the pristine tree"
# the result is the tree the build used
ok=1
for f in $files; do
	git -C "$L" show "capsim:$f" | cmp -s - "$tmp/$f" || { ok=0; echo "differs: $f"; }
done
[ $ok = 1 ] && pass "patch -p1 gives the tree that was built" || fail "patch -p1 gives the tree that was built"
while read -r src dst; do
	cmp -s "$top/$src" "$tmp/$dst" && pass "$dst is $src, unedited" \
		|| fail "$dst is $src, unedited"
done < <(grep -v '^#' "$here/core-files")
rm -rf "$tmp"

# GIT_DIR elsewhere: skips spdxcheck.py, which needs python3-ply.
# --strict: its CHECKs (layout, uncommented locks) are what a maintainer
# reads too; the series has none, so any new one is a regression.
out=$(cd "$L" && GIT_DIR=/nonexistent ./scripts/checkpatch.pl --strict -q "$here"/patches/*.patch 2>&1)
if [ -z "$out" ]; then
	pass "checkpatch --strict finds nothing in the series"
else
	echo "$out" | head -30
	fail "checkpatch --strict finds nothing in the series"
fi

# ------------------------------------------------------------ guest
O=$B/obj${CAPSIM_CLAMP_BACKEND:+-$CAPSIM_CLAMP_BACKEND}
kernel=$O/arch/x86/boot/bzImage
# the aggregator this kernel was built with, and only that one
agg=$(sed -n 's/^CONFIG_CAP_CLAMP_\(EXACT\|RBTREE\)=y$/\1/p' "$O/.config")
if [ -n "$agg" ] && [ "$(echo "$agg" | wc -l)" = 1 ] &&
   [ "$(ls "$O"/kernel/sched/cap_clamp_*.o | xargs -n1 basename)" = "cap_clamp_${agg,,}.o" ]; then
	pass "clamp aggregator: ${agg,,} (CONFIG_CAP_CLAMP_$agg, cap_clamp_${agg,,}.o alone)"
else
	fail "one clamp aggregator configured and built (got '${agg:-none}')"
fi
initrd=$B/guest/initramfs.cpio.gz
boot() { # NAME TIMEOUT CMDLINE [SMP]
	"$here/tools/qemu-run.sh" "$kernel" "$initrd" "$B/run-$1" "$2" "$3" "${4:-4}"
}
# guest_results NAME PREFIX: show a boot's PASS/FAIL lines with PREFIX
# and add them to the counts
guest_results() {
	local log=$B/run-$1/console.log
	grep -E "^(PASS|FAIL): " "$log" | sed "s/^\(PASS\|FAIL\): /\1: $2: /"
	npass=$((npass + $(grep -c "^PASS: " "$log")))
	nfail=$((nfail + $(grep -c "^FAIL: " "$log")))
}
ran_to_end() { # NAME
	grep -qE "^[0-9]+ passed, [0-9]+ failed" "$B/run-$1/console.log"
}
boot_time() { cut -d' ' -f2- "$B/run-$1/time.txt"; } # NAME
# collect NAME PREFIX TITLE RC: guest_results, then one check that the
# boot ran clean to its closing count line
collect() {
	guest_results "$1" "$2"
	if ran_to_end "$1" && console_clean "$1"; then
		pass "$3 ran clean to its end ($(boot_time "$1"))"
	else
		fail "$3 ran clean to its end (rc $4)"
	fi
}
# also the timekeeping/liveness warnings qemu-run.sh fails a boot for (RCU
# stalls, unstable clocksource, lockups, hung tasks: -icount must not cause
# them)
console_clean() { # NAME
	! grep -qE "WARNING:|BUG:|possible circular|inconsistent lock|possible recursive|suspicious RCU|Oops|Kernel panic|cap_clamp: [a-z]|rcu: INFO|detected stall|timer wakeup didn.t happen|clocksource.*unstable|TSC unstable|soft lockup|hard LOCKUP|blocked for more than" \
		"$B/run-$1/console.log"
}

# KVM only if a probe boot under it works (it does not on the machines
# this was developed on: the probe is killed at its deadline)
t0=$(date +%s)
accel=$("$here/tools/accel-probe.sh" "$kernel" "$initrd" "$B/run-kvm-probe" 2>"$B/accel.txt")
t1=$(date +%s)
export CAPSIM_ACCEL=$accel
if pgrep -f "$B/run-kvm-probe/console.log" >/dev/null; then
	fail "the KVM probe leaves no qemu behind"
else
	pass "accelerator $accel, chosen in $((t1 - t0)) s, no qemu left behind ($(sed 's/^accel-probe: //' "$B/accel.txt"))"
fi

boot smoke 60 "capsim.run=boot"
rc=$?
[ $rc = 0 ] && pass "guest boots to its closing marker ($(boot_time smoke))" \
	|| fail "guest boots to its closing marker (rc $rc)"

timeout=$((STRESS_S * 3 + 300))
boot suite $timeout "capsim.run=tests capsim.arg=$STRESS_S trace_event=cap_clamp:* trace_buf_size=32M"
rc=$?
guest_results suite guest
ran_to_end suite && pass "in-guest suite ran to its end ($(boot_time suite))" \
	|| fail "in-guest suite ran to its end (rc $rc)"
console_clean suite && pass "no lockdep splat, WARN, BUG or oops on the guest console" \
	|| fail "no lockdep splat, WARN, BUG or oops on the guest console"
if [ -s "$B/run-suite/trace.txt" ]; then
	pass "trace captured to the host over ttyS1 ($(wc -l < "$B/run-suite/trace.txt") lines: $B/run-suite/trace.txt)"
else
	fail "trace captured to the host over ttyS1"
fi

# schedutil's single path: one policy per CPU
boot single 120 "capsim.run=tests capsim.arg=single capsim_cpufreq.domains=0:1:2:3"
collect single guest-single "single-policy boot" $?

# bad driver parameters: a clear error, no driver, no WARN
boot badparam 60 "capsim.run=boot capsim_cpufreq.domains=0-1:2-3 capsim_cpufreq.power=1,2"
if grep -q "capsim_cpufreq: power: 2 values for 5 OPPs in domain 0" "$B/run-badparam/console.log" &&
   grep -q "capsim_cpufreq: not registered: bad parameters" "$B/run-badparam/console.log" &&
   console_clean badparam; then
	pass "bad driver parameters: the field and the reason in the log, driver not registered, no WARN"
else
	grep capsim_cpufreq "$B/run-badparam/console.log"
	fail "bad driver parameters: the field and the reason in the log, driver not registered, no WARN"
fi

# an asymmetric platform with EAS: juno-r0 from its platform file, through
# the simulator's own platform parser
capsim=$top/build/capsim
if [ ! -x "$capsim" ]; then
	"$top/scripts/deps.sh" core >/dev/null && "$top/scripts/build.sh" "$top/build"
fi
if args=$("$capsim" platform cmdline "$top/traces/platforms/juno-r0.json") &&
   smp=$("$capsim" platform cmdline --smp "$top/traces/platforms/juno-r0.json"); then
	boot eas 120 "capsim.run=tests capsim.arg=eas sched_verbose $args" "$smp"
	collect eas guest-eas "asymmetric (juno-r0, EAS) boot" $?
else
	fail "capsim platform cmdline juno-r0"
fi

echo "kernel tests: $(( $(date +%s) - t_start )) s"
echo "$npass passed, $nfail failed"
[ $nfail = 0 ]

#!/bin/bash
# Kernel overhead of capacity clamping in the guest (issue 16): boots the
# benchmark kernels interleaved (A B C D A B C D ...), runs the in-guest
# benchmarks (kernel/guest/tests/bench.sh: capsim-msg, capsim-wake) and
# prints per variant the median, min and max over all runs and the ratio
# of the medians to "off".
#
#   kernel/tools/overhead.sh [OUTDIR]        (default build/kernel/overhead)
#
# Variants (kernels built by --build, or by kernel/build.sh as below):
#   off     obj-bench-off: CONFIG_CAPACITY_CLAMPING=n, benchmarks in a
#           cgroup with nothing written (uclamp compiled in, key off)
#   exact   obj-bench-exact: the exact aggregator, cpu.capacity_max=512
#   rbtree  obj-bench-rbtree: the rbtree aggregator, cpu.capacity_max=512
#   uclamp  obj-bench-off again, cpu.uclamp.max=50 (mainline uclamp on)
#   exact-nocap  obj-bench-exact, nothing written (the hooks' own cost,
#           apart from what a cap does to the decisions)
#   exact-uclamp  obj-bench-exact, cpu.uclamp.max=50: uclamp in the same
#           kernel as exact (capacity clamping built, its key off), so the
#           two policies' caps compare in one binary without obj-bench-off
# All: kernel/config/capsim.config + kernel/config/bench.config (no lock
# debugging); off, uclamp: + kernel/config/off.config.
# Any other kernel: CAPSIM_BENCH_OBJ_<VARIANT>=OBJDIR (the name upper-cased,
# - as _) boots OBJDIR/arch/x86/boot/bzImage for VARIANT, in the mode its
# name ends with: -nocap (nothing written), -cap (cpu.capacity_max=512),
# -uclamp (cpu.uclamp.max=50); e.g. CAPSIM_BENCH_OBJ_LD_CAP=build/kernel/obj
# for a variant ld-cap on the lockdep test kernel.
#
# Environment:
#   CAPSIM_BENCH_ROUNDS=5          rounds (each boots every variant once)
#   CAPSIM_BENCH_VARIANTS="off exact rbtree uclamp"
#   CAPSIM_BENCH_BASE=off          the variant the ratios are to
#   CAPSIM_BENCH_ARGS="..."        extra guest command line (sizes, see
#                                  bench.sh: capsim.msg=, capsim.wake=,
#                                  capsim.pipe=, capsim.reps=)
#   CAPSIM_ICOUNT=off              real-time guest clock (qemu-run.sh;
#                                  default -icount shift=2,sleep=off,align=off)
#   CAPSIM_BENCH_SMP=4, CAPSIM_BENCH_TIMEOUT=900 (s per boot)
#   --build                        build the three kernels first
# Every build and boot runs under flock /tmp/capsim-kernel.lock (one boot
# at a time, shared with the other kernel jobs of the machine).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
B=${CAPSIM_KBUILD:-$top/build/kernel}
LOCK=/tmp/capsim-kernel.lock
build=0
[ "${1:-}" = --build ] && { build=1; shift; }
out=${1:-$B/overhead}
rounds=${CAPSIM_BENCH_ROUNDS:-5}
variants=${CAPSIM_BENCH_VARIANTS:-off exact rbtree uclamp}
args=${CAPSIM_BENCH_ARGS:-}
smp=${CAPSIM_BENCH_SMP:-4}
timeout=${CAPSIM_BENCH_TIMEOUT:-900}
K=$here/config

kobj() { # VARIANT -> obj dir
	local override
	override=CAPSIM_BENCH_OBJ_$(echo "$1" | tr 'a-z-' 'A-Z_')
	if [ -n "${!override:-}" ]; then echo "${!override}"; return; fi
	case $1 in
	off|uclamp) echo "$B/obj-bench-off" ;;
	exact|exact-nocap|exact-uclamp) echo "$B/obj-bench-exact" ;;
	rbtree) echo "$B/obj-bench-rbtree" ;;
	*) echo "overhead: unknown variant $1" >&2; exit 2 ;;
	esac
}
kmode() {
	case $1 in
	off|exact-nocap|*-nocap) echo none ;;
	exact|rbtree|*-cap) echo cap ;;
	uclamp|exact-uclamp|*-uclamp) echo uclamp ;;
	*) echo "overhead: variant $1: no mode (a name ending in -nocap, -cap or -uclamp)" >&2; exit 2 ;;
	esac
}

if [ $build = 1 ]; then
	flock $LOCK env CAPSIM_KVARIANT=bench-off CAPSIM_KCONFIG_EXTRA="$K/bench.config $K/off.config" "$here/build.sh" || exit 1
	flock $LOCK env CAPSIM_KVARIANT=bench-exact CAPSIM_KCONFIG_EXTRA="$K/bench.config" "$here/build.sh" || exit 1
	flock $LOCK env CAPSIM_CLAMP_BACKEND=rbtree CAPSIM_KVARIANT=bench-rbtree CAPSIM_KCONFIG_EXTRA="$K/bench.config" "$here/build.sh" || exit 1
fi
for v in $variants; do
	kmode "$v" >/dev/null || exit 2
	k=$(kobj "$v")/arch/x86/boot/bzImage
	[ -e "$k" ] || { echo "overhead: no $k (kernel/tools/overhead.sh --build)" >&2; exit 2; }
done

mkdir -p "$out"
# this checkout's guest: the benchmarks as they are now
"$here/tools/mkinitramfs.sh" "$out/initramfs.cpio.gz" || exit 1
icount=${CAPSIM_ICOUNT:-shift=2,sleep=off,align=off}
{
	echo "# kernel/tools/overhead.sh $out"
	echo "# $(date -u +%FT%TZ) rounds=$rounds variants=$variants smp=$smp icount=$icount args=$args"
	echo "# commit $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD -- kernel || echo +dirty)"
	for v in $variants; do
		k=$(kobj "$v")/arch/x86/boot/bzImage
		echo "# $v: $(kmode "$v") on $k ($(date -u -r "$k" +%FT%TZ))"
	done
} > "$out/results.txt"

fails=0
for r in $(seq 1 "$rounds"); do
	for v in $variants; do
		d=$out/$v-$r
		k=$(kobj "$v")/arch/x86/boot/bzImage
		flock $LOCK "$here/tools/qemu-run.sh" "$k" "$out/initramfs.cpio.gz" "$d" "$timeout" \
			"capsim.run=bench capsim.arg=$(kmode "$v") $args" "$smp"
		rc=$?
		n=$(grep -c '^BENCH ' "$d/console.log" 2>/dev/null)
		echo "overhead: round $r $v: rc $rc, $n results, $(cat "$d/time.txt" 2>/dev/null)" >&2
		if [ $rc != 0 ] || grep -q '^BENCH-FAIL' "$d/console.log"; then
			fails=$((fails + 1))
			grep -E '^BENCH-FAIL|^bench:' "$d/console.log" >&2
			continue
		fi
		grep '^BENCH ' "$d/console.log" | sed "s/^BENCH /$v $r /" >> "$out/results.txt"
	done
done

"$here/tools/overhead-table.sh" "$out/results.txt" "${CAPSIM_BENCH_BASE:-off}" | tee "$out/table.md"
[ $fails = 0 ] || { echo "overhead: $fails boots failed" >&2; exit 1; }

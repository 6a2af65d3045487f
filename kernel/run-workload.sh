#!/bin/bash
# Run workload JSON files in the capsim guest and bring the ftrace text back.
# Usage: kernel/run-workload.sh OUTDIR WORKLOAD.json...
#   env: CAPSIM_PLATFORM (an embedded platform name or a platform file: the
#        driver parameters and -smp come from `capsim platform cmdline`,
#        the simulator's own parser; default: the driver's sym4 table),
#        CAPSIM_CMDLINE (more kernel parameters), CAPSIM_TIMEOUT (s,
#        default 300), CAPSIM_SMP (default 4, or the platform's CPUs),
#        CAPSIM_ACCEL (default: kvm if a probe boot works, else tcg),
#        CAPSIM_EVENTS (the events to trace, guest/tests/workload.sh: a
#        comma list of set_event names, "+LIST" for the default list plus
#        LIST, or "xcheck" for the default plus capsim:* and lisa:*),
#        CAPSIM_TRACE_BUF (trace_buf_size, per CPU; default 32M, 64M with
#        xcheck), CAPSIM_ICOUNT (tools/qemu-run.sh)
# Needs kernel/build.sh first. OUTDIR gets console.log and trace.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
B=${CAPSIM_KBUILD:-$top/build/kernel}
out=$1; shift
mkdir -p "$out"
kernel=$B/obj/arch/x86/boot/bzImage
platform_args=
smp=${CAPSIM_SMP:-4}
if [ -n "${CAPSIM_PLATFORM:-}" ]; then
	capsim=$top/build/capsim
	[ -x "$capsim" ] || "$top/scripts/build.sh" "$top/build"
	platform_args=$("$capsim" platform cmdline "$CAPSIM_PLATFORM")
	smp=${CAPSIM_SMP:-$("$capsim" platform cmdline --smp "$CAPSIM_PLATFORM")}
fi
"$here/tools/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$@"
events=${CAPSIM_EVENTS:-}
case "$events" in
*' '*) echo "run-workload: CAPSIM_EVENTS is a comma list, no blanks" >&2; exit 2 ;;
esac
buf=${CAPSIM_TRACE_BUF:-32M}
[ "$events" = xcheck ] && buf=${CAPSIM_TRACE_BUF:-64M}
CAPSIM_ACCEL=$("$here/tools/accel-probe.sh" "$kernel" "$out/initramfs.cpio.gz" "$out/kvm-probe")
export CAPSIM_ACCEL
rc=0
"$here/tools/qemu-run.sh" "$kernel" "$out/initramfs.cpio.gz" "$out" \
	"${CAPSIM_TIMEOUT:-300}" \
	"capsim.run=workload${events:+ capsim.arg=$events} trace_buf_size=$buf $platform_args ${CAPSIM_CMDLINE:-}" "$smp" || rc=$?
# the guest sends the trace gzip'ed (guest/tests/workload.sh)
if [ "$(head -c2 "$out/trace.txt" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
	mv "$out/trace.txt" "$out/trace.txt.gz"
	gzip -dc "$out/trace.txt.gz" > "$out/trace.txt" || rc=1
	rm -f "$out/trace.txt.gz"
fi
exit $rc

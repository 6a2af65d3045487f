#!/bin/bash
# Pick QEMU's accelerator: KVM only when a probe boot under KVM reaches the
# guest's closing marker within its deadline, else TCG. Prints "kvm" or
# "tcg" on stdout and why on stderr. CAPSIM_ACCEL set: that, no probe.
# Usage: accel-probe.sh BZIMAGE INITRD OUTDIR [DEADLINE_S]
# (Measured on the development machines: /dev/kvm exists but KVM guests
# fail or hang there, so the probe's deadline is short and qemu is killed
# by its pid with SIGKILL by qemu-run.sh.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernel=$1 initrd=$2 out=$3 deadline=${4:-10}
if [ -n "${CAPSIM_ACCEL:-}" ]; then
	echo "accel-probe: CAPSIM_ACCEL=$CAPSIM_ACCEL, no probe" >&2
	echo "$CAPSIM_ACCEL"
	exit 0
fi
if [ ! -w /dev/kvm ]; then
	echo "accel-probe: no usable /dev/kvm" >&2
	echo tcg
	exit 0
fi
CAPSIM_ACCEL=kvm "$here/qemu-run.sh" "$kernel" "$initrd" "$out" "$deadline" \
	"capsim.run=boot" 2 2>/dev/null
rc=$?
if [ $rc = 0 ]; then
	echo "accel-probe: KVM boot reached the closing marker ($(cut -d' ' -f2- "$out/time.txt"))" >&2
	echo kvm
	exit 0
fi
if [ $rc = 124 ]; then
	why="no closing marker within ${deadline} s, qemu killed"
else
	why=$(grep -v -e '^$' -e '^qemu-run:' "$out/qemu.log" 2>/dev/null | head -1)
	why="qemu exited without the closing marker${why:+: $why}"
fi
echo "accel-probe: KVM unusable ($why); using TCG" >&2
echo tcg

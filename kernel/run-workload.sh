#!/bin/bash
# Run workload JSON files in the capsim guest and bring the ftrace text back.
# Usage: kernel/run-workload.sh OUTDIR WORKLOAD.json... 
#   env: CAPSIM_CMDLINE (extra kernel parameters, e.g.
#        "capsim_cpufreq.freqs=... capsim_cpufreq.domains=0-1:2-3"),
#        CAPSIM_TIMEOUT (s, default 300), CAPSIM_SMP (default 4)
# Needs kernel/build.sh first. OUTDIR gets console.log and trace.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=${CAPSIM_KBUILD:-$here/../build/kernel}
out=$1; shift
mkdir -p "$out"
"$here/tools/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$@"
"$here/tools/qemu-run.sh" "$B/obj/arch/x86/boot/bzImage" "$out/initramfs.cpio.gz" "$out" \
	"${CAPSIM_TIMEOUT:-300}" "capsim.run=workload trace_buf_size=32M ${CAPSIM_CMDLINE:-}" "${CAPSIM_SMP:-4}"

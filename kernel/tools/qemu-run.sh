#!/bin/bash
# Boot the capsim guest under QEMU with a hard deadline.
# Usage: qemu-run.sh BZIMAGE INITRD OUTDIR TIMEOUT_S "EXTRA CMDLINE" [SMP]
# OUTDIR gets console.log (ttyS0) and trace.txt (ttyS1). The QEMU process is
# ended with SIGKILL, by its pid, if it has not exited by the deadline
# (SIGTERM is not enough for a hung TCG guest). Exit: 0 when the guest
# printed its closing marker with rc=0, 1 otherwise, 124 on timeout.
set -uo pipefail
kernel=$1 initrd=$2 out=$3 timeout=$4 extra=${5:-} smp=${6:-4}
mkdir -p "$out"
rm -f "$out/console.log" "$out/trace.txt"
accel=${CAPSIM_ACCEL:-tcg}
echo "qemu-run: accel $accel, smp $smp, deadline ${timeout}s" > "$out/qemu.log"
qemu-system-x86_64 -accel "$accel" -cpu "${CAPSIM_CPU:-Nehalem}" -nodefaults -display none -no-reboot \
	-smp "$smp" -m 1024M \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=6 $extra" \
	-serial "file:$out/console.log" -serial "file:$out/trace.txt" \
	</dev/null >>"$out/qemu.log" 2>&1 &
pid=$!
start=$(date +%s.%N)
deadline=$(( $(date +%s) + timeout ))
rc=124
while [ "$(date +%s)" -lt "$deadline" ]; do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; rc=0; break
	fi
	sleep 0.2
done
if [ $rc = 124 ]; then
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "qemu-run: deadline of ${timeout}s reached, qemu $pid killed" >&2
fi
end=$(date +%s.%N)
printf 'qemu-run: %.1f s\n' "$(echo "$end - $start" | bc)" > "$out/time.txt"
if [ $rc = 124 ]; then exit 124; fi
grep -q "capsim-guest: done rc=0" "$out/console.log" && exit 0
exit 1

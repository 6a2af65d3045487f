#!/bin/sh
# Issue 23, hostile traces: the trace readers and the trace commands
# (plot, trace-dat, xcheck --guest-trace) bound what a trace can make them
# hold, refuse inputs that are no file, and never replace what they read
# or what capsim did not write. Each reproducer of the issue runs through
# the real binary under a time and an address-space bound.
# Usage: trace-bounds.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT

# An address-space limit breaks ASan's shadow memory: there, its own RSS
# limit bounds the process instead (tests/bounded.sh).
san=none
if ldd "$W" 2>/dev/null | grep -q libasan; then
	san=address
fi
. "$SRC/tests/bounded.sh"

# bounded SECS MB CMD...: run CMD; $rc its status (137: killed by the
# timeout), $tmp/err its stderr
bounded() { run_bounded "$san" "$@"; }

# expect NAME STATUS MESSAGE: the last command's status and stderr
expect() {
	if [ $rc -eq 137 ]; then
		bad "$1: killed by its time bound"
	elif [ $rc -ne "$2" ]; then
		bad "$1: exit status $rc, expected $2; stderr: $(head -c 400 "$tmp/err")"
	elif [ -n "$3" ] && ! grep -qF -- "$3" "$tmp/err"; then
		bad "$1: no \"$3\" in stderr: $(head -c 400 "$tmp/err")"
	else
		ok "$1"
	fi
}

# nothing NAME PATH...: none of the paths exists, nor a partial or
# temporary file in the directory
nothing() {
	name=$1
	shift
	left=
	for p in "$@" .trace.dat.* *.partial-*; do
		[ -e "$p" ] && left="$left $p"
	done
	if [ -z "$left" ]; then
		ok "$name: nothing written"
	else
		bad "$name: left$left"
	fi
}

wake() { # wake PID TS: a sched_wakeup line of pid PID
	printf '          <idle>-0     [000] d..2.  %s: sched_wakeup: comm=a pid=%s prio=120 target_cpu=000\n' "$2" "$1"
}
switch() { # switch CPU TS NEXT_PID
	printf '          <idle>-0     [%03d] d..2.  %s: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=%s next_prio=120\n' "$1" "$2" "$3"
}

# --- capsim plot: ids bounded, memory as the trace, not its largest id ---
for pid in 1073741823 2147483647; do
	{ echo '# tracer: nop'; wake $pid 1.000000; switch 0 1.000100 $pid; } >pid.txt
	# before: 4.2 GB for the first, an endless loop for the second
	bounded 20 256 "$W" plot pid.txt -o plots-pid --quiet
	expect "plot: pid=$pid refused" 2 \
		"pid.txt:2:72: error: pid=$pid: a pid is in [0, 4194304] (the kernel's PID_MAX_LIMIT)"
	nothing "plot: pid=$pid" plots-pid
done

# 100 000 pids, then a line on CPU 4095 (before: 3.2 GB, 15 s). The scan
# must hold it in a few tens of MB; the plot of 100 000 lanes and 4 096
# domains may still fail in gnuplot (the plots' reduction), not here.
awk 'BEGIN { for (i = 1; i <= 100000; i++)
	printf "          <idle>-0     [000] d..2.  1.%06d: sched_wakeup: comm=t pid=%d prio=120 target_cpu=000\n", i, i }' >many.txt
switch 4095 2.000000 5 >>many.txt
bounded 120 512 "$W" plot many.txt -o plots-many --quiet
if [ $rc -eq 137 ]; then
	bad "plot: 100 000 pids + CPU 4095: killed by its time bound"
elif [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q gnuplot "$tmp/err" &&
	! grep -qi "memory" "$tmp/err"; }; then
	ok "plot: 100 000 pids + CPU 4095 within 512 MB (exit $rc)"
else
	bad "plot: 100 000 pids + CPU 4095: exit $rc: $(head -c 400 "$tmp/err")"
fi
rm -rf plots-many

{ switch 4096 1.0 5; } >cpu.txt
bounded 20 256 "$W" plot cpu.txt -o plots-cpu --quiet
expect "plot: CPU 4096 without a platform" 2 \
	"cpu.txt:1:25: error: CPU 4096 is out of range: allowed [0, 4095] without a platform"
bounded 20 256 "$W" plot cpu.txt -o plots-cpu --quiet --platform sym4
expect "plot: CPU 4096 on sym4" 2 \
	"cpu.txt:1:25: error: CPU 4096 is beyond the platform's 4 CPUs (sym4)"
nothing "plot: CPU 4096" plots-cpu

# --- inputs that are no file: a device, a FIFO; a line without end ---
mkfifo fifo
for cmd in "plot /dev/zero -o plots-z --quiet" "plot fifo -o plots-z --quiet" \
	   "trace-dat /dev/zero z.dat" "trace-dat fifo z.dat"; do
	in=$(echo "$cmd" | cut -d' ' -f2)
	# shellcheck disable=SC2086 # the command's words
	bounded 20 256 "$W" $cmd
	expect "$(echo "$cmd" | cut -d' ' -f1) $in refused" 2 \
		"capsim: $in: not a regular file"
	nothing "$cmd" plots-z z.dat
done
# 1 GiB without a newline (sparse, its first 4 KiB text: the reader
# takes a file of NULs for binary): refused at the first 64 KiB
head -c 4096 /dev/zero | tr '\000' x >long.txt
truncate -s 1G long.txt
bounded 20 256 "$W" plot long.txt -o plots-long --quiet
expect "plot: a 1 GiB line" 2 "long.txt:1:1: error: line longer than 65536 bytes"
bounded 20 256 "$W" trace-dat long.txt long.dat
expect "trace-dat: a 1 GiB line" 2 "long.txt:1:1: line longer than 65536 bytes"
nothing "a 1 GiB line" plots-long long.dat
rm -f long.txt

# --- capsim trace-dat: never over its input or what it did not write ---
printf '{ "global": { "duration": 0.02 }, "tasks": { "t": { "run": 1000, "sleep": 1000 } } }' >w.json
if ! "$W" run w.json -o run --quiet 2>"$tmp/err"; then
	bad "capsim run for a trace: $(cat "$tmp/err")"
	echo "$pass passed, $fail failed"
	exit 1
fi
cp run/trace.txt t.txt
cp t.txt t.orig
ln -s t.txt t-link.txt
ln t.txt t-hard.txt
for out in t.txt ./t.txt t-link.txt t-hard.txt "$tmp/t.txt"; do
	bounded 20 256 "$W" trace-dat t.txt "$out"
	expect "trace-dat t.txt $out refused (the input)" 2 "is the input t.txt"
done
if cmp -s t.txt t.orig && [ -L t-link.txt ]; then
	ok "trace-dat: the input is intact"
else
	bad "trace-dat: the input changed"
fi
nothing "trace-dat onto its input"

bounded 20 256 "$W" trace-dat t.txt fifo
expect "trace-dat onto a FIFO refused" 2 "fifo exists and is not a regular file"
[ -p fifo ] && ok "trace-dat: the FIFO is still one" || bad "trace-dat: the FIFO was replaced"
mkdir d && touch d/keep
bounded 20 256 "$W" trace-dat t.txt d
expect "trace-dat onto a directory refused" 2 "d exists and is not a regular file"
[ -f d/keep ] && ok "trace-dat: the directory is intact" || bad "trace-dat: the directory was replaced"
# a device node of our own (never /dev/null itself): /dev/null's numbers
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null; then
	bounded 20 256 "$W" trace-dat t.txt null
	expect "trace-dat onto a device node refused" 2 "null exists and is not a regular file"
	if [ -c null ] && [ "$(stat -c %t:%T null)" = 1:3 ]; then
		ok "trace-dat: the device node is intact"
	else
		bad "trace-dat: the device node was replaced"
	fi
	rm -f null
else
	echo "skip trace-dat onto a device node: not root (mknod)"
fi
nothing "trace-dat onto special files"

echo 'my notes' >notes.txt
bounded 20 256 "$W" trace-dat t.txt notes.txt
expect "trace-dat onto a file that is no trace.dat refused" 2 \
	"notes.txt exists and is not a trace.dat: not replaced (--force replaces it)"
[ "$(cat notes.txt)" = "my notes" ] && ok "trace-dat: the foreign file is intact" ||
	bad "trace-dat: the foreign file changed"
bounded 20 256 "$W" trace-dat t.txt out.dat
expect "trace-dat to a new file" 0 ""
bounded 20 256 "$W" trace-dat t.txt out.dat
expect "trace-dat over a trace.dat" 0 ""
bounded 20 256 "$W" trace-dat t.txt notes.txt --force
expect "trace-dat --force over a foreign file" 0 ""
if [ "$(head -c 10 notes.txt | od -An -c | tr -d ' ')" = '027\bDtracing' ]; then
	ok "trace-dat --force: a trace.dat written"
else
	bad "trace-dat --force: notes.txt is no trace.dat"
fi

# #P:2000000000: before, SIGABRT and a .trace.dat.XXXXXX left
printf '# entries-in-buffer/entries-written: 0/0   #P:2000000000\n' >p.txt
bounded 20 256 "$W" trace-dat p.txt p.dat
expect "trace-dat #P:2000000000" 2 \
	"p.txt:1:47: #P:2000000000: the CPU count is out of range: allowed [1, 4096]"
nothing "trace-dat #P:2000000000" p.dat

# --- capsim xcheck --guest-trace ---
for g in /dev/zero fifo; do
	# before: /dev/zero filled the disk, then the copy spun
	bounded 60 512 "$W" xcheck w.json --guest-trace $g -o xo --quiet --no-plots
	expect "xcheck --guest-trace $g refused" 2 "capsim: $g: not a regular file"
	nothing "xcheck --guest-trace $g" xo
done
# a guest trace that is no trace: the message names it, not the copy in
# the partial output directory
{ cat t.txt; echo 'no trace line'; } >g.txt
n=$(wc -l <g.txt)
bounded 60 512 "$W" xcheck w.json --guest-trace g.txt -o xo --quiet --no-plots
expect "xcheck: a bad guest trace named as given" 2 "g.txt:$n:1: error: no [CPU] column"
if grep -q 'partial' "$tmp/err"; then
	bad "xcheck: a message names the partial directory: $(grep partial "$tmp/err")"
else
	ok "xcheck: no message names the partial directory"
fi
nothing "xcheck: a bad guest trace" xo

# the copy stops at the first write error: a full disk (a small tmpfs,
# as root), else a file-size limit (SIGXFSZ ignored, so writes fail)
for i in $(seq 300); do cat t.txt; done >big.txt
full=$tmp/full
mkdir "$full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
	bounded 60 512 "$W" xcheck w.json --guest-trace big.txt -o "$full/xo" \
		--quiet --no-plots
	expect "xcheck: guest trace copy onto a full disk" 1 \
		"capsim: cannot copy big.txt to $full/xo/guest/trace.txt: No space left on device"
	[ -z "$(ls -A "$full")" ] && ok "xcheck: nothing left on the full disk" ||
		bad "xcheck: left $(ls -A "$full" | tr '\n' ' ') on the full disk"
	umount "$full"
else
	bounded 60 512 sh -c "trap '' XFSZ; exec prlimit --fsize=1000000 \"$W\" xcheck w.json --guest-trace big.txt -o xo --quiet --no-plots"
	expect "xcheck: guest trace copy over a file-size limit" 1 \
		"capsim: cannot copy big.txt to xo/guest/trace.txt: File too large"
	nothing "xcheck: the copy's write error" xo
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

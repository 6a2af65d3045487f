#!/bin/sh
# Signals (issue 23): compare, sweep, plot and xcheck, told to stop while
# their workers run, stop the workers, remove DIR.partial-* and die of the
# signal (status 128+N); a sweep keeps DIR instead, its finished points
# there for --resume (issue 28; sweep-resume.sh resumes one), and says so;
# a parent killed outright takes its workers with it (PR_SET_PDEATHSIG). The workers are stand-ins that record their pid
# and wait (CAPSIM_EXE for capsim's own runs, a `gnuplot` first on PATH),
# so the signal always lands while they run.
#   signals.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
cp "$SRC/traces/whatif-bg-cap.json" w.json
"$C" run w.json --duration 1 --quiet -o run1 2>/dev/null || bad "setup run"
mkdir bin
cat > bin/worker <<EOF
#!/bin/sh
echo \$\$ >> "$tmp/pids"
exec sleep 60
EOF
cp bin/worker bin/gnuplot
chmod +x bin/worker bin/gnuplot
# Background jobs of a script start with SIGINT ignored, and everything
# under nohup with SIGHUP ignored, which capsim keeps ignored (as a shell
# would): give the signals the cases send their defaults first.
dfl='import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])'

alive() {	# how many of the recorded workers still run
	n=0
	for p in $(cat pids 2>/dev/null); do
		# a zombie is dead (nobody may reap it in a container)
		case $(ps -o stat= -p "$p" 2>/dev/null) in
		Z*|"") ;;
		*) n=$((n + 1)) ;;
		esac
	done
	echo $n
}
wait_workers() {	# until N workers recorded, at most 10 s
	i=0
	while [ "$(cat pids 2>/dev/null | wc -l)" -lt "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# case NAME SIGNAL WORKERS OUTDIR COMMAND... (OUTDIR keep:DIR: DIR must
# stay, a sweep capsim started)
case_() {
	name=$1 sig=$2 nw=$3 out=$4 keep=false
	shift 4
	case $out in keep:*) keep=true out=${out#keep:} ;; esac
	rm -f pids
	cmd=$(command -v "$1")
	shift
	python3 -c "$dfl" "$cmd" "$@" >/dev/null 2>err.txt &
	pid=$!
	wait_workers "$nw"
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	case $sig in HUP) want=129 ;; INT) want=130 ;; TERM) want=143 ;; esac
	sleep 0.2
	left=$(ls -d "$out".partial-* 2>/dev/null)
	$keep || left="$left$(ls -d "$out" 2>/dev/null)"
	if [ $rc -ne $want ]; then
		bad "$name: exit $rc, expected $want: $(head -2 err.txt)"
	elif [ -n "$left" ]; then
		bad "$name: left $left"
	elif $keep && ! { [ -f "$out/.capsim-output" ] && [ -f "$out/sweep.json" ]; }; then
		bad "$name: $out not kept as a sweep capsim started"
	elif $keep && ! grep -q -- "--resume" err.txt; then
		bad "$name: no word of --resume: $(cat err.txt)"
	elif [ "$(alive)" -ne 0 ]; then
		bad "$name: $(alive) workers still running"
	else
		ok "$name: status $rc, workers stopped, no partial directory$($keep && echo ", $out kept")"
	fi
	rm -rf "$out"
	for p in $(cat pids 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
}

export PATH="$tmp/bin:$PATH"
case_ "sweep, SIGTERM" TERM 2 keep:sw \
	env CAPSIM_EXE="$tmp/bin/worker" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000,3000' -j 2 --quiet -o sw
case_ "sweep, SIGINT" INT 2 keep:sw \
	env CAPSIM_EXE="$tmp/bin/worker" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000,3000' -j 2 --quiet -o sw
case_ "compare, SIGHUP" HUP 2 cmp \
	env CAPSIM_EXE="$tmp/bin/worker" "$C" compare w.json --quiet -j 2 -o cmp
case_ "plot (gnuplot running), SIGTERM" TERM 1 pl \
	"$C" plot run1 --quiet -o pl
case_ "xcheck (the simulator running), SIGINT" INT 1 xc \
	env CAPSIM_EXE="$tmp/bin/worker" "$C" xcheck "$SRC/traces/xcheck/bg-hog-capped.json" \
	--guest-trace "$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt" \
	--quiet -o xc

# SIGKILL cannot be caught: the workers die with their parent
rm -f pids
CAPSIM_EXE="$tmp/bin/worker" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' \
	-j 2 --quiet -o sk >/dev/null 2>&1 &
pid=$!
wait_workers 2
kill -9 $pid
wait $pid 2>/dev/null
sleep 0.5
[ "$(alive)" -eq 0 ] && ok "sweep, SIGKILL: the workers died with it" ||
	bad "sweep, SIGKILL: $(alive) workers orphaned"
rm -rf sk.partial-* sk

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

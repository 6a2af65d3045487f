#!/bin/sh
# Nothing deleted or overwritten that capsim did not write (issue 23):
# every command that writes a directory, given an -o that holds foreign
# files, an input, or is no directory at all; the foreign files survive,
# no marker appears, the status is 2. Then what capsim wrote is replaced,
# and two runs into one -o never mix their files.
#   outdir.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
cp "$SRC/traces/whatif-bg-cap.json" w.json
fx="$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt"
xw="$SRC/traces/xcheck/bg-hog-capped.json"
"$C" run w.json --duration 1 --quiet -o run1 2>/dev/null || bad "setup run"

# A directory of someone else's files, checked after every command
foreign() {
	rm -rf "$1"
	mkdir -p "$1/sub"
	echo precious > "$1/notes.txt"
	echo code > "$1/sub/main.c"
}
intact() {	# NAME DIR
	if [ "$(cat "$2/notes.txt" 2>/dev/null)" = precious ] &&
	   [ "$(cat "$2/sub/main.c" 2>/dev/null)" = code ] &&
	   [ ! -e "$2/.capsim-output" ] &&
	   [ -z "$(ls -d "$2".partial-* "$2".old-* 2>/dev/null)" ]; then
		ok "$1: foreign files intact, nothing left beside"
	else
		bad "$1: the foreign directory changed: $(ls -A "$2" | tr '\n' ' ')"
	fi
}
# expect STATUS MESSAGE NAME COMMAND...
expect() {
	want=$1 msg=$2 name=$3
	shift 3
	"$@" >out.txt 2>err.txt </dev/null
	rc=$?
	if [ $rc -ne "$want" ]; then
		bad "$name: exit $rc, expected $want: $(head -3 err.txt)"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" err.txt; then
		bad "$name: message '$msg' not in: $(head -3 err.txt)"
	else
		ok "$name: exit $want"
	fi
}
refused="exists and was not written by capsim; choose another -o or remove it"

foreign f
expect 2 "$refused" "run -o foreign" "$C" run w.json --duration 1 --quiet -o f
intact "run" f
expect 2 "$refused" "compare -o foreign" "$C" compare w.json --duration 1 --quiet --no-plots -o f
intact "compare" f
expect 2 "$refused" "sweep -o foreign" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' --duration 1 --quiet -o f
intact "sweep" f
expect 2 "$refused" "sweep --emit-jobs -o foreign" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' --duration 1 --quiet --emit-jobs jobs.txt -o f
intact "sweep --emit-jobs" f
expect 2 "$refused" "plot -o foreign" "$C" plot run1 --quiet -o f
intact "plot" f
expect 2 "$refused" "xcheck -o foreign" "$C" xcheck "$xw" --guest-trace "$fx" --no-plots --quiet -o f
intact "xcheck" f

# the issue's case: -o "$PWD" with the workload and foreign files in it
mkdir -p here && cp w.json here/ && echo precious > here/notes.txt
(cd here && expect 2 "is or holds the input" "sweep -o \$PWD" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' --duration 1 --quiet -o "$PWD")
(cd here && expect 2 "" "run -o ." "$C" run w.json --duration 1 --quiet -o .)
if [ -f here/w.json ] && [ "$(cat here/notes.txt)" = precious ] &&
   [ ! -e here/.capsim-output ] && [ ! -e here/trace.txt ]; then
	ok "sweep/run -o \$PWD: the workload and notes.txt survive"
else
	bad "sweep/run -o \$PWD changed it: $(ls -A here | tr '\n' ' ')"
fi
# an output that would replace its own input
expect 2 "is or holds the input" "plot RUN -o RUN" "$C" plot run1 --quiet -o run1
[ -s run1/summary.json ] && [ -s run1/trace.txt ] && ok "plot RUN -o RUN: the run is intact" ||
	bad "plot RUN -o RUN: the run lost files"
expect 2 "is or holds the input" "compare -o the workload's directory" "$C" compare here/w.json --duration 1 --quiet --no-plots -o here

# not a directory: a file, a FIFO, a device node, an empty path
echo keep > afile
mkfifo afifo
expect 2 "exists and is not a directory" "compare -o a file" "$C" compare w.json --duration 1 --quiet --no-plots -o afile
expect 2 "exists and is not a directory" "sweep -o a FIFO" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' --duration 1 --quiet -o afifo
expect 2 "exists and is not a directory" "run -o a FIFO" "$C" run w.json --duration 1 --quiet -o afifo
expect 2 "" "compare -o ''" "$C" compare w.json --duration 1 --quiet --no-plots -o ""
if [ "$(id -u)" = 0 ] && mknod achar c 1 3 2>/dev/null; then
	expect 2 "exists and is not a directory" "plot -o a device node" "$C" plot run1 --quiet -o achar
	[ -c achar ] && ok "the device node is still one" || bad "the device node was replaced"
fi
[ "$(cat afile)" = keep ] && [ -p afifo ] && ok "the file and the FIFO are untouched" ||
	bad "the file or the FIFO was replaced"
# a symbolic link to a directory: written through by run, never replaced
mkdir real && ln -s real link
expect 2 "is a symbolic link" "compare -o a symlink" "$C" compare w.json --duration 1 --quiet --no-plots -o link
[ -L link ] && ok "the symlink is still a symlink" || bad "the symlink was replaced"

# what capsim wrote is capsim's to replace; an empty directory is free
mkdir empty
expect 0 "" "compare -o an empty directory" "$C" compare w.json --duration 1 --quiet --no-plots -o empty
expect 0 "" "compare again over its own output" "$C" compare w.json --duration 1 --quiet --no-plots -o empty
grep -q '^command: capsim compare w.json' empty/.capsim-output &&
	ok "the marker names the command" || bad "marker: $(cat empty/.capsim-output)"
[ -f empty/rfc/.capsim-output ] && [ -s empty/rfc/summary.json ] &&
	ok "each policy's run directory is marked" || bad "no marker in empty/rfc"
expect 0 "" "run -o over a run" "$C" run w.json --duration 1 --quiet -o run1
# a user's file added inside capsim's output goes with it, as documented
expect 0 "" "sweep -o a fresh subdirectory of a foreign one" "$C" sweep w.json --set 'tasks.fg_touch.run=1000,2000' --duration 1 --quiet -o f/sweep
intact "sweep into f/sweep" f

# Two runs into one -o at once: each directory holds one run's files,
# never one run's trace beside the other's summary (the lock)
mixed=0
i=0
while [ $i -lt 15 ]; do
	rm -rf pair
	"$C" run w.json --duration 1 --quiet -o pair 2>/dev/null &
	a=$!
	"$C" run w.json --duration 2 --quiet -o pair 2>/dev/null &
	b=$!
	wait $a; ra=$?
	wait $b; rb=$?
	if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
		bad "concurrent runs: exit $ra and $rb"
		break
	fi
	n=$(grep -vc '^#' pair/trace.txt)
	s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace_entries"])' pair/summary.json)
	[ "$n" = "$s" ] || mixed=$((mixed + 1))
	i=$((i + 1))
done
[ $mixed -eq 0 ] && ok "15 pairs of concurrent runs: trace and summary always of one run" ||
	bad "$mixed of 15 pairs mixed two runs' files"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

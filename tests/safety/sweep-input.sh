#!/bin/sh
# Issue 23: sweep and compare inputs. `sweep --collect` checks every file
# it reads (a point.json without "policy" and a summary task whose name is
# null were SIGSEGV) and names a point whose directory is gone (was exit
# 0); sweep points keep their traces only with --keep-traces; compare's
# --help names the policies it runs. (The --set bounds and the usage
# errors are rows of tests/badinput/rows-sweep.sh.)
# Usage: sweep-input.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# expect LABEL STATUS MESSAGE COMMAND...: the exit status and a line of
# stderr, no crash
expect() {
	label=$1 want=$2 msg=$3
	shift 3
	timeout -s KILL 60 "$@" >out 2>err
	rc=$?
	if [ $rc -ne "$want" ]; then
		bad "$label: exit status $rc, expected $want: $(head -c 300 err)"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" err; then
		bad "$label: no \"$msg\" in: $(head -c 300 err)"
	else
		ok "$label"
	fi
}

printf '%s' '{ "global": { "duration": 0.02 }, "tasks": { "t": { "run": 1000, "sleep": 1000 } } }' >w.json
if ! "$W" sweep w.json --set 'tasks.t.run=500,1000' --policies rfc,none \
	--quiet -o base 2>err; then
	bad "the base sweep failed: $(head -c 300 err)"
	echo "$pass passed, $fail failed"
	exit 1
fi

# the points keep no trace by default; --collect does not need one
n=$(find base/points -name trace.txt | wc -l)
s=$(find base/points -name summary.json | wc -l)
if [ "$n" -eq 0 ] && [ "$s" -eq 4 ]; then
	ok "sweep points keep summary.json, not trace.txt, by default"
else
	bad "sweep points: $n trace.txt and $s summary.json, expected 0 and 4"
fi
"$W" sweep w.json --set 'tasks.t.run=500,1000' --policies rfc --keep-traces \
	--quiet -o kept 2>err
n=$(find kept/points -name trace.txt -size +0 | wc -l)
[ "$n" -eq 2 ] && ok "--keep-traces keeps each point's trace.txt" ||
	bad "--keep-traces: $n trace.txt, expected 2: $(head -c 300 err)"
expect "--collect of a sweep without traces" 0 "" "$W" sweep --collect base --quiet

# a copy of the base sweep, edited by EDIT (a python-free jq-free sed)
edited() {
	rm -rf "$1"
	cp -r base "$1"
}

edited nopolicy
sed -i 's/"policy": "[a-z]*",//' nopolicy/points/0002/point.json
expect "--collect: point.json without policy (was SIGSEGV)" 2 \
	"capsim: nopolicy/points/0002/point.json: policy: a string, not missing" \
	"$W" sweep --collect nopolicy
[ ! -e nopolicy/sweep.csv.tmp ] && ! ls nopolicy/.sweep.csv.tmp* >/dev/null 2>&1 ||
	bad "--collect of a bad point left a temporary file"

edited nullname
# the first task's "name": "t" becomes null
sed -i '0,/"name": "t"/s//"name": null/' nullname/points/0003/run/summary.json
grep -q '"name": null' nullname/points/0003/run/summary.json ||
	bad "the test could not null the task name"
expect "--collect: a summary task with a null name (was SIGSEGV)" 2 \
	"capsim: nullname/points/0003/run/summary.json: tasks[0].name: a string, not null" \
	"$W" sweep --collect nullname

edited badplan
printf '{ "params": [], "points": 1e300 }' >badplan/sweep.json
expect "--collect: sweep.json with an absurd point count" 2 \
	"capsim: badplan/sweep.json: points: an integer, not a real" \
	"$W" sweep --collect badplan

edited fifo
rm fifo/points/0001/run/summary.json
mkfifo fifo/points/0001/run/summary.json
expect "--collect: a FIFO for a summary (not read, no hang)" 2 \
	"fifo/points/0001/run/summary.json: cannot read: not a regular file" \
	"$W" sweep --collect fifo

edited missing
rm -r missing/points/0002
expect "--collect: a point directory deleted (was exit 0)" 1 \
	"capsim: sweep point points/0002 is missing (missing/sweep.json plans it)" \
	"$W" sweep --collect missing --quiet
if grep -q '^2,.*,missing,' missing/sweep.csv 2>/dev/null &&
	[ "$(grep -c ',ok,' missing/sweep.csv)" -eq 3 ]; then
	ok "--collect: the missing point's row says missing, the others ok"
else
	bad "--collect: sweep.csv rows: $(cat missing/sweep.csv 2>&1 | head -c 400)"
fi

expect "--collect --metric that is no column" 2 \
	"capsim: --metric t.nope is not a sweep.csv column" \
	"$W" sweep --collect base --metric t.nope

# compare: --help names the policies a compare without --policies runs
list=$("$W" compare --help | tr -d '\n' | sed -n 's/.*this build simulates: \([a-z,]*\)).*/\1/p')
"$W" compare w.json --no-plots --quiet -o cmp 2>err
ran=$(grep -o '^  "[a-z]*": {' cmp/compare.json 2>/dev/null | tr -d ' ":{' | sort | tr '\n' ',')
want=$(printf '%s\n' "$list" | tr ',' '\n' | sort | tr '\n' ',')
if [ -n "$list" ] && [ "$ran" = "$want" ]; then
	ok "compare --help's default policies ($list) are the ones it runs"
else
	bad "compare --help says \"$list\", it ran \"$ran\": $(head -c 300 err)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

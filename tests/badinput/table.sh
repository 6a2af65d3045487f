#!/bin/sh
# The bad-input table (issue 15): every row feeds the real command line a
# bad or absurd input and checks, each a failure of the row:
#   - the exit status (2: bad input or usage; 1: run error; 0: accepted),
#   - the message, with its file:line:column where it applies,
#   - that nothing was written (the row's directory is as it was),
#   - a wall-time bound (timeout) and a memory bound (prlimit --as, or
#     ASan's hard_rss_limit_mb in sanitizer builds, whose shadow memory
#     rules out an address-space limit).
# Usage: table.sh CAPSIM CAPSIM_REPLAY SRCDIR SANITIZE
set -u
W=${1:?usage: table.sh CAPSIM CAPSIM_REPLAY SRCDIR SANITIZE}
R=${2:?}
SRC=${3:?}
SAN=${4:-none}
# the rows run in directories of their own: absolute paths
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
W=$(abs "$W")
R=$(abs "$R")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$SRC/tests/bounded.sh"
pass=0 fail=0

# A fresh, empty directory for the next row's inputs; the row runs in it
fresh() {
	rm -rf "$tmp/c"
	mkdir "$tmp/c"
	cd "$tmp/c" || exit 1
}

# row NAME STATUS MESSAGE SECONDS MEGABYTES COMMAND...
row() {
	name=$1 want=$2 msg=$3 secs=$4 mb=$5
	shift 5
	ls -A >"$tmp/before"
	run_bounded "$SAN" "$secs" "$mb" "$@"
	ls -A >"$tmp/after"
	why=
	if [ $rc -eq 137 ]; then
		why="exceeded $secs s"
	elif [ $rc -ne "$want" ]; then
		why="exit status $rc, expected $want"
	elif [ -n "$msg" ] && ! cat "$tmp/err" "$tmp/out" | grep -qF -- "$msg"; then
		why="message \"$msg\" not found"
	elif ! cmp -s "$tmp/before" "$tmp/after"; then
		why="wrote $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name: $why; stderr:"
		head -c 600 "$tmp/err"
		echo
	fi
}

# workload TEXT: w.json with TEXT (printf %s, no trailing newline added)
workload() {
	printf '%s' "$1" >w.json
}

T='"tasks": { "t": { "run": 1000, "sleep": 1000 } }'
G='"global": { "duration": 0.01 }'

fresh; workload '{ "tasks": { "t": { "run": 10'
row "truncated JSON" 2 "w.json:1:29: error: '}' expected near end of file" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": "soon", "sleep": 1 } } }'
row "wrong type (string for an integer)" 2 'w.json:1:28: error: tasks.t.run: "soon" is not an integer: allowed [0, 3600000000]' 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": -5, "sleep": 1 } } }'
row "negative run" 2 "w.json:1:28: error: tasks.t.run: -5 is out of range: allowed [0, 3600000000]" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": 1e30, "sleep": 1 } } }'
row "huge real for an integer" 2 "w.json:1:28: error: tasks.t.run: 1e30 is not an integer: allowed [0, 3600000000]" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": 99999999999999999999, "sleep": 1 } } }'
row "integer beyond 64 bits" 2 "w.json:1:47: error: too big integer near '99999999999999999999'" 10 256 $W run w.json -o out/x

for d in 1e308 1e12 1e-300 1e9; do
	fresh; workload "{ \"global\": { \"duration\": $d }, $T }"
	row "duration $d" 2 "w.json:1:27: error: global.duration: " 10 256 $W run w.json -o out/x
	grep -qF "out of range: allowed -1 or 0 (until the tasks end), or seconds in [1e-06, 1e+06]" "$tmp/err" ||
		{ fail=$((fail + 1)); echo "FAIL duration $d: no allowed range"; }
done

fresh; workload "{ \"global\": { \"duration\": NaN }, $T }"
row "NaN literal" 2 "w.json:1:29: error: invalid token near 'NaN'" 10 256 $W run w.json -o out/x

fresh; workload "{ \"global\": { \"duration\": Infinity }, $T }"
row "Infinity literal" 2 "w.json:1:34: error: invalid token near 'Infinity'" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "policy": "SCHED_FAST", "run": 1, "sleep": 1 } } }'
row "unknown policy" 2 'w.json:1:31: error: tasks.t.policy: unknown policy "SCHED_FAST": allowed SCHED_OTHER' 10 256 $W run w.json -o out/x

fresh; workload "{ \"capsim\": { \"policy\": \"fast\" }, $G, $T }"
row "unknown capsim policy" 2 'w.json:1:25: error: capsim.policy: allowed "rfc", "none" or "uclamp"' 10 256 $W run w.json -o out/x

fresh; workload "{ $G, $T }"
row "unknown --policy" 2 'capsim: unknown policy "fast": allowed rfc, none, uclamp' 10 256 $W run w.json --policy fast -o out/x

fresh; workload '{ "capsim": { "taskgroups": { "/a/../a": { "capacity_max": 10 } } }, "tasks": { "t": { "run": 1, "sleep": 1 } } }'
row "cyclic group (/a/../a)" 2 'w.json:1:42: error: capsim.taskgroups["/a/../a"]: "/a/../a" is not a group path ("/name/sub"): "." and ".." are not group names' 10 256 $W run w.json -o out/x

fresh; workload '{ "capsim": { "events": [ { "at_ms": 5, "group": "/nope", "capacity_max": 10 } ] }, "global": { "duration": 1 }, "tasks": { "t": { "run": 1, "sleep": 1 } } }'
row "missing group" 2 "w.json:1:75: error: capsim.events[0].capacity_max: group /nope is neither declared in capsim.taskgroups nor used by a task" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { } }'
row "empty task list" 2 'w.json:1:12: error: tasks: "tasks" must be a non-empty object of threads' 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": 1, "timer": { "ref": "a", "period": 0 } } } }'
row "zero timer period" 2 "w.json:1:64: error: tasks.t.timer.period: 0 is out of range: allowed [1, 3600000000]" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "run": 1, "timer": { "ref": "a", "period": -10 } } } }'
row "negative timer period" 2 "w.json:1:64: error: tasks.t.timer.period: -10 is out of range" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "policy": "SCHED_DEADLINE", "dl-runtime": 10, "dl-period": 0, "run": 1 } } }'
row "zero dl-period" 2 "w.json:1:80: error: tasks.t.dl-period: 0 is out of range: allowed [1, 3600000000]" 10 256 $W run w.json -o out/x

fresh; printf '%s' '{ "name": "p", "cpus": [ { "id": 0, "capacity": 1024, "domain": 0 } ], "domains": [ { "id": 0, "cpus": [0], "opps": [] } ] }' >p.json
row "platform with no OPPs" 2 './p.json:1:117: error: domains[0].opps: "opps" must be a non-empty array of {khz, capacity, power_mw}' 10 256 $W validate ./p.json

# a domain's name names it in the plots: a string or nothing
fresh; printf '%s' '{ "name": "p", "cpus": [ { "id": 0, "capacity": 1024, "domain": 0 } ], "domains": [ { "id": 0, "name": 7, "cpus": [0], "opps": [ { "khz": 1, "capacity": 1024, "power_mw": 1 } ] } ] }' >p.json
row "platform domain name not a string" 2 './p.json:1:104: error: domains[0].name: 7: a string is expected (as silver, gold)' 10 256 $W validate ./p.json

fresh; printf '%s' '{ "name": "p", "cpus": [ { "id": 0, "capacity": 1024, "domain": 0 }, { "id": 0, "capacity": 1024, "domain": 0 } ], "domains": [ { "id": 0, "cpus": [0, 0], "opps": [ { "khz": 1, "capacity": 1024, "power_mw": 1 } ] } ] }' >p.json
row "duplicate CPU ids" 2 "./p.json:1:70: error: cpus[1]: CPU ids must be 0..1 in order (found 0 at index 1)" 10 256 $W validate ./p.json

fresh; { printf '{ "tasks": { "t": { "run": 1, "sleep": 1, "policy": "'; head -c 10000000 /dev/zero | tr '\0' 'x'; printf '" } } }'; } >w.json
row "10 MB string" 2 'w.json:1:53: error: tasks.t.policy: unknown policy "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: allowed' 20 512 $W run w.json -o out/x
[ "$(wc -c <"$tmp/err")" -lt 1000 ] || { fail=$((fail + 1)); echo "FAIL 10 MB string: a long message"; }

fresh; awk 'BEGIN { printf "{ \"tasks\": { \"t\": { \"run\": "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; printf " } } }" }' >w.json
row "nesting 100 000 deep" 2 "w.json:1:2073: error: maximum parsing depth reached near '['" 10 256 $W run w.json -o out/x

fresh; printf '{ "tasks": { "t": { "run": 1,\000 "sleep": 1 } } }' >w.json
row "NUL byte" 2 "w.json: error: not a text file (NUL byte)" 10 256 $W run w.json -o out/x

fresh; printf '{ "tasks": { "t\377": { "run": 1, "sleep": 1 } } }' >w.json
row "invalid UTF-8" 2 "w.json:1:15: error: unable to decode byte 0xff" 10 256 $W run w.json -o out/x
grep -q "$(printf '\377')" "$tmp/err" && { fail=$((fail + 1)); echo "FAIL invalid UTF-8: raw byte in the message"; }

fresh; workload "{ $G, $T }"
row "--duration 1e12" 2 "capsim: --duration needs seconds in [1e-06, 1e+06]: 1e12" 10 256 $W run w.json --duration 1e12 -o out/x

fresh; workload "{ $G, $T }"
row "--duration 1e-12 (not rounded to unset)" 2 "capsim: --duration needs seconds in [1e-06, 1e+06]: 1e-12" 10 256 $W run w.json --duration 1e-12 -o out/x

fresh; workload "{ \"global\": { \"duration\": 1000000000000 }, $T }"
row "duration 10^12 s" 2 "w.json:1:27: error: global.duration: 1000000000000 is out of range" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "instance": 1000000000, "run": 1, "sleep": 1 } } }'
row "instance 10^9" 2 "w.json:1:33: error: tasks.t.instance: 1000000000 is out of range: allowed [0, 1024]" 10 256 $W run w.json -o out/x

fresh; awk 'BEGIN { printf "{ \"tasks\": {"; for (i = 0; i < 300; i++) printf "%s\"t%d\": { \"instance\": 1024, \"run\": 1, \"sleep\": 1 }", i ? ", " : " ", i; printf " } }" }' >w.json
row "instances in all over the limit" 2 "w.json:1:12: error: tasks: 307200 task instances in all: allowed at most 262144 (the simulator's limit)" 10 256 $W run w.json -o out/x

fresh; workload '{ "global": { "duration": 1 }, "tasks": { "t": { "loop": -1, "run": 0 } } }'
row "loop -1 without a sleep" 2 "w.json:1:48: error: tasks.t: loops over events that take no simulated time" 10 256 $W run w.json -o out/x

# tasks that loop together without time passing (fuzz-sim found it: a
# hang): the validator cannot see it, the run stops with the loopers named
fresh; cp "$SRC/tests/fuzz/regressions/sim/livelock-barrier-yield-fifo.json" w.json
row "tasks looping together in no time" 1 "error: no simulated time passes: 1048577 events at 0.001200 s, waking consumer-0, consumer-1, consumer-2" 20 512 $W run w.json --duration 0.05 -o out/x

fresh; workload '{ "tasks": { "t": { "util_min": 900, "util_max": 100, "run": 1, "sleep": 1 } } }'
row "util_min > util_max" 2 "w.json:1:33: error: tasks.t.util_min: util_min 900 is above util_max 100: allowed util_min <= util_max" 10 256 $W run w.json -o out/x

fresh; workload "{ $G, $T }"
row "unwritable -o" 2 "capsim: cannot create /proc/capsim-out: No such file or directory" 10 256 $W run w.json -o /proc/capsim-out

fresh; workload "{ $G, $T }"; : >afile
row "file-valued -o" 2 "capsim: afile exists and is not a directory" 10 256 $W run w.json -o afile

fresh; workload "{ $G, $T }"; : >afile
row "-o under a file" 2 "capsim: cannot create afile/x: Not a directory" 10 256 $W run w.json -o afile/x

fresh; workload "{ $G, $T }"
row "-o ''" 2 "capsim: -o needs a directory, not an empty path" 10 256 $W run w.json -o ''

fresh; awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "group /g%d\n", i; print "range 0" }' >g.ops
row "op log with 10^6 groups" 0 "" 60 512 $R g.ops
grep -qx "cpu=0 min=0 max=1024" "$tmp/out" || { fail=$((fail + 1)); echo "FAIL op log with 10^6 groups: no answer"; }

fresh; printf 'group /a\ngroup /a/..\n' >g.ops
row "op log group /a/.." 2 'g.ops:2:7: "." and ".." are not group names' 10 256 $R g.ops

fresh; workload "{ \"capsim\": { \"platform\": \"/dev/zero\" }, $G, $T }"
row "capsim.platform /dev/zero" 2 "/dev/zero: error: cannot read: not a regular file (allowed: a regular file of at most 64 MiB)" 10 256 $W run w.json -o out/x

fresh; workload "{ $G, $T }"; mkfifo fifo.json
row "FIFO platform" 2 "fifo.json: error: cannot read: not a regular file" 10 256 $W run w.json --platform ./fifo.json -o out/x

fresh; workload "{ $G, $T }"
row "binary file as platform" 2 "/bin/sh: error: not a text file (NUL byte)" 10 256 $W run w.json --platform /bin/sh -o out/x

fresh; workload "{ $G, $T }"
row "non-JSON file as platform" 2 "/etc/passwd:1:1: error: not a JSON object (the first character is not '{')" 10 256 $W run w.json --platform /etc/passwd -o out/x

fresh; workload "{ $G, $T }"; truncate -s 65M big.json
row "platform file over 64 MiB" 2 "big.json: error: cannot read: larger than an input file may be" 10 256 $W run w.json --platform ./big.json -o out/x

fresh
row "directory as workload" 2 ".: error: cannot read: not a regular file" 10 256 $W run . -o out/x

fresh; { printf '{ "name": "dup", "cpus": [ { "id": 0, "capacity": 1024, "domain": 0 } ], "domains": ['; awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%s{ \"id\": 0, \"cpus\": [0], \"opps\": [ { \"khz\": 1, \"capacity\": 1024, \"power_mw\": 1 } ] }", i ? "," : "" }'; printf '] }'; } >p.json
row "3 000 duplicate domain ids" 2 "... and 2899 more errors and 0 more warnings" 10 256 $W validate ./p.json

fresh; awk 'BEGIN { printf "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": { \"run\": 1, \"sleep\": 1"; for (i = 0; i < 200000; i++) printf ", \"k%d\": 0", i; printf " } } }" }' >w.json
row "200 000 unknown keys" 0 "... and 0 more errors and 199900 more warnings" 20 512 $W validate w.json

fresh; awk 'BEGIN { printf "{ \"capsim\": { \"taskgroups\": { \""; for (i = 0; i < 60000; i++) printf "/a"; printf "\": { \"capacity_max\": 10 } } }, \"tasks\": { \"t\": { \"run\": 1, \"sleep\": 1 } } }" }' >w.json
row "120 KB group path" 2 "longer than the kernel's PATH_MAX (4096 with its NUL)" 10 256 $W run w.json -o out/x

fresh; workload "{ \"tasks\": { \"t\": { \"taskgroup\": \"/..\", \"run\": 1, \"sleep\": 1 } } }"
row "group /.." 2 'w.json:1:34: error: tasks.t.taskgroup: "/.." is not a group path' 10 256 $W run w.json -o out/x

fresh; awk 'BEGIN { printf "{ \"global\": { \"duration\": 1 }, \"tasks\": {"; for (i = 0; i < 10000; i++) printf "%s\"t%d\": { \"run\": 100, \"timer\": { \"ref\": \"r%d\", \"period\": 10000 } }", i ? ", " : " ", i, i; printf " } }" }' >w.json
# the parse takes ~25 MB and 0.3 s; the rest is sim_create()'s per-task
# timer state (the simulator's scaling, issue 10), about 0.7 GB today
row "validate 10 000 tasks with their own timers" 0 "w.json: ok: workload w, 10000 tasks" 60 2048 $W validate w.json

fresh; workload '{ "tasks": { "t": { "run": 1, "sleep": 1 } } /* never closed'
row "unterminated comment" 2 "w.json:1:46: error: unterminated /* comment" 10 256 $W run w.json -o out/x

fresh; workload '[ { "tasks": {} } ]'
row "top level not an object" 2 "w.json:1:1: error: not a JSON object (the first character is not '{')" 10 256 $W run w.json -o out/x

fresh; : >w.json
row "empty file" 2 "w.json:1:1: error: '[' or '{' expected near end of file" 10 256 $W run w.json -o out/x

fresh
row "missing workload" 2 "nope.json: error: cannot read: No such file or directory" 10 256 $W run nope.json -o out/x

fresh; workload '{ "global": { "duration": 1 }, "tasks": { "t": { "cpus": [7], "run": 1, "sleep": 1 } } }'
row "CPU beyond the platform" 2 "w.json:1:59: error: tasks.t.cpus[0]: CPU 7 does not exist on platform sym4: allowed [0, 3]" 10 256 $W run w.json -o out/x

fresh; workload '{ "tasks": { "t": { "policy": "SCHED_FIFO", "priority": 150, "run": 1, "sleep": 1 } } }'
row "RT priority 150" 2 "w.json:1:57: error: tasks.t.priority: 150 is out of range for SCHED_FIFO: allowed [1, 99]" 10 256 $W run w.json -o out/x

# capsim.chains: strict keys, tasks that exist, periods in range
CT='"tasks": { "ui": { "run": 1000, "resume": "render", "timer": { "ref": "vsync", "period": 16667 } }, "render": { "suspend": "render", "run": 1000 } }'
fresh; workload '{ '"$CT"', "capsim": { "chains": { "frame": { "tasks": ["ui"], "period_us": 16667, "strat": "vsync" } } } }'
row "unknown chain key" 2 'w.json:1:234: error: capsim.chains.frame.strat: unknown key "strat": did you mean "start"?' 10 256 $W run w.json -o out/x
fresh; workload '{ '"$CT"', "capsim": { "chains": { "frame": { "tasks": ["ui", "rendr"], "period_us": 16667, "start": "vsync" } } } }'
row "unknown chain task" 2 'w.json:1:204: error: capsim.chains.frame.tasks[1]: no task is named "rendr": did you mean "render"?' 10 256 $W run w.json -o out/x
fresh; workload '{ '"$CT"', "capsim": { "chains": { "frame": { "tasks": ["ui"], "period_us": 5, "start": "vsync" } } } }'
row "chain period out of range" 2 'w.json:1:218: error: capsim.chains.frame.period_us: 5 is out of range: allowed [100, 10000000]' 10 256 $W run w.json -o out/x
fresh; workload '{ '"$CT"', "capsim": { "chains": { "frame": { "tasks": ["ui"], "period_us": 16667, "start": "vsinc" } } } }'
row "chain start neither period nor a timer" 2 'capsim.chains.frame.start: "vsinc" is neither "period" nor the name of a timer a task uses' 10 256 $W run w.json -o out/x

fresh; workload '{ '"$CT"', "capsim": { "chains": { "fr\tame": { "tasks": ["ui"], "period_us": 16667, "start": "vsync" } } } }'
row "chain name with a tab (a CSV field)" 2 "a chain's name must be non-empty, without spaces, dots, commas, quotes or control characters" 10 256 $W run w.json -o out/x

fresh; workload '{ "capsim": { "taskgroups": { "/bg": { "capacity_max": 2000 } } }, "tasks": { "t": { "run": 1, "sleep": 1 } } }'
row "capacity_max 2000" 2 'w.json:1:56: error: capsim.taskgroups["/bg"].capacity_max: 2000 is out of range: allowed [0, 1024]' 10 256 $W run w.json -o out/x

fresh; workload "{ $G, $T }"
row "trace over --max-trace-mb (run error)" 1 "capsim: the trace passed the 1 MiB limit" 60 512 $W run w.json --duration 100000 --max-trace-mb 1 -o out/x

# interrupted SIG: a run stopped by a signal once its outputs exist leaves
# nothing behind, and dies of the signal (status 128 + SIG)
interrupted() {
	sig=$1 num=$2
	fresh; workload "{ $T }"
	ls -A >"$tmp/before"
	# a background job starts with SIGINT ignored, which capsim keeps
	env --default-signal="$sig" $W run w.json --duration 100000 -o out/x \
		--quiet 2>"$tmp/err" &
	pid=$!
	n=0
	while ! ls out/x/.trace.txt.* >/dev/null 2>&1 && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	ls -A >"$tmp/after"
	if [ $n -ge 100 ]; then
		fail=$((fail + 1)); echo "FAIL $sig mid-run: the run never started writing"
	elif [ $rc -ne $((128 + num)) ]; then
		fail=$((fail + 1)); echo "FAIL $sig mid-run: exit status $rc, expected $((128 + num))"
	elif ! cmp -s "$tmp/before" "$tmp/after"; then
		fail=$((fail + 1)); echo "FAIL $sig mid-run: left $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
	else
		pass=$((pass + 1)); echo "ok   $sig mid-run leaves nothing"
	fi
}
interrupted TERM 15
interrupted INT 2
interrupted HUP 1

# A closed or full standard output: the run table is lost, which is an
# error (status 1, said on stderr); the outputs, committed before the
# table is printed, are whole (the row writes them outside its directory).
fresh; workload "{ $G, $T }"
row "closed stdout (run error, outputs whole)" 1 "capsim: standard output is closed" 10 256 \
	sh -c "exec $W run w.json -o '$tmp/kept1' >&-"
row "stdout on /dev/full (run error)" 1 "capsim: error writing to standard output: No space left on device" 10 256 \
	sh -c "exec $W run w.json -o '$tmp/kept2' >/dev/full"
for k in kept1 kept2; do
	if [ -s "$tmp/$k/trace.txt" ] && [ "$(tail -c 2 "$tmp/$k/summary.json")" = "}" ]; then
		pass=$((pass + 1)); echo "ok   $k: trace.txt and summary.json whole"
	else
		fail=$((fail + 1)); echo "FAIL $k: the outputs are not whole"
	fi
done
row "closed stdout with --quiet (nothing to lose)" 0 "" 10 256 \
	sh -c "exec $W run w.json --quiet -o '$tmp/kept3' >&-"

# A full disk (a 256 KiB tmpfs, where this runs as root): the run and a
# sweep fail with the writer's error and leave nothing in it. Each of the
# sweep's points writes a trace larger than the disk, so none finishes:
# whether the disk fills in a run or while the next point's files are made,
# nothing is kept (one finished point would keep DIR, for --resume).
full=$tmp/full
mkdir "$full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
	fresh; workload "{ $T }"
	row "full disk: run" 1 "capsim: error writing the" 20 512 \
		$W run w.json --duration 5 -o "$full/run"
	row "full disk: sweep" 1 "; nothing written" 60 512 \
		$W sweep w.json --set 'tasks.t.run=500,1000,2000' --duration 20 \
		--keep-traces --quiet -o "$full/sweep"
	if [ -z "$(ls -A "$full")" ]; then
		pass=$((pass + 1)); echo "ok   full disk: nothing left on it"
	else
		fail=$((fail + 1)); echo "FAIL full disk: left $(ls -A "$full" | tr '\n' ' ')"
	fi
	umount "$full"
else
	echo "skip full disk rows: not root, or no tmpfs mount here"
fi

# Rows kept by area beside this file (issue 23: sweep, trace, outputs),
# each a list of fresh/row calls like the ones above.
for rows in "$SRC"/tests/badinput/rows-*.sh; do
	[ -f "$rows" ] || continue
	. "$rows"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

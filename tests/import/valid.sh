#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every workload capsim import writes is one capsim takes, and the import
# is bounded (issue 36 items 3, 4 and 6; meson test --suite import):
#   groups    cap_clamp_write paths from a hostile trace, the issue's nine
#             (a space, "..", "//", a control byte, a quote, 60 kB, a
#             duplicate, min > max, a \xff byte): each a workload
#             `capsim validate` takes, or exit 2 with the trace's
#             FILE:LINE:COL and nothing written; a group first written
#             inside the window (the what-if demo's own trace) is
#             declared for its events
#   names     comms x, x, x-1000 give 3 tasks (x-1000-2, x-1001, x-1000),
#             said by --explain; a 20 kB comm is cut to the kernel's 15
#             bytes, counted and said, and --tasks on it is quick; a
#             back-reference in --tasks is a usage error
#   outputs   --platform FILE: capsim.platform the file's absolute path,
#             read back (a file named as another embedded platform, one
#             named as none); the workload valid UTF-8 whatever the
#             trace's bytes; --explain prints no control byte;
#             import-check.md keeps a comm's '|' inside its cell; -o ''
#             exit 2; --check conflicts found before W.json is written;
#             --window past the end names the trace's last event
#   bounded   10^5 tasks (bench/gen_import_trace.py, comms two by two)
#             import with every task its own, uniquely named, and
#             validate; 2 x 10^5 import folded (bounded by the test's
#             timeout); 5 000 imported with --check compare every task
#             within 512 MB; no timing asserted here
#             (bench/bench_import_scale.sh measures)
# usage: valid.sh CAPSIM SRCDIR CASE [SANITIZE]
set -u
capsim=$1 src=$2 case=$3 san=${4:-none}
case $capsim in /*) ;; *) capsim=$PWD/$capsim ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/capsim-import-valid.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# trace OUT [LINE...]: a task woken and run six times on CPU 0 (2 ms every
# 10 ms from 1.00 s), the LINEs (event text) at 1.000000 s before it
trace() {
	out=$1
	shift
	{ echo '# tracer: nop'
	  echo '  <idle>-0 [000] 1.000000: cpu_frequency: state=2500000 cpu_id=0'
	  for l in "$@"; do
		printf '  <idle>-0 [000] 1.000000: %s\n' "$l"
	  done
	  for i in 0 1 2 3 4 5; do
		echo "  <idle>-0 [000] 1.0${i}0000: sched_wakeup: comm=app pid=100 prio=120 target_cpu=000"
		echo "  <idle>-0 [000] 1.0${i}0000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 next_prio=120"
		[ "$i" = 0 ] && echo "  app-100 [000] 1.000000: cap_clamp_enqueue: pid=100 group=1"
		echo "  app-100 [000] 1.0${i}2000: sched_switch: prev_comm=app prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	  done; } >"$out"
}

cw() {	# ID PATH MIN MAX: a successful write of group ID
	echo "cap_clamp_write: group=$1 path=$2 attr=capacity_max value=$4 ret=0 min=$3 max=$4"
}

valid() {	# WHAT FILE: `capsim validate` takes FILE
	"$capsim" validate "$2" >"$dir/v.out" 2>&1 ||
		{ cat "$dir/v.out"; fail "$1: capsim validate refuses the import"; }
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$2" ||
		fail "$1: not valid UTF-8"
}

# imports WHAT TRACE WANT_PATH: the import, valid, with WANT_PATH a group
imports() {
	"$capsim" import "$2" -o "$dir/w.json" --explain >"$dir/explain" 2>"$dir/err" ||
		{ cat "$dir/err"; fail "$1: import refused it"; }
	valid "$1" "$dir/w.json"
	grep -qF "\"$3\": { \"capacity_min\"" "$dir/w.json" ||
		fail "$1: no group $3 in $(grep -A3 taskgroups "$dir/w.json")"
	echo "ok: $1: group $3, a workload capsim validate takes"
	rm -f "$dir/w.json"
}

# refused WHAT TRACE MESSAGE: exit 2 with MESSAGE (FILE:LINE:COL), nothing
# written
refused() {
	"$capsim" import "$2" -o "$dir/w.json" >/dev/null 2>"$dir/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$dir/err"; fail "$1: exit $rc, want 2"; }
	grep -qF -- "$3" "$dir/err" || { cat "$dir/err"; fail "$1: no \"$3\""; }
	[ ! -e "$dir/w.json" ] && ! ls "$dir"/.capsim-import.* 2>/dev/null ||
		fail "$1: something written"
	echo "ok: $1: $(head -c 160 "$dir/err")"
}

case $case in
groups)
	t=$dir/t.txt
	trace "$t" "$(cw 1 '/a b' 0 256)"; imports "a space" "$t" /a_b
	trace "$t" "$(cw 1 /a/.. 0 256)"
	refused "'..'" "$t" "t.txt:3:58: error: group 1's path /a/..: \".\" and \"..\" name no cgroup"
	trace "$t" "$(cw 1 //a//b/ 0 256)"; imports "'//'" "$t" /a/b
	trace "$t" "$(cw 1 "/a$(printf '\001')b" 0 256)"; imports "a control byte" "$t" /a_b
	trace "$t" "$(cw 1 '/a"b' 0 256)"; imports "a quote" "$t" /a_b
	trace "$t" "$(cw 1 "/$(head -c 60000 /dev/zero | tr '\0' a)" 0 256)"
	refused "60 kB" "$t" "t.txt:3:58: error: group 1's path /aaaa"
	trace "$t" "$(cw 1 /dup 0 256)" "$(cw 2 /dup 0 512)"
	imports "a path two groups share" "$t" /dup-2
	grep -qF '"taskgroup": "/dup"' "$dir/explain" ||
		grep -q 'group: /dup$' "$dir/explain" || fail "the first /dup is not the task's"
	trace "$t" "$(cw 1 /bad 900 100)"
	refused "min > max" "$t" "t.txt:3:101: error: group /bad: a successful write leaves capacity_min 900 above capacity_max 100"
	trace "$t" "$(cw 1 "/a$(printf '\377')" 0 256)"; imports "a \\xff byte" "$t" /a_
	grep -q "the trace's /a\\\\xff made one capsim takes" "$dir/explain" ||
		fail "--explain does not say /a\\xff became /a_"
	echo "ok: --explain says /a\\xff became /a_"
	# the parent narrower than its child at the window's start: no kernel
	trace "$t" "$(cw 1 /p 0 256)" "$(cw 2 /p/c 0 1024)"
	refused "a child wider than its parent" "$t" "t.txt:4:58: error: group /p/c: its range [0, 1024] at the window's start is not within its ancestor /p's [0, 256]"
	# the what-if demo's own trace: /bg first written at 4 s, inside
	"$capsim" run "$src/traces/whatif-bg-cap.json" --duration 5 -o "$dir/r" \
		--quiet 2>/dev/null || fail "the demo's run"
	"$capsim" import "$dir/r/trace.txt" -o "$dir/bg.json" || fail "demo import"
	valid "a group first written inside the window" "$dir/bg.json"
	grep -qF '"/bg": {}' "$dir/bg.json" && grep -qF '"group": "/bg", "capacity_max": 1024' "$dir/bg.json" ||
		fail "/bg not declared for its write at 4 s"
	echo "ok: a group first written inside the window: declared, its write kept"
	;;
names)
	{ echo '# tracer: nop'
	  echo '  <idle>-0 [000] 1.000000: cpu_frequency: state=2500000 cpu_id=0'
	  prev=swapper/0 ppid=0 st=R ts=1.000000
	  for t in x:1000:1.010000 x:1001:1.020000 x-1000:1002:1.030000 \
		   "$(head -c 20000 /dev/zero | tr '\0' a):1003:1.040000"; do
		c=${t%%:*} r=${t#*:} p=${r%%:*} next=${r#*:}
		echo "  <idle>-0 [000] $ts: sched_wakeup: comm=$c pid=$p prio=120 target_cpu=000"
		echo "  $prev-$ppid [000] $ts: sched_switch: prev_comm=$prev prev_pid=$ppid prev_prio=120 prev_state=$st ==> next_comm=$c next_pid=$p next_prio=120"
		prev=$c ppid=$p st=S ts=$next
	  done
	  echo "  a-1003 [000] $ts: sched_switch: prev_comm=$prev prev_pid=$ppid prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	  echo "  <idle>-0 [000] 1.100000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	} >"$dir/n.txt"
	"$capsim" import "$dir/n.txt" -o "$dir/n.json" --explain >"$dir/explain" 2>"$dir/err" ||
		{ cat "$dir/err"; fail "names: import"; }
	valid names "$dir/n.json"
	"$capsim" validate "$dir/n.json" | grep -q ", 4 tasks," ||
		fail "names: not 4 tasks: $("$capsim" validate "$dir/n.json")"
	for n in x-1000-2 x-1001 x-1000 aaaaaaaaaaaaaaa; do
		grep -q "^    \"$n\": {" "$dir/n.json" || fail "names: no task $n"
	done
	grep -q "^x-1000-2: pid 1000 comm x" "$dir/explain" &&
	grep -q "COMM-PID is another task's name: -2 added" "$dir/explain" ||
		fail "names: --explain does not say why x-1000-2"
	echo "ok: comms x, x, x-1000: tasks x-1000-2, x-1001, x-1000, said by --explain"
	grep -q "note: 1 task had a comm longer than the kernel's 15 bytes (TASK_COMM_LEN 16 with its NUL): cut to 15 (19985 bytes dropped" "$dir/err" &&
	grep -q "comm: cut at the kernel's 15 bytes (TASK_COMM_LEN 16 with its NUL): 19985 bytes dropped" "$dir/explain" ||
		{ cat "$dir/err"; fail "a 20 kB comm: not cut and said"; }
	echo "ok: a 20 kB comm cut to 15 bytes, 19985 bytes dropped said"
	timeout 30 "$capsim" import "$dir/n.txt" -o "$dir/n2.json" \
		--tasks '^(a|aa)*$' 2>/dev/null || fail "--tasks on a cut comm"
	grep -q '"aaaaaaaaaaaaaaa": {' "$dir/n2.json" && ! grep -q '"x-1001"' "$dir/n2.json" ||
		fail "--tasks did not select the cut comm alone"
	echo "ok: --tasks matches the cut comm"
	"$capsim" import "$dir/n.txt" -o "$dir/n3.json" --tasks '^(a*)*\1b$' 2>"$dir/err"
	[ $? -eq 2 ] && grep -q "back-reference" "$dir/err" && [ ! -e "$dir/n3.json" ] ||
		fail "--tasks with a back-reference: not a usage error"
	printf 'ok: %s\n' "$(head -1 "$dir/err")"
	;;
outputs)
	trace "$dir/t.txt"
	# a platform file named as another embedded platform, one as none
	sed 's/"name": *"sym4"/"name": "juno-r0"/' "$src/traces/platforms/sym4.json" >"$dir/fake-juno.json"
	sed 's/"name": *"sym4"/"name": "my-board"/' "$src/traces/platforms/sym4.json" >"$dir/board.json"
	for p in fake-juno board; do
		(cd "$dir" && "$capsim" import t.txt -o "w-$p.json" --platform "$p.json") ||
			fail "--platform $p.json"
		real=$(cd "$dir" && pwd -P)/$p.json
		grep -qF "\"platform\": \"$real\"" "$dir/w-$p.json" ||
			fail "--platform $p.json: capsim.platform is $(grep '"platform"' "$dir/w-$p.json")"
		# read back from another directory: the same 4-CPU platform
		(cd / && "$capsim" validate "$dir/w-$p.json") | grep -q "on $(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' "$dir/$p.json" | head -1)" ||
			fail "--platform $p.json: not read back"
	done
	"$capsim" import "$dir/t.txt" -o "$dir/w-e.json" --platform juno-r0 &&
		grep -qF '"platform": "juno-r0"' "$dir/w-e.json" || fail "--platform juno-r0"
	echo "ok: --platform FILE: capsim.platform its absolute path, read back; an embedded name as it is"
	# bytes of the trace's path in the header comment: valid UTF-8
	cp "$dir/t.txt" "$dir/t$(printf '\377\033').txt"
	"$capsim" import "$dir/t$(printf '\377\033').txt" -o "$dir/w-u.json" ||
		fail "a trace path with \\xff"
	valid "a trace path with \\xff and ESC" "$dir/w-u.json"
	echo "ok: a trace path with \\xff and ESC: valid UTF-8 JSON"
	# --explain: no control byte of a comm reaches the terminal
	sed 's/comm=app/comm=a\x1b[2Jb/; s/next_comm=app/next_comm=a\x1b[2Jb/' "$dir/t.txt" >"$dir/esc.txt"
	"$capsim" import "$dir/esc.txt" -o "$dir/w-esc.json" --explain >"$dir/explain" ||
		fail "a comm with ESC"
	! grep -q "$(printf '\033')" "$dir/explain" && grep -qF 'comm a\x1b[2Jb' "$dir/explain" ||
		fail "--explain printed a raw ESC"
	echo "ok: --explain escapes a comm's ESC as \\x1b"
	# import-check.md: a comm's '|' stays in its cell
	sed 's/comm=app/comm=a|b/; s/next_comm=app/next_comm=a|b/' "$dir/t.txt" >"$dir/bar.txt"
	"$capsim" import "$dir/bar.txt" -o "$dir/w-bar.json" --check "$dir/ck" \
		--no-plots >/dev/null || fail "--check of a comm with '|'"
	grep -qF '| a\|b | ' "$dir/ck/import-check.md" ||
		fail "import-check.md: $(grep 'a.b' "$dir/ck/import-check.md")"
	echo "ok: import-check.md: a comm's '|' escaped in its cell"
	# -o '': a usage error
	"$capsim" import "$dir/t.txt" -o '' 2>"$dir/err"
	[ $? -eq 2 ] && grep -q "empty path" "$dir/err" || fail "-o '': $(cat "$dir/err")"
	echo "ok: -o '': exit 2"
	# --check conflicts, found before W.json is written
	mkdir "$dir/tgt" && ln -s tgt "$dir/cklink"
	"$capsim" import "$dir/t.txt" -o "$dir/w-l.json" --check "$dir/cklink" 2>"$dir/err"
	[ $? -eq 2 ] && [ ! -e "$dir/w-l.json" ] && [ -z "$(ls -A "$dir/tgt")" ] ||
		fail "--check a symlink: $(cat "$dir/err")"
	"$capsim" import "$dir/t.txt" -o "$dir/ckd/w.json" --check "$dir/ckd" 2>"$dir/err"
	[ $? -eq 2 ] && [ ! -e "$dir/ckd" ] || fail "--check DIR holding -o: $(cat "$dir/err")"
	mkdir "$dir/ckd"
	"$capsim" import "$dir/t.txt" -o "$dir/ckd/w.json" --check "$dir/ckd" 2>"$dir/err"
	[ $? -eq 2 ] && [ -z "$(ls -A "$dir/ckd")" ] || fail "--check DIR holding -o (DIR there)"
	echo "ok: --check a symlink or holding -o: exit 2 before W.json is written"
	# --window past the end: the trace's last event (0.052 s), for a
	# closed window too
	for w in 5:6 5:; do
		"$capsim" import "$dir/t.txt" -o "$dir/w-w.json" --window $w 2>"$dir/err"
		[ $? -eq 2 ] && grep -qF "after the trace's last event (0.052000 s from its start)" "$dir/err" ||
			fail "--window $w: $(cat "$dir/err")"
	done
	echo "ok: --window past the end names the trace's last event"
	;;
bounded)
	python3 "$src/bench/gen_import_trace.py" 100000 "$dir/big.txt" --dup ||
		fail "the generator"
	"$capsim" import "$dir/big.txt" -o "$dir/big.json" --min-busy 0 ||
		fail "10^5 tasks: import"
	"$capsim" validate "$dir/big.json" | grep -q ", 100000 tasks," ||
		fail "10^5 tasks: not all imported, or not valid"
	# 50 000 comms shared by two pids each: COMM-PID, all distinct
	[ "$(grep -c '^    "w[0-9]*-[0-9]*": {' "$dir/big.json")" = 100000 ] ||
		fail "10^5 tasks: not each COMM-PID"
	echo "ok: 10^5 tasks (comms two by two): 10^5 distinct COMM-PID, valid"
	# 2 x 10^5, folded into the background: named all the same; bounded
	# by this test's timeout alone (comparing every pair of names took
	# 257 s at 10^5 on the machine of bench/bench_import_scale.sh, ~4x
	# that here)
	python3 "$src/bench/gen_import_trace.py" 200000 "$dir/big.txt" --dup ||
		fail "the generator"
	"$capsim" import "$dir/big.txt" -o "$dir/big.json" >/dev/null ||
		fail "2 x 10^5 tasks: import"
	valid "2 x 10^5 tasks folded" "$dir/big.json"
	echo "ok: 2 x 10^5 tasks folded into the background: valid"
	# --check of 5 000 tasks within 512 MB (one regular expression
	# alternating every name took 1.6 GB)
	python3 "$src/bench/gen_import_trace.py" 5000 "$dir/mid.txt" || fail "gen"
	tmp=$dir
	. "$src/tests/bounded.sh"
	run_bounded "$san" 300 512 "$capsim" import "$dir/mid.txt" \
		-o "$dir/mid.json" --min-busy 0 --check "$dir/mck" --no-plots
	[ $rc -eq 0 ] || { cat "$dir/err"; fail "5 000 tasks with --check: exit $rc within 512 MB"; }
	grep -q "5000 tasks" "$dir/out" || fail "5 000 tasks: $(cat "$dir/out")"
	echo "ok: 5 000 tasks with --check within 512 MB: every task compared"
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "PASS: $case"

#!/bin/sh
# Host tests of the in-guest runner (kernel/guest): plans of every workload
# in the repo under each policy, the group write order, the parser's
# positioned errors, a real run against a scratch cgroup root (locks,
# barriers, timers, conditions, suspend/resume), and the trace replay on
# good and corrupted traces. Usage: runner.sh CAPSIM_RUN SRCDIR
run=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0 nfail=0
ok() { echo "ok: $*"; npass=$((npass + 1)); }
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
check() { n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
export CAPSIM_CGROOT=$tmp/cg CAPSIM_TRACE_MARKER=/dev/null

# every workload file parses and plans, under every policy
for w in "$src"/traces/*.json "$src"/kernel/guest/examples/*.json; do
	for p in rfc uclamp none; do
		if "$run" plan --policy $p "$w" > "$tmp/plan" 2> "$tmp/err"; then
			ok "plan $p $(basename "$w")"
		else
			bad "plan $p $(basename "$w"): $(head -3 "$tmp/err")"
		fi
	done
done

hog=$src/kernel/guest/examples/capped-hog.json
"$run" plan "$hog" > "$tmp/rfc"
"$run" plan --policy uclamp "$hog" > "$tmp/ucl"
"$run" plan --policy none "$hog" > "$tmp/none"
check "rfc: the group cap goes to cpu.capacity_max" grep -qx "write $tmp/cg/bg/cpu.capacity_max 256" "$tmp/rfc"
check "rfc: the timed change" grep -qx "capsim-run: event at_ms=1500 group=/bg capacity_max=1024 OK" "$tmp/rfc"
check "uclamp: the same cap as a percentage" grep -qx "write $tmp/cg/bg/cpu.uclamp.max 25.00" "$tmp/ucl"
check "uclamp: the timed change as a percentage" grep -qx "write $tmp/cg/bg/cpu.uclamp.max 100.00" "$tmp/ucl"
check "none: no clamp written" sh -c "! grep -q 'cpu\.\(capacity\|uclamp\)' '$tmp/none'"
check "the hog joins /bg, pinned to CPU 1" sh -c "grep -qx 'write $tmp/cg/bg/cgroup.procs 0' '$tmp/rfc' && grep -qx 'hog: affinity 1' '$tmp/rfc'"

# parents are created and set before their children exist
cat > "$tmp/tree.json" <<'J'
{ "global": { "duration": 1 },
  "tasks": { "t": { "taskgroup": "/a/b", "run": 1000, "sleep": 1000 } },
  "capsim": { "taskgroups": { "/a/b": { "capacity_max": 256 },
                              "/a": { "capacity_max": 512 } } } }
J
"$run" plan "$tmp/tree.json" > "$tmp/tree"
la=$(grep -n "^write $tmp/cg/a/cpu.capacity_max 512" "$tmp/tree" | cut -d: -f1)
lb=$(grep -n "^mkdir $tmp/cg/a/b\$" "$tmp/tree" | head -1 | cut -d: -f1)
check "parent set (line $la) before its child is made (line $lb)" [ -n "$la" ] && [ -n "$lb" ] && [ "$la" -lt "$lb" ]

# the simulator's errors: file:line:column, field, allowed range; exit 2
printf '{ "tasks": {\n  "t": { "run": -5 } } }\n' > "$tmp/bad.json"
"$run" plan "$tmp/bad.json" > /dev/null 2> "$tmp/err"
rc=$?
check "a bad workload exits 2" [ $rc = 2 ]
check "with file:line:column and the range" grep -q "bad.json:2:.*run.*-5" "$tmp/err"
"$run" plan --policy fast "$hog" > /dev/null 2> "$tmp/err"
check "an unknown policy exits 2 naming the allowed ones" sh -c "[ $? = 2 ] && grep -q 'allowed rfc, none, uclamp' '$tmp/err'"

# a real run against a scratch cgroup root
mkdir -p "$tmp/cg"
: > "$tmp/cg/cgroup.procs"
cat > "$tmp/sync.json" <<'J'
{ "global": { "duration": 1 },
  "tasks": {
    "tick": { "cpus": [0], "timer": { "ref": "unique", "period": 10000 }, "run": 500 },
    "pair": { "instance": 2, "lock": "m", "run": 200, "unlock": "m",
              "barrier": "b", "sleep": 2000 },
    "waiter": { "lock": "m2", "wait": { "ref": "c", "mutex": "m2" }, "unlock": "m2", "suspend": "s" },
    "waker": { "sleep": 5000, "lock": "m2", "signal": "c", "unlock": "m2", "resume": "s", "yield": 0 }
  } }
J
start=$(date +%s)
"$run" "$tmp/sync.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
end=$(date +%s)
check "a run with locks, barriers, timers, conditions, suspend/resume ends (rc $rc)" [ $rc = 0 ]
check "it ends at its duration, every instance killed ($((end - start)) s)" [ $((end - start)) -le 3 ]
n=$(grep -c "^capsim-run: task " "$tmp/out")
check "one process per instance (5: $n)" [ "$n" = 5 ]
act=$(grep "^capsim-run: stats" "$tmp/out" | head -1 | sed 's/.*activations=\([0-9]*\).*/\1/')
check "the 10 ms timer fired about 100 times in 1 s ($act)" [ "${act:-0}" -ge 50 ] && [ "${act:-0}" -le 101 ]
[ -s "$tmp/err" ] && cat "$tmp/err"

# the trace replay, through the project's ftrace reader
line() { # EVENT FIELDS
	printf '     capsim-run-42      [000] d..2.     1.000000: %s: %s\n' "$1" "$2"
}
{
	echo "# tracer: nop"
	line cap_clamp_enqueue "cpu=0 pid=42 comm=a b group=1 min=100 max=300 cpu_min=100 cpu_max=300 nr=1 seq=1"
	line cap_clamp_cpu "cpu=0 min=100 max=300 seq=1"
	line cap_clamp_enqueue "cpu=0 pid=43 comm=c group=2 min=0 max=700 cpu_min=100 cpu_max=700 nr=2 seq=2"
	line cap_clamp_update "cpu=0 pid=42 comm=a b group=1 old_min=100 old_max=300 min=0 max=1024 cpu_min=0 cpu_max=1024 nr=2 seq=3"
	line cap_clamp_dequeue "cpu=0 pid=43 comm=c group=2 min=0 max=700 cpu_min=0 cpu_max=1024 nr=1 seq=4"
	line cap_clamp_dequeue "cpu=0 pid=42 comm=a b group=1 min=0 max=1024 cpu_min=0 cpu_max=1024 nr=0 seq=5"
} > "$tmp/good.txt"
"$run" replay "$tmp/good.txt" > "$tmp/out" 2>&1
check "replay: a consistent trace passes" [ $? = 0 ]
check "replay: every op checked" grep -q "ops=5 checked=5 cpus=1 mismatches=0" "$tmp/out"
sed 's/cpu_min=100 cpu_max=700 nr=2 seq=2/cpu_min=100 cpu_max=300 nr=2 seq=2/' "$tmp/good.txt" > "$tmp/wrong.txt"
"$run" replay "$tmp/wrong.txt" > "$tmp/out" 2>&1
check "replay: a wrong range fails" [ $? = 1 ]
check "replay: naming CPU, seq and both ranges" grep -q "cpu0 seq 2: kernel \[100,300\] nr=2, replay \[100,700\] nr=2" "$tmp/out"
sed 's/ seq=4$/ seq=x4/' "$tmp/good.txt" > "$tmp/junk.txt"
"$run" replay "$tmp/junk.txt" > "$tmp/out" 2>&1
check "replay: a malformed field fails with file:line" sh -c "[ $? = 1 ] && grep -q 'junk.txt:6: a field is missing or not a number' '$tmp/out'"

echo "$npass passed, $nfail failed"
[ $nfail = 0 ]

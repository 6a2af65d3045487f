#!/bin/sh
# capsim platform infer (src/trace/platform_infer.c): the platform a trace
# shows, checked against the platform the trace was made on, and the
# refusals. Usage: platform-infer.sh CAPSIM SRCDIR
set -u
C=$(readlink -f "${1:?usage: platform-infer.sh CAPSIM SRCDIR}")
SRC=$(readlink -f "${2:?usage: platform-infer.sh CAPSIM SRCDIR}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# compare.py INFERRED TRUE TRACE: the inferred file against the true
# platform: the same CPUs, domains and capacities (when the trace has
# capacity events), every OPP an OPP of the true domain and every
# frequency the trace shows among the OPPs
cat > compare.py <<'PY'
import json, re, sys
inf, true = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want_caps = sys.argv[4] == 'caps'
seen = {}
for line in open(sys.argv[3]):
    m = re.search(r'cpu_frequency: state=(\d+) cpu_id=(\d+)', line)
    if m:
        seen.setdefault(int(m.group(2)), set()).add(int(m.group(1)))
errs = []
if len(inf['cpus']) != len(true['cpus']):
    errs.append('%d CPUs, want %d' % (len(inf['cpus']), len(true['cpus'])))
doms = lambda p: sorted(sorted(d['cpus']) for d in p['domains'])
if doms(inf) != doms(true):
    errs.append('domains %s, want %s' % (doms(inf), doms(true)))
if want_caps:
    got = [c['capacity'] for c in inf['cpus']]
    want = [c['capacity'] for c in true['cpus']]
    if got != want:
        errs.append('capacities %s, want %s' % (got, want))
tdom = {c: d for d in true['domains'] for c in d['cpus']}
for d in inf['domains']:
    khz = [o['khz'] for o in d['opps']]
    real = {o['khz'] for o in tdom[d['cpus'][0]]['opps']}
    shown = set().union(*(seen.get(c, set()) for c in d['cpus']))
    if set(khz) - real:
        errs.append('OPPs %s not in the platform' % sorted(set(khz) - real))
    if set(khz) != shown:
        errs.append('OPPs %s, the trace shows %s' % (khz, sorted(shown)))
    caps = [o['capacity'] for o in d['opps']]
    if caps != sorted(caps) or caps[-1] != inf['cpus'][d['cpus'][0]]['capacity']:
        errs.append('OPP capacities %s' % caps)
if 'ASSUMED' not in inf['source'] and 'SYNTHETIC' not in inf['source']:
    errs.append('source names no assumption: %r' % inf['source'])
print('; '.join(errs))
sys.exit(1 if errs else 0)
PY

for pl in sym4 juno-r0 sd855; do
	"$C" platform show "$pl" > "$pl.json"
	"$C" run "$SRC/traces/game.json" --platform "$pl" --duration 2 \
		--trace-signals --quiet -o "run-$pl" || { bad "run on $pl"; continue; }
	if ! "$C" platform infer "run-$pl/trace.txt" --name "inf-$pl" \
		-o "inf-$pl.json" 2>log; then
		bad "$pl: infer exited $?: $(cat log)"
	elif out=$(python3 compare.py "inf-$pl.json" "$pl.json" \
		"run-$pl/trace.txt" caps); then
		ok "$pl: CPUs, domains, capacities and the OPPs the trace shows"
	else
		bad "$pl: $out"
	fi
	# the inferred file is a platform capsim runs
	if "$C" run "$SRC/traces/game.json" --platform "./inf-$pl.json" \
		--duration 1 --quiet -o "again-$pl" 2>log; then
		ok "$pl: a workload runs on the inferred platform"
	else
		bad "$pl: the inferred platform does not run: $(head -3 log)"
	fi
done

# without capacity events: by top frequency, said in the source
"$C" run "$SRC/traces/game.json" --platform sd855 --duration 2 --quiet \
	-o plain >/dev/null
"$C" platform infer plain/trace.txt > plain.json 2>/dev/null
if python3 compare.py plain.json sd855.json plain/trace.txt nocaps >log &&
   grep -q 'ASSUMED by each domain.s top frequency' plain.json &&
   python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))
top = {c: d["opps"][-1]["khz"] for d in p["domains"] for c in d["cpus"]}
want = [round(1024 * top[c] / max(top.values())) for c in sorted(top)]
sys.exit([c["capacity"] for c in p["cpus"]] != want)' plain.json
then
	ok "sd855 without capacity events: capacities by top frequency, stated"
else
	bad "sd855 without capacity events: $(cat log)"
fi

# a real board: the LISA Juno capture's two clusters
if "$C" platform infer "$SRC/tests/fixtures/traces/juno/lisa-trace.txt" \
	> juno.json 2>/dev/null && python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))
sys.exit(sorted(sorted(d["cpus"]) for d in p["domains"]) != [[0, 3, 4, 5], [1, 2]])' juno.json
then
	ok "Juno capture: domains {0,3-5} and {1-2}"
else
	bad "Juno capture: $(head -c 300 juno.json)"
fi

# refusals: exit 2, nothing written, nothing replaced
printf '# tracer: nop\n' > empty.txt
"$C" platform infer empty.txt >out 2>log
[ $? -eq 2 ] && [ ! -s out ] && grep -q 'no event names a CPU' log &&
	ok "a trace without events: exit 2" || bad "empty trace: $(cat log)"
echo keep > exists.json
"$C" platform infer plain/trace.txt -o exists.json 2>log
[ $? -eq 2 ] && [ "$(cat exists.json)" = keep ] &&
	ok "an existing -o: exit 2, kept" || bad "existing -o: $(cat log)"
echo victim > victim
ln -s victim link.json
"$C" platform infer plain/trace.txt -o link.json 2>log
[ $? -eq 2 ] && [ "$(cat victim)" = victim ] &&
	ok "-o a symbolic link: exit 2, its target kept" || bad "-o link: $(cat log)"
"$C" platform infer plain/trace.txt --name 'a"b' >out 2>log
[ $? -eq 2 ] && [ ! -s out ] && ok "--name with a quote: exit 2" ||
	bad "--name quote: $(cat log)"
"$C" platform infer plain/trace.txt -o '' 2>log
[ $? -eq 2 ] && ok "-o '': exit 2" || bad "-o '': $(cat log)"
ls ./*.tmp-* >/dev/null 2>&1 && bad "a temporary file was left" ||
	ok "no temporary file left"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

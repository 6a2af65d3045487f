#!/bin/sh
# Perfetto protobuf read as every other form (src/trace/perfetto_reader.h):
#  1. the forms' capture (tests/fixtures/traces/capture.txt) as Perfetto,
#     the committed capture.pftrace (ProcessTree, compact_sched) and made
#     here full, compact and deflate-compressed (tests/trace/to_perfetto.py,
#     stdlib Python, the wire format only): the same normalized events (count and digest
#     of trace_events' sorted stream), the same `capsim plot` data, the
#     same `capsim import` workload and `capsim import-check` report (but
#     for the trace's name); a guest fixture's import the same too;
#  2. a real capture (tests/fixtures/traces/perfetto: systing's, 22 CPUs,
#     compact_sched only) plots, imports, and its import-check's source
#     side has, per task, the busy time, activations and pids of an
#     independent reading (tests/trace/pftrace_sched.py);
#  3. the file is found by its bytes, whatever its name.
# Usage: perfetto.sh TRACE_EVENTS CAPSIM SRCDIR
set -u
EV=${1:?usage: perfetto.sh TRACE_EVENTS CAPSIM SRCDIR}
W=${2:?}
SRC=${3:?}
F=$SRC/tests/fixtures/traces
TP=$SRC/tests/trace/to_perfetto.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

digest() {
	"$EV" "$1" > "$tmp/ev" || { echo "FAIL: trace_events $1 exit $?"; return 1; }
	echo "$(wc -l < "$tmp/ev") $(sort "$tmp/ev" | sha256sum | cut -c1-16)"
}

# same_import REF GOT PLATFORM WHAT: import and import-check of both
same_import() {
	for t in "$1" "$2"; do
		b=$tmp/$(basename "$t")
		if ! "$W" import "$t" -o "$b.json" --platform "$3" > "$b.ilog" 2>&1; then
			echo "FAIL: import $4 $(basename "$t"): $(head -3 "$b.ilog")"
			fail=1
			return
		fi
		rm -rf "$b.ic"
		if ! "$W" import-check "$t" "$tmp/$(basename "$1").json" -o "$b.ic" \
		     --platform "$3" --no-plots --quiet > "$b.clog" 2>&1; then
			echo "FAIL: import-check $4 $(basename "$t"): $(head -3 "$b.clog")"
			fail=1
			return
		fi
		# the trace's name is the one difference allowed
		tail -n +2 "$b.json" > "$b.body"
		grep -v '"source_trace"' "$b.ic/import-check.json" > "$b.icj"
		grep -v "$(basename "$t")" "$b.ic/import-check.md" > "$b.icm"
	done
	a=$tmp/$(basename "$1") b=$tmp/$(basename "$2")
	if ! cmp -s "$a.body" "$b.body"; then
		echo "FAIL: $4: the import differs from the text's:"
		diff "$a.body" "$b.body" | head -6
		fail=1
	elif ! cmp -s "$a.icj" "$b.icj" || ! cmp -s "$a.icm" "$b.icm"; then
		echo "FAIL: $4: import-check differs from the text's:"
		diff "$a.icj" "$b.icj" | head -6
		fail=1
	else
		echo "ok: $4: the same import and import-check"
	fi
}

# 1. capture.txt as Perfetto
ref=$(digest "$F/capture.txt")
"$W" plot "$F/capture.txt" --platform juno-r0 -o "$tmp/p-ref" --quiet ||
	{ echo "FAIL: plot capture.txt"; exit 1; }
python3 "$TP" "$F/capture.txt" "$tmp/full.pftrace" &&
python3 "$TP" --compact --drain-ms 3 "$F/capture.txt" "$tmp/compact.pftrace" &&
python3 "$TP" --compact --compress "$F/capture.txt" "$tmp/compressed.pftrace" ||
	{ echo "FAIL: to_perfetto.py capture.txt"; exit 1; }
for t in "$F/capture.pftrace" "$tmp/full.pftrace" "$tmp/compact.pftrace" \
	 "$tmp/compressed.pftrace"; do
	form=$(basename "$t")
	got=$(digest "$t")
	if [ "$got" != "$ref" ]; then
		echo "FAIL: $form: $got, capture.txt $ref"
		fail=1
	fi
	if ! "$W" plot "$t" --platform juno-r0 -o "$tmp/p-$form" --quiet; then
		echo "FAIL: plot $form exit $?"
		fail=1
	elif ! diff -r "$tmp/p-ref/data" "$tmp/p-$form/data" >/dev/null; then
		echo "FAIL: plot $form: its data differ from capture.txt's:"
		diff -r "$tmp/p-ref/data" "$tmp/p-$form/data" | head -5
		fail=1
	else
		echo "ok: $form: $got (events, digest), the same plot data"
	fi
done
"$EV" --count "$F/capture.pftrace" | grep -q '(Perfetto protobuf)$' ||
	{ echo "FAIL: capture.pftrace not read as Perfetto"; fail=1; }
same_import "$F/capture.txt" "$F/capture.pftrace" juno-r0 capture.pftrace
G=$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt
python3 "$TP" --compact --process-tree "$G" "$tmp/bg-hog.pftrace" &&
	same_import "$G" "$tmp/bg-hog.pftrace" sym4 "sym4-bg-hog-rfc-clamp as Perfetto"

# 3. found by its bytes: any name, no extension
cp "$F/capture.pftrace" "$tmp/capture.txt"
if [ "$(digest "$tmp/capture.txt")" = "$ref" ]; then
	echo "ok: a Perfetto trace named .txt is read as Perfetto"
else
	echo "FAIL: a Perfetto trace named .txt"
	fail=1
fi

# what the trace says it lost: a bundle's lost_events, a packet dropped
# on its sequence (the flag on a sequence's first packet is no loss)
python3 "$SRC/tests/badinput/pftrace.py" lost "$tmp/lost.pftrace"
got=$("$EV" --count "$tmp/lost.pftrace")
if [ "$got" = "3 events (Perfetto protobuf), 2 lost" ]; then
	echo "ok: losses counted: $got"
else
	echo "FAIL: a trace that lost events: $got (want 3 events, 2 lost)"
	fail=1
fi

# a real phone's capture by traced (atrace markers only): every print
# read, as many as an independent count finds, no loss in it
A=$F/perfetto/android-atrace.pftrace
want=$(python3 "$SRC/tests/trace/pftrace_sched.py" --prints "$A")
got=$("$EV" --count "$A")
if [ "$got" = "$want events (Perfetto protobuf)" ] && [ "$want" -gt 1000 ] &&
   [ "$("$EV" "$A" | grep -vc ' tracing_mark_write$')" = 0 ]; then
	echo "ok: android-atrace.pftrace: $got, the independent count, 0 lost"
else
	echo "FAIL: android-atrace.pftrace: $got, independent count $want"
	fail=1
fi

# 2. a real capture: systing's, beside an independent reading
R=$F/perfetto/systing.pftrace
cat > "$tmp/sym22.json" <<'EOF'
{ "name": "sym22", "description": "22 equal CPUs: systing's capture (no frequency in it)",
  "cpus": [
EOF
i=0
while [ $i -lt 22 ]; do
	sep=,; [ $i -eq 21 ] && sep=
	echo "    { \"id\": $i, \"capacity\": 1024, \"domain\": 0 }$sep" >> "$tmp/sym22.json"
	i=$((i + 1))
done
cat >> "$tmp/sym22.json" <<'EOF'
  ],
  "domains": [ { "id": 0, "cpus": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21],
      "transition_latency_us": 0, "rate_limit_us": 1000,
      "opps": [ { "khz": 1000000, "capacity": 512, "power_mw": 100 },
                { "khz": 2000000, "capacity": 1024, "power_mw": 400 } ] } ],
  "idle": [ { "name": "WFI", "power_mw": 1, "exit_latency_us": 1, "target_residency_us": 1 } ]
}
EOF
if ! "$W" plot "$R" -o "$tmp/p-real" --quiet > "$tmp/real.log" 2>&1; then
	echo "FAIL: plot systing.pftrace: $(head -3 "$tmp/real.log")"
	fail=1
elif ! "$W" import "$R" -o "$tmp/real.json" --platform "$tmp/sym22.json" > "$tmp/real.log" 2>&1 ||
     ! "$W" import-check "$R" "$tmp/real.json" -o "$tmp/real.ic" \
	 --platform "$tmp/sym22.json" --no-plots --quiet > "$tmp/real.log" 2>&1; then
	echo "FAIL: import / import-check systing.pftrace: $(head -3 "$tmp/real.log")"
	fail=1
else
	python3 "$SRC/tests/trace/pftrace_sched.py" --json "$R" > "$tmp/ind.json"
	python3 - "$tmp/ind.json" "$tmp/real.ic/import-check.json" <<'EOF' || fail=1
import json, sys
ind = json.load(open(sys.argv[1]))
cap = {t['name']: t['source'] for t in json.load(open(sys.argv[2]))['tasks']
       if t['source']}
bad = n = 0
for name, (busy, acts, pids) in sorted(ind['tasks'].items()):
    c = cap.get(name[:15])
    n += 1
    # import-check writes busy_s to 9 significant digits
    if (c is None or abs(c['busy_s'] * 1e9 - busy) > max(1, busy * 1e-8) or
            c['activations'] != acts or c['pids'] != pids):
        bad += 1
        print('FAIL: systing.pftrace: %s: independent %d ns, %d activations,'
              ' %d pids; capsim %s' % (name, busy, acts, pids, c))
busy = sum(v[0] for v in ind['tasks'].values()) / 1e9
acts = sum(v[1] for v in ind['tasks'].values())
if bad or n < 100:
    print('FAIL: systing.pftrace: %d of %d tasks differ' % (bad, n))
    sys.exit(1)
print('ok: systing.pftrace: %d tasks, %.6f s busy, %d activations: the '
      'independent reading\'s, task by task' % (n, busy, acts))
EOF
fi
exit $fail

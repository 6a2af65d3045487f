#!/bin/sh
# Names from a workload in capsim's CSV outputs (src/base/escape.c): a
# comma in a task name keeps the columns of activations.csv, a name that
# a spreadsheet would run as a formula gets its apostrophe, in
# activations.csv and chains.csv alike, read back by Python's csv module
# (an independent RFC 4180 reader).
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

cat > w.json <<'JSON'
{
  "global": { "duration": 1 },
  "capsim": {
    "chains": {
      "=2+5": { "tasks": ["=cmd,x", "@render"], "period_us": 16667,
                "start": "vsync" }
    }
  },
  "tasks": {
    "=cmd,x": { "run": 2000, "resume": "@render",
                "timer": { "ref": "vsync", "period": 16667 } },
    "@render": { "suspend": "@render", "run": 3000 }
  }
}
JSON
if ! "$C" run w.json --quiet -o run >log 2>&1; then
	bad "the workload ran: $(head -3 log)"
else
	ok "a workload with a comma and formula-like names runs"
fi

check() {	# FILE COLUMN WANT...: every row has the header's width and
		# column COLUMN's distinct values are WANT
	python3 - "$@" <<'PY'
import csv, sys
path, col, want = sys.argv[1], sys.argv[2], sorted(sys.argv[3:])
rows = list(csv.reader(open(path, newline='')))
head, body = rows[0], rows[1:]
bad = [r for r in body if len(r) != len(head)]
if bad:
    sys.exit("%s: %d rows of %d fields, the header has %d" %
             (path, len(bad), len(bad[0]), len(head)))
got = sorted({r[head.index(col)] for r in body})
if got != want:
    sys.exit("%s: %s is %r, want %r" % (path, col, got, want))
PY
}
if check run/activations.csv task "'=cmd,x" "'@render" 2>err; then
	ok "activations.csv: the names quoted and guarded, every row whole"
else
	bad "activations.csv: $(cat err)"
fi
if check run/chains.csv chain "'=2+5" 2>err; then
	ok "chains.csv: the chain's name guarded"
else
	bad "chains.csv: $(cat err)"
fi

# a Markdown row keeps its columns when a task's name holds a '|'
cat > p.json <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "a|b": { "run": 1000, "sleep": 1000 } } }
JSON
if ! "$C" compare p.json --plots none -o cmp >log 2>&1; then
	bad "compare of a task a|b: $(head -3 log)"
elif python3 -c '
import re, sys
rows = [l for l in open(sys.argv[1]) if "a\\|b" in l]
cells = {len(re.split(r"(?<!\\)\|", l.strip())) for l in rows}
sys.exit(not rows or cells != {6})' cmp/compare.md; then
	ok "compare.md: the name a|b escaped, its rows of 4 cells"
else
	bad "compare.md: the name a|b breaks its rows: $(grep 'a.*b' cmp/compare.md | head -2)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

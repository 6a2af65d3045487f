#!/bin/sh
# capsim-replay end to end: the hand-checked golden walk, every error case
# (exit status 2 and FILE:LINE in the message), and nothing on stdout after
# the failing line.
set -u
bin=${1:?usage: run-replay-tests.sh CAPSIM_REPLAY SRCDIR}
dir=${2:?}/tests/replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if "$bin" "$dir/basic.ops" >"$tmp/out" 2>"$tmp/err" &&
   cmp -s "$tmp/out" "$dir/basic.expected"; then
	ok "basic.ops matches basic.expected"
else
	bad "basic.ops"; diff "$dir/basic.expected" "$tmp/out"; cat "$tmp/err"
fi

# The same log from stdin gives the same answers.
if "$bin" <"$dir/basic.ops" | cmp -s - "$dir/basic.expected"; then
	ok "stdin input"
else
	bad "stdin input"
fi

grep -v '^#' "$dir/errors.txt" | while IFS='	' read -r where log; do
	printf '%b\n' "$log" >"$tmp/case.ops"
	"$bin" "$tmp/case.ops" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "^$tmp/case.ops:$where" "$tmp/err"; then
		echo "ok   error '$log' -> $(cat "$tmp/err")"
		echo pass >>"$tmp/results"
	else
		echo "FAIL error '$log': rc=$rc, stderr: $(cat "$tmp/err")"
		echo fail >>"$tmp/results"
	fi
done
pass=$((pass + $(grep -c pass "$tmp/results")))
fail=$((fail + $(grep -c fail "$tmp/results")))

# Output stops at the failing line: answers before it, nothing after.
printf 'range 0\nrange 1\nbogus\nrange 2\n' >"$tmp/stop.ops"
"$bin" "$tmp/stop.ops" >"$tmp/out" 2>/dev/null
rc=$?
printf 'cpu=0 min=0 max=1024\ncpu=1 min=0 max=1024\n' >"$tmp/want"
if [ $rc -eq 2 ] && cmp -s "$tmp/out" "$tmp/want"; then
	ok "output stops at the failing line"
else
	bad "output stops at the failing line"
fi

# A NUL byte inside a line is an error, not a silent truncation.
printf 'range 0\000 junk\n' >"$tmp/nul.ops"
if "$bin" "$tmp/nul.ops" >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] &&
   grep -q ':1: NUL byte' "$tmp/err"; then
	ok "NUL byte"
else
	bad "NUL byte"
fi

# Bad options
if "$bin" "$dir/basic.ops" "$dir/basic.ops" >/dev/null 2>&1; [ $? -eq 2 ]; then ok "two files"; else bad "two files"; fi
if "$bin" --cpus 0 /dev/null 2>/dev/null; [ $? -eq 2 ]; then ok "--cpus 0"; else bad "--cpus 0"; fi
if "$bin" --bogus 2>/dev/null; [ $? -eq 2 ]; then ok "unknown option"; else bad "unknown option"; fi
if "$bin" /nonexistent 2>/dev/null; [ $? -eq 2 ]; then ok "missing file"; else bad "missing file"; fi
# --cpus widens the CPU range
if printf 'range 7\n' | "$bin" --cpus 8 | grep -qx 'cpu=7 min=0 max=1024'; then
	ok "--cpus 8"
else
	bad "--cpus 8"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

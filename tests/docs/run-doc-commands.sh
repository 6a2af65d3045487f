#!/bin/sh
# Run every command the docs mark as runnable and check its exit status.
#
# In README.md and docs/*.md, a code block (fenced with ``` or indented by
# four spaces) right after the line
#
#     <!-- runnable -->            every command must exit 0
#     <!-- runnable: exit N -->    every command must exit N
#
# is run one line at a time (a line ending in \ continues; # lines are
# comments) by sh, in a scratch directory holding links to the source
# tree's traces/, plots/, scripts/, tests/ and docs/, and `build` to the
# build directory, so ./build/capsim and out/... work as the docs write
# them and nothing is written in the source tree. Unmarked blocks
# (synopses, output) are left alone.
#
# Usage: run-doc-commands.sh SRCDIR BUILDDIR
set -u
src=$(cd "${1:?usage: run-doc-commands.sh SRCDIR BUILDDIR}" && pwd)
build=$(cd "${2:?usage: run-doc-commands.sh SRCDIR BUILDDIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/capsim-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT
for d in traces plots scripts tests docs; do
	ln -s "$src/$d" "$work/$d"
done
ln -s "$build" "$work/build"

# FILE<TAB>LINE<TAB>EXPECTED<TAB>COMMAND, one per runnable command
extract() {
	awk -v file="$1" '
	function flush() {
		if (cmd != "") printf "%s\t%d\t%d\t%s\n", file, at, want, cmd
		cmd = ""
	}
	function take(line, n) {
		if (cmd == "") {
			if (line ~ /^[ \t]*(#|$)/) return
			at = n
		}
		if (line ~ /\\$/) { cmd = cmd substr(line, 1, length(line) - 1); return }
		cmd = cmd line
		flush()
	}
	/^<!-- runnable(: exit [0-9]+)? -->$/ {
		want = 0
		if (match($0, /exit [0-9]+/)) want = substr($0, RSTART + 5, RLENGTH - 5) + 0
		armed = 1; next
	}
	armed && /^```/ { armed = 0; fenced = 1; next }
	fenced && /^```/ { fenced = 0; flush(); next }
	fenced { take($0, NR); next }
	armed && /^    / { indented = 1 }
	indented && /^    / { take(substr($0, 5), NR); next }
	indented { indented = 0; armed = 0; flush() }
	armed && !/^[ \t]*$/ { armed = 0 }
	' "$1"
}

list=$work/commands
for f in "$src/README.md" "$src"/docs/*.md; do
	extract "$f"
done > "$list"

total=0 bad=0
tab=$(printf '\t')
while IFS="$tab" read -r file line want cmd; do
	total=$((total + 1))
	(cd "$work" && sh -c "$cmd") > "$work/log" 2>&1 < /dev/null
	rc=$?
	rel=${file#"$src"/}
	if [ "$rc" -eq "$want" ]; then
		echo "ok   $rel:$line: $cmd (exit $rc)"
	else
		bad=$((bad + 1))
		echo "FAIL $rel:$line: $cmd: exit $rc, the doc says $want"
		tail -n 5 "$work/log" | sed 's/^/     | /'
	fi
done < "$list"

# the docs must show runnable commands: a test that runs none proves nothing
if [ "$total" -eq 0 ]; then
	echo "FAIL: no <!-- runnable --> block in README.md or docs/*.md"
	exit 1
fi
echo "$((total - bad)) of $total documented commands exit as documented"
[ "$bad" -eq 0 ]

#!/bin/bash
# Generate the patch series from kernel/glue/ and src/core/, without
# touching any work tree: each glue patch is applied to a private index on
# top of the previous commit (the pristine tree first), the core files
# (kernel/core-files) are added to the patch marked "+core" in
# glue/series, and the resulting
# branch "capsim" is exported with git format-patch.
# Usage: gen-series.sh LINUX_GIT_DIR OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
L=$(cd "$1" && pwd) out=$(mkdir -p "$2" && cd "$2" && pwd)
. "$here/tools/gitenv.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_INDEX_FILE=$tmp/index
g() { git -C "$L" "$@"; }
g read-tree pristine
parent=$(g rev-parse pristine)
while read -r p flag; do
	[ -n "$p" ] || continue
	g mailinfo -k "$tmp/msg" "$tmp/patch" < "$here/glue/$p" > "$tmp/info"
	subject=$(sed -n 's/^Subject: //p' "$tmp/info")
	# -k keeps the [PATCH n/m] prefix: drop it
	subject=$(echo "$subject" | sed 's/^\[PATCH[^]]*\] *//')
	g apply --cached "$tmp/patch"
	if [ "${flag:-}" = "+core" ]; then
		grep -v '^#' "$here/core-files" | while read -r src dst; do
			h=$(g hash-object -w "$top/$src")
			g update-index --add --cacheinfo "100644,$h,$dst"
		done
	fi
	tree=$(g write-tree)
	{ echo "$subject"; echo; cat "$tmp/msg"; } > "$tmp/commit-msg"
	parent=$(g commit-tree "$tree" -p "$parent" -F "$tmp/commit-msg")
done < "$here/glue/series"
g update-ref refs/heads/capsim "$parent"
rm -rf "$out"
mkdir -p "$out"
g format-patch -q --zero-commit --no-signature --full-index -o "$out" pristine..capsim

#!/bin/bash
# Developer tool: turn the commits of branch "dev" in build/kernel/linux
# (pristine..dev, one concern per commit) into kernel/glue/: the same
# patches without the core files, which gen-series.sh adds back from
# src/core, and a "series" file listing them in order ("+core" marks the
# patch the core files belong to).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
L=${1:-$here/../build/kernel/linux}
. "$here/tools/gitenv.sh"
mapfile -t core_paths < <(grep -v '^#' "$here/core-files" | cut -d' ' -f2)
rm -f "$here"/glue/*.patch "$here/glue/series"
mkdir -p "$here/glue"
git -C "$L" format-patch -q --zero-commit --no-signature --full-index \
	-o "$here/glue" pristine..dev -- . "${core_paths[@]/#/:!}"
n=0
for c in $(git -C "$L" rev-list --reverse pristine..dev); do
	n=$((n + 1))
	p=$(cd "$here/glue" && ls "$(printf '%04d' $n)"-*.patch)
	if git -C "$L" diff-tree --no-commit-id --name-only -r "$c" | grep -qxF "${core_paths[@]/#/-e}"; then
		echo "$p +core"
	else
		echo "$p"
	fi
done > "$here/glue/series"
cat "$here/glue/series"

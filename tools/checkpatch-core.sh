#!/bin/sh
# Run the Linux 6.12 tree's own scripts/checkpatch.pl over src/core/ and
# fail on any finding. checkpatch.pl and the data files it reads are taken
# from /usr/src/linux-source-6.12.tar.xz into a cache directory.
set -eu
src=$(cd "${1:?usage: checkpatch-core.sh SRCDIR [CACHEDIR]}" && pwd)
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/capsim-checkpatch}
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -f "$tarball" ]; then
	echo "checkpatch-core: $tarball missing (apt-get install linux-source-6.12)" >&2
	exit 77	# meson: skipped
fi
if [ ! -f "$cache/scripts/checkpatch.pl" ]; then
	mkdir -p "$cache"
	tar -xJf "$tarball" -C "$cache" --strip-components=1 \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
fi

files=$(ls "$src"/src/core/*.[ch])
out=$(cd "$cache" && perl scripts/checkpatch.pl --no-tree --terse \
	--show-types -f $files 2>&1) || true
echo "$out"
n=$(printf '%s\n' "$out" | grep -cE ': (ERROR|WARNING|CHECK):' || true)
if [ "$n" -ne 0 ]; then
	echo "checkpatch-core: $n finding(s) in src/core/" >&2
	exit 1
fi
echo "checkpatch-core: $(echo "$files" | wc -w) files clean"

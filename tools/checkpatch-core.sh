#!/bin/sh
# Run the Linux 6.12 tree's own scripts/checkpatch.pl over src/core/ and
# fail on any finding. checkpatch.pl and the data files it reads are taken
# from /usr/src/linux-source-6.12.tar.xz into a cache directory.
set -eu
src=$(cd "${1:?usage: checkpatch-core.sh SRCDIR [CACHEDIR]}" && pwd)
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/capsim-checkpatch}
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -f "$tarball" ]; then
	# on stdout too: meson shows it in the log of the skipped test
	msg="SKIP: checkpatch-core: $tarball is not installed, src/core/ was NOT checked (scripts/deps.sh checkpatch installs it; scripts/test does)"
	echo "$msg"
	echo "$msg" >&2
	exit 77	# meson: skipped
fi
if [ ! -f "$cache/scripts/checkpatch.pl" ]; then
	mkdir -p "$cache"
	tar -xJf "$tarball" -C "$cache" --strip-components=1 \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
fi

# One run per file: each must end with checkpatch's own all-clear line, so
# a checkpatch that fails to run can never pass for a clean one.
status=0
for f in "$src"/src/core/*.[ch]; do
	out=$(cd "$cache" && perl scripts/checkpatch.pl --no-tree --show-types \
		-f "$f" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] ||
	   ! printf '%s\n' "$out" | grep -q '^total: 0 errors, 0 warnings, '; then
		printf '%s\n' "$out"
		echo "checkpatch-core: findings in $f (exit $rc)" >&2
		status=1
	else
		echo "checkpatch-core: $(basename "$f"): $(printf '%s\n' "$out" | grep '^total:')"
	fi
done
exit $status

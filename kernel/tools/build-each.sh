#!/bin/bash
# Build every prefix of the series (patch 1, 1-2, ..., 1-N) in a separate
# worktree and object directory, to show that each patch builds on its own.
# Run after kernel/build.sh. Usage: build-each.sh [FIRST]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
B=${CAPSIM_KBUILD:-$here/../build/kernel}
L=$B/linux W=$B/each O=$B/each-obj
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
first=${1:-1}
[ -d "$W" ] || git -C "$L" worktree add -q --detach "$W" pristine
mkdir -p "$O"
cp "$B/obj/.config" "$O/.config"
n=0
for c in $(git -C "$L" rev-list --reverse pristine..capsim); do
	n=$((n + 1))
	[ $n -lt "$first" ] && continue
	git -C "$W" checkout -q --detach "$c"
	t0=$(date +%s)
	make -s -C "$W" O="$O" olddefconfig >/dev/null
	if make -s -C "$W" O="$O" -j"$JOBS" bzImage >"$O/build-$n.log" 2>&1; then
		echo "patch $n builds ($(( $(date +%s) - t0 )) s): $(git -C "$L" log -1 --format=%s "$c")"
	else
		echo "patch $n FAILS: $(git -C "$L" log -1 --format=%s "$c")"
		tail -20 "$O/build-$n.log"
		exit 1
	fi
done

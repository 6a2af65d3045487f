#!/bin/bash
# Build every prefix of the series (patch 1, 1-2, ..., 1-N) in a separate
# worktree, to show that each patch builds on its own, with the option the
# series adds both on and off: CONFIG_CAPACITY_CLAMPING=y (obj/'s .config,
# objects in each-obj/) and =n (the same .config with the option off,
# objects in each-obj-off/), so that neither a kernel built without the
# feature nor a bisection through the series breaks.
# Run after kernel/build.sh.
#
#   build-each.sh [--on|--off] [FIRST]
#     --on / --off   only that pass (default: both, on first)
#     FIRST          start at prefix FIRST (default 1), e.g. after a fix
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
B=${CAPSIM_KBUILD:-$here/../build/kernel}
L=$B/linux W=$B/each
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
passes="on off"
case ${1:-} in
--on) passes=on; shift ;;
--off) passes=off; shift ;;
-*) echo "build-each: unknown option $1 (--on, --off)" >&2; exit 2 ;;
esac
first=${1:-1}
case $first in ''|*[!0-9]*) echo "build-each: FIRST=$first: a patch number" >&2; exit 2 ;; esac
[ -f "$B/obj/.config" ] || { echo "build-each: no $B/obj/.config: run kernel/build.sh first" >&2; exit 2; }
[ -d "$W" ] || git -C "$L" worktree add -q --detach "$W" pristine

for pass in $passes; do
	if [ "$pass" = on ]; then O=$B/each-obj; want=y; else O=$B/each-obj-off; want=n; fi
	mkdir -p "$O"
	t_pass=$(date +%s)
	n=0
	for c in $(git -C "$L" rev-list --reverse pristine..capsim); do
		n=$((n + 1))
		[ $n -lt "$first" ] && continue
		git -C "$W" checkout -q --detach "$c"
		t0=$(date +%s)
		# obj/'s .config afresh for every prefix: olddefconfig drops the
		# symbols a prefix does not know yet (the driver's, the LISA
		# events'), which a later prefix must get back as obj/ has them
		cp "$B/obj/.config" "$O/.config"
		if [ "$want" = n ]; then
			"$L/scripts/config" --file "$O/.config" --disable CAPACITY_CLAMPING
		fi
		make -s -C "$W" O="$O" olddefconfig >/dev/null
		# the option must be what this pass says, or the pass proves nothing
		got=$(sed -n 's/^CONFIG_CAPACITY_CLAMPING=//p' "$O/.config")
		if [ "$want" = y ] && [ "$got" != y ]; then
			echo "patch $n ($pass): CONFIG_CAPACITY_CLAMPING is '${got}' after olddefconfig, not y" >&2
			exit 1
		fi
		if [ "$want" = n ] && [ -n "$got" ]; then
			echo "patch $n ($pass): CONFIG_CAPACITY_CLAMPING=$got after olddefconfig, not off" >&2
			exit 1
		fi
		subject=$(git -C "$L" log -1 --format=%s "$c")
		if make -s -C "$W" O="$O" -j"$JOBS" bzImage >"$O/build-$n.log" 2>&1; then
			echo "patch $n builds, CAPACITY_CLAMPING=$want ($(( $(date +%s) - t0 )) s): $subject"
		else
			echo "patch $n FAILS, CAPACITY_CLAMPING=$want: $subject"
			tail -20 "$O/build-$n.log"
			exit 1
		fi
	done
	echo "pass CAPACITY_CLAMPING=$want: prefixes $first-$n built in $(( $(date +%s) - t_pass )) s"
done

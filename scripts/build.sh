#!/bin/sh
# Configure (once) and build one meson build directory.
# Usage: scripts/build.sh DIR [meson setup options...]
set -eu
dir=${1:?usage: build.sh DIR [options]}
shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ ! -f "$dir/build.ninja" ]; then
	# A setup that failed half-way leaves meson's own files behind;
	# drop only those (build/kernel/ lives here too).
	rm -rf "$dir/meson-private" "$dir/meson-info" "$dir/meson-logs" \
		"$dir/meson-uninstalled"
	meson setup "$dir" "$@" >/dev/null
fi
ninja -C "$dir" >/dev/null

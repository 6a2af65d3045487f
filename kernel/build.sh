#!/bin/bash
# capsim kernel face: one command from the Debian linux-source-6.12 tarball
# to a bootable bzImage and guest initramfs.
#
#   kernel/build.sh            extract (once), generate the series from
#                              src/core + kernel/glue, check it out, configure
#                              (tinyconfig + kernel/config/capsim.config),
#                              build bzImage and the initramfs
#   kernel/build.sh --update   also rewrite kernel/patches/ from the fresh
#                              generation (after changing glue or src/core)
#   CAPSIM_CLAMP_BACKEND=rbtree|exact kernel/build.sh
#                              that clamp aggregator instead of the
#                              fragment's, in obj-rbtree/ or obj-exact/
#                              (a full build: struct rq and task_struct
#                              embed the core's structures)
#   CAPSIM_KVARIANT=NAME CAPSIM_KCONFIG_EXTRA="F..." kernel/build.sh
#                              the fragment with the overlay files F...
#                              merged in (a symbol an overlay names loses
#                              the fragment's line), in obj-NAME/; e.g. the
#                              benchmark kernels of kernel/tools/overhead.sh
#                              (kernel/config/bench.config, off.config)
#
# Everything lands in build/kernel/ (git-ignored): linux/ is a git repo of
# the pristine tree (tag "pristine") whose branch "capsim" is the series,
# obj/ the kbuild output, series/ the freshly generated patches, guest/ the
# initramfs. Re-running with unchanged sources does no work beyond checks;
# make itself is incremental.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
B=${CAPSIM_KBUILD:-$top/build/kernel}
L=$B/linux
backend=${CAPSIM_CLAMP_BACKEND:-}
variant=${CAPSIM_KVARIANT:-$backend}
extra=${CAPSIM_KCONFIG_EXTRA:-}
if [ -n "$extra" ] && [ -z "${CAPSIM_KVARIANT:-}" ]; then
	echo "kernel/build: CAPSIM_KCONFIG_EXTRA needs CAPSIM_KVARIANT (the obj-NAME directory)" >&2
	exit 2
fi
case $variant in *[!a-z0-9-]*) echo "kernel/build: CAPSIM_KVARIANT=$variant: [a-z0-9-] only" >&2; exit 2 ;; esac
O=$B/obj${variant:+-$variant}
TARBALL=${CAPSIM_KSRC:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
update=0
[ "${1:-}" = --update ] && update=1

log() { echo "kernel/build: $*" >&2; }
now() { date +%s.%N; }
elapsed() { printf '%.1f' "$(echo "$(now) - $1" | bc)"; }
mkdir -p "$B"
: > "$B/times.txt"
stamp_time() { echo "$1 $2" >> "$B/times.txt"; log "$1: $2 s"; }

# ------------------------------------------------------------ host tools
need=()
for c in flex bison bc make gcc cpio gzip qemu-system-x86_64 busybox perl; do
	command -v $c >/dev/null || need+=("$c")
done
[ -e /usr/include/gelf.h ] || need+=(libelf-dev)
[ -e /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
[ -e /usr/include/jansson.h ] || need+=(libjansson-dev)
[ -e "$TARBALL" ] || need+=(linux-source-6.12)
if [ ${#need[@]} -gt 0 ]; then
	pkgs=()
	for n in "${need[@]}"; do
		case $n in
		qemu-system-x86_64) pkgs+=(qemu-system-x86) ;;
		busybox) pkgs+=(busybox-static) ;;
		gcc|make) pkgs+=(build-essential) ;;
		*) pkgs+=("$n") ;;
		esac
	done
	log "installing ${pkgs[*]}"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
# busybox must be the static one: the initramfs has no libc
dpkg -s busybox-static >/dev/null 2>&1 || {
	log "installing busybox-static"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox-static >/dev/null
}

. "$here/tools/gitenv.sh"
g() { git -C "$L" "$@"; }

# ------------------------------------------------------------ pristine tree
t0=$(now)
tarball_id="$(stat -c '%s %Y' "$TARBALL") $(basename "$TARBALL")"
if [ ! -e "$L/.git" ] || [ "$(cat "$B/pristine.stamp" 2>/dev/null)" != "$tarball_id" ]; then
	log "extracting $TARBALL"
	rm -rf "$L" "$O" "$B/pristine.stamp"
	mkdir -p "$B/extract"
	tar -C "$B/extract" -xJf "$TARBALL"
	mv "$B/extract"/linux-source-6.12 "$L"
	rmdir "$B/extract"
	g init -q
	# no background "gc --auto" after the big commit: it would inherit
	# (and hold) the caller's kernel lock for minutes
	g config gc.auto 0
	# Debian's top-level .gitignore ignores everything: add by force
	g add -A -f
	g commit -q -m "linux-source-6.12 (Debian), pristine"
	g tag pristine
	echo "$tarball_id" > "$B/pristine.stamp"
	stamp_time extract "$(elapsed "$t0")"
fi

# ------------------------------------------------------------ series
t0=$(now)
was_on=$(g symbolic-ref -q --short HEAD || true)
"$here/tools/gen-series.sh" "$L" "$B/series"
stamp_time series "$(elapsed "$t0")"
if [ $update = 1 ]; then
	rm -f "$here"/patches/*.patch
	mkdir -p "$here/patches"
	cp "$B"/series/*.patch "$here/patches/"
	log "kernel/patches/ updated"
fi

# Check the series out; only files that differ are rewritten, so make
# rebuilds only what the change touched.
if [ "$(g symbolic-ref -q --short HEAD)" != capsim ] &&
   [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	log "build/kernel/linux has uncommitted changes on $(g symbolic-ref -q --short HEAD || echo HEAD): commit them (and run tools/export-glue.sh) first"
	exit 1
fi
if [ "$(g rev-parse HEAD)" != "$(g rev-parse capsim)" ] || [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	g checkout -q -f capsim
fi

# a developer's branch "dev" (kernel/README.md) must be exported to
# kernel/glue/ to count: say so when it differs from what is built
if g rev-parse -q --verify dev >/dev/null; then
	if g diff --quiet dev capsim; then
		# back to where the developer was: edits go on dev, not capsim
		[ "$was_on" = dev ] && g checkout -q dev
	else
		log "warning: branch dev differs from the series built from kernel/glue: run kernel/tools/export-glue.sh (and build.sh --update) to keep its commits"
	fi
fi

# ------------------------------------------------------------ configure
t0=$(now)
fragment=$here/config/capsim.config
if [ -n "$backend" ]; then
	case $backend in
	exact|rbtree) ;;
	*) log "CAPSIM_CLAMP_BACKEND=$backend: exact or rbtree"; exit 2 ;;
	esac
	mkdir -p "$O"
	{ grep -v '^CONFIG_CAP_CLAMP_' "$here/config/capsim.config"
	  echo "CONFIG_CAP_CLAMP_${backend^^}=y"; } > "$O/capsim.config"
	fragment=$O/capsim.config
fi
if [ -n "$extra" ]; then
	mkdir -p "$O"
	base=$fragment
	for f in $extra; do
		[ -e "$f" ] || { log "CAPSIM_KCONFIG_EXTRA: no file $f"; exit 2; }
		# the symbols the overlay names, set or "is not set"
		syms=$(sed -n 's/^\(# \)\?\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2/p' "$f")
		{ grep -vwF -f <(echo "$syms") "$base" || true; cat "$f"; } > "$O/capsim.config.tmp"
		mv "$O/capsim.config.tmp" "$O/capsim.config"
		base=$O/capsim.config
	done
	fragment=$O/capsim.config
fi
cfg_id=$( (cat "$fragment"; g rev-parse capsim^{tree}) | sha256sum | cut -d' ' -f1)
if [ ! -e "$O/.config" ] || [ "$(cat "$O/.capsim-config" 2>/dev/null)" != "$cfg_id" ]; then
	mkdir -p "$O"
	make -s -C "$L" O="$O" tinyconfig >/dev/null
	"$L/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" "$fragment" >/dev/null
	make -s -C "$L" O="$O" olddefconfig >/dev/null
	# every line of the fragment must have survived
	bad=0
	while IFS= read -r line; do
		case "$line" in
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$O/.config" && { log "config: $sym is set"; bad=1; } ;;
		CONFIG_*)
			grep -qxF "$line" "$O/.config" || { log "config: $line did not stick"; bad=1; } ;;
		esac
	done < "$fragment"
	[ $bad = 0 ] || exit 1
	echo "$cfg_id" > "$O/.capsim-config"
	stamp_time configure "$(elapsed "$t0")"
fi

# ------------------------------------------------------------ build
t0=$(now)
make -s -C "$L" O="$O" -j"$JOBS" bzImage
stamp_time bzImage "$(elapsed "$t0")"

# the series' kselftest (patch 15), with the kernel's own selftest make,
# static for the busybox guest; mkinitramfs.sh puts it in /bin
t0=$(now)
make -s -C "$L/tools/testing/selftests" O="$B/kselftest" TARGETS=cgroup \
	USERLDFLAGS=-static -j"$JOBS" >/dev/null
export CAPSIM_KSELFTEST=$B/kselftest/kselftest/cgroup/test_cpu_capacity
[ -x "$CAPSIM_KSELFTEST" ] || { log "kselftest: no $CAPSIM_KSELFTEST"; exit 1; }
stamp_time kselftest "$(elapsed "$t0")"

t0=$(now)
mkdir -p "$B/guest"
"$here/tools/mkinitramfs.sh" "$B/guest/initramfs.cpio.gz"
stamp_time initramfs "$(elapsed "$t0")"
log "kernel: $O/arch/x86/boot/bzImage"
log "initramfs: $B/guest/initramfs.cpio.gz"

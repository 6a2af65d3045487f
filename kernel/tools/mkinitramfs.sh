#!/bin/bash
# Build the guest initramfs: busybox-static, /init, the workload runner and
# the in-guest tests. Usage: mkinitramfs.sh OUT.cpio.gz [extra files to /work]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$1; shift
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,tests,work}
cp /bin/busybox "$stage/bin/busybox"
cp "$here/guest/init" "$stage/init"
chmod +x "$stage/init"
cc=${CC:-gcc}
# the runner links the shared workload parser (src/input, over src/base),
# the project's trace reader and the clamp core with its host (the trace
# replay, src/xcheck/clamp_replay.c): the same sources meson builds
# (kernel/guest/meson.build), the reader without libtracecmd and
# protobuf-c (no -DHAVE_LIBTRACECMD nor -DHAVE_PERFETTO: the guest reads
# its own text trace, a trace.dat or Perfetto trace is refused with a
# message)
src=$here/../src
$cc -static -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE \
	-I "$src/base" -I "$src/input" -I "$src/trace" -I "$src/clamphost" -I "$src/core" -I "$src/xcheck" \
	-I "$src/kcompat/include" -DCAP_CLAMP_ALL_BACKENDS -DCONFIG_CAP_CLAMP_EXACT \
	-o "$stage/bin/capsim-run" \
	"$here"/guest/*.c "$src/base/util.c" "$src"/input/{clamp_names,diag,sha256,strmap,jsondoc,spelling,uclamp_percent,cgroup_path,workload*}.c \
	"$src"/core/*.c "$src"/kcompat/*.c "$src/clamphost/clamp_host.c" \
	"$src"/trace/{ftrace,trace_file,trace_reader,trace_reader_dat,trace_sniff,perfetto_reader}.c \
	"$src/xcheck/clamp_replay.c" -ljansson -lpthread -lm
# the overhead benchmarks (kernel/tools/overhead.sh): plain C, one binary each
for b in "$here"/guest/bench/*.c; do
	$cc -static -std=c11 -O2 -Wall -Wextra -Werror -pthread \
		-o "$stage/bin/$(basename "$b" .c)" "$b"
done
# the series' kselftest, when build.sh made it (CAPSIM_KSELFTEST)
if [ -n "${CAPSIM_KSELFTEST:-}" ]; then
	cp "$CAPSIM_KSELFTEST" "$stage/bin/"
fi
cp "$here"/guest/tests/*.sh "$here"/guest/tests/*.awk "$stage/tests/"
for f in "$@"; do cp "$f" "$stage/work/"; done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"

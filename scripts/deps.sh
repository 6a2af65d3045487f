#!/bin/sh
# Install the Debian packages capsim needs, only those that are missing.
# Usage: scripts/deps.sh [core|checkpatch|kernel|hardening]...   (default: core)
#   core        build, test and run the user-space simulator and its demo
#               (trace-cmd: the test that reads a simulated trace.dat;
#               libtracecmd/libtraceevent/libtracefs-dev: capsim reads
#               trace.dat through them)
#   checkpatch  the 6.12 source tarball, whose scripts/checkpatch.pl the
#               core's meson test runs (skipped without it)
#   kernel      everything, for the kernel face (kernel/build.sh, test.sh)
#   hardening   the fuzzers (clang's libFuzzer) and the memcheck suite
set -eu
core="gcc pkg-config meson ninja-build libcmocka-dev check libjansson-dev
libtracecmd-dev libtraceevent-dev libtracefs-dev
gnuplot-nox trace-cmd parallel python3 valgrind"
checkpatch="perl xz-utils linux-source-6.12"
kernel="make flex bison bc libelf-dev libssl-dev cpio busybox-static
qemu-system-x86 git"
hardening="clang-14 libclang-rt-14-dev valgrind util-linux"

want=""
for set in "${@:-core}"; do
	case $set in
	core) want="$want $core" ;;
	checkpatch) want="$want $checkpatch" ;;
	kernel) want="$want $core $checkpatch $kernel" ;;
	hardening) want="$want $core $hardening" ;;
	*) echo "deps.sh: unknown set '$set' (core, checkpatch, kernel, hardening)" >&2
	   exit 2 ;;
	esac
done

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	     grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps.sh: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing

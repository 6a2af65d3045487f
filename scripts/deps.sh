#!/bin/sh
# Install the Debian packages capsim needs, only those that are missing.
# Usage: scripts/deps.sh [core|kernel|hardening]...   (default: core)
set -eu
core="gcc pkg-config meson ninja-build libcmocka-dev check libjansson-dev
gnuplot-nox perl xz-utils linux-source-6.12"
kernel="make flex bison bc libelf-dev libssl-dev cpio busybox-static
qemu-system-x86 git"
# the fuzzers (clang's libFuzzer) and the memcheck suite
hardening="clang-14 libclang-rt-14-dev valgrind util-linux"

want=""
for set in "${@:-core}"; do
	case $set in
	core) want="$want $core" ;;
	kernel) want="$want $core $kernel" ;;
	hardening) want="$want $core $hardening" ;;
	*) echo "deps.sh: unknown set '$set' (core, kernel, hardening)" >&2; exit 2 ;;
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

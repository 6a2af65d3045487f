#!/bin/sh
# Install the Debian packages capsim needs, only those that are missing.
# Usage: scripts/deps.sh [core|checkpatch|kernel|hardening|scale]...   (default: core)
#   core        build, test and run the user-space simulator and its demo
#               (trace-cmd: the test that reads a simulated trace.dat;
#               libtracecmd/libtraceevent/libtracefs-dev: capsim reads
#               trace.dat through them; libprotobuf-c-dev/protobuf-c-compiler:
#               Perfetto protobuf traces through protobuf-c, zlib1g-dev
#               their compressed packets)
#   checkpatch  the 6.12 source tarball, whose scripts/checkpatch.pl the
#               core's meson test runs (skipped without it)
#   kernel      everything, for the kernel face (kernel/build.sh, test.sh)
#   hardening   the fuzzers (clang's libFuzzer) and the memcheck suite
#   scale       a one-node Slurm for the scale suite (tests/scale/slurm.sh
#               starts its own daemons; the packages' services are kept
#               from starting and from starting at boot)
set -eu
core="gcc pkg-config meson ninja-build libcmocka-dev check libjansson-dev
libtracecmd-dev libtraceevent-dev libtracefs-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev
gnuplot-nox trace-cmd parallel python3 valgrind"
checkpatch="perl xz-utils linux-source-6.12"
kernel="make flex bison bc libelf-dev libssl-dev cpio busybox-static
qemu-system-x86 git"
hardening="clang-14 libclang-rt-14-dev valgrind util-linux"
scale="slurmctld slurmd slurm-client munge"
# the services these packages install and would start
scale_services="munge slurmctld slurmd"

want=""
for set in "${@:-core}"; do
	case $set in
	core) want="$want $core" ;;
	checkpatch) want="$want $checkpatch" ;;
	kernel) want="$want $core $checkpatch $kernel" ;;
	hardening) want="$want $core $hardening" ;;
	scale) want="$want $core $scale" ;;
	*) echo "deps.sh: unknown set '$set' (core, checkpatch, kernel, hardening, scale)" >&2
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
# No package installed here is meant to run as a system service (the
# scale suite runs its own munged, slurmctld and slurmd as children): a
# policy-rc.d saying 101 keeps invoke-rc.d and deb-systemd-invoke from
# starting them, unless the machine already has its own policy
policy=/usr/sbin/policy-rc.d
own_policy=
if [ ! -e $policy ]; then
	printf '#!/bin/sh\n# scripts/deps.sh: start no service while installing\nexit 101\n' |
		$SUDO tee $policy > /dev/null
	$SUDO chmod 755 $policy
	own_policy=1
fi
st=0
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing || st=$?
[ -n "$own_policy" ] && $SUDO rm -f $policy
# and under systemd, nor at the next boot
if [ -d /run/systemd/system ]; then
	for s in $scale_services; do
		case " $missing " in
		*" $s "*) $SUDO systemctl disable --now "$s" 2> /dev/null || true ;;
		esac
	done
fi
exit $st

# Sourced by each case of the safety suite (. "$(dirname "$0")/lib.sh"):
# $W (and $C) capsim as an absolute path, $SRC the source tree, $tmp a
# temporary directory removed on exit, the counters and ok/bad.
set -u
W=$(readlink -f "${1:?usage: CASE.sh CAPSIM SRCDIR}")
SRC=$(readlink -f "${2:?usage: CASE.sh CAPSIM SRCDIR}")
C=$W
export CAPSIM_PLOTS="$SRC/plots"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

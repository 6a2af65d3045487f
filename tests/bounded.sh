# Sourced by the bad-input table and the safety cases: run a command
# under a wall-time and a memory bound.
#   run_bounded SANITIZE SECONDS MEGABYTES COMMAND...
# SANITIZE "none": an address-space limit (prlimit --as); else ASan's
# hard_rss_limit_mb (its shadow memory rules out an address-space
# limit). stdout to $tmp/out, stderr to $tmp/err, the status in $rc
# (137 when the time ran out).
run_bounded() {
	_san=$1 _secs=$2 _mb=$3
	shift 3
	if [ "$_san" = none ]; then
		timeout -s KILL "$_secs" prlimit --as=$((_mb * 1048576)) -- \
			"$@" >"$tmp/out" 2>"$tmp/err"
	else
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=$_mb" \
			timeout -s KILL "$_secs" "$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
}

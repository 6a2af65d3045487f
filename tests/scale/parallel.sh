#!/bin/bash
# A sweep through GNU parallel with a job killed and retried (issue 28):
#   parallel.sh CAPSIM SRCDIR
# Runs the job lines `sweep --emit-jobs` wrote with `parallel --joblog`,
# where the first attempt of one point is killed by SIGKILL after it
# started, before it finished; collects the partial results (that point named,
# exit status 1); re-runs the failed job with `parallel --retry-failed
# --joblog`; collects again and compares sweep.csv byte for byte with the
# same sweep run locally.
set -euo pipefail
capsim=$(readlink -f "$1")
src=$(readlink -f "$2")
. "$src/tests/scale/sweep-under-test.sh"

fail() { echo "FAIL: $*" >&2; exit 1; }
command -v parallel > /dev/null ||
	fail "GNU parallel is not installed (scripts/deps.sh core)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
killed=0005	# the point whose first attempt is killed

sweep_cmd "$tmp/e" --emit-jobs "$tmp/jobs" > /dev/null

# GNU parallel runs each job as $PARALLEL_SHELL -c LINE: this shell
# kills the first attempt of one point, so the commands on parallel's
# command line and in its joblog are the ones a user types
cat > "$tmp/kill-once-shell" <<EOF
#!/bin/sh
# \$1 is -c, \$2 the job line
case \$2 in
*"points/$killed/"*)
	if mkdir "$tmp/killed-once" 2> /dev/null; then
		# the job starts in its own process group and stops itself
		# at once, so the kill lands before it finishes, every time
		# (a point runs for 20 ms: a kill "some time later" would
		# race it)
		setsid sh -c 'kill -STOP \$\$; exec sh -c "\$1"' job "\$2" &
		job=\$!
		i=0
		until grep -q '^State:.*T' /proc/\$job/status 2> /dev/null ||
		      [ \$i -ge 1000 ]; do
			sleep 0.01
			i=\$((i + 1))
		done
		# dash's kill: -9 -PGID (it knows neither -- nor -s KILL -PGID)
		kill -9 -\$job
		wait \$job
		kill -KILL \$\$
	fi ;;
esac
exec sh -c "\$2"
EOF
chmod +x "$tmp/kill-once-shell"
export PARALLEL_SHELL="$tmp/kill-once-shell"
# parallel keeps its state in $HOME/.parallel: keep it out of the user's
export HOME="$tmp/home"
mkdir "$HOME"

cd "$tmp"
st=0
parallel --joblog "$tmp/joblog" -j 2 < "$tmp/jobs" || st=$?
[ $st = 1 ] || fail "parallel: exit $st, expected 1 (one job failed)"
# joblog columns: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command
failed=$(awk 'NR > 1 && ($7 != 0 || $8 != 0) { print $1 ":" $8 }' "$tmp/joblog")
[ "$failed" = "${killed#000}:9" ] ||
	fail "the joblog's failed jobs are '$failed', expected job ${killed#000} killed by signal 9"

# a partial collection names the killed point and still writes sweep.csv
st=0
"$capsim" sweep --collect "$tmp/e" --quiet 2> "$tmp/err" || st=$?
[ $st = 1 ] || fail "--collect of a partial sweep: exit $st, expected 1"
grep -q "$killed" "$tmp/err" || fail "--collect does not name point $killed: $(cat "$tmp/err")"
[ -s "$tmp/e/sweep.csv" ] || fail "--collect of a partial sweep wrote no sweep.csv"

parallel --retry-failed --joblog "$tmp/joblog" -j 2
retried=$(awk 'NR > 1 { print $1 ":" $7 ":" $8 }' "$tmp/joblog" | tail -n +$((sweep_points + 1)))
[ "$retried" = "${killed#000}:0:0" ] ||
	fail "--retry-failed ran '$retried', expected job ${killed#000} once, successfully"
"$capsim" sweep --collect "$tmp/e" --quiet

unset PARALLEL_SHELL
sweep_cmd "$tmp/local" --quiet
cmp "$tmp/e/sweep.csv" "$tmp/local/sweep.csv" ||
	fail "sweep.csv through parallel, a kill and a retry differs from the local sweep"
echo "parallel: sweep.csv identical to the local sweep ($sweep_points points, point $killed killed once and retried)"

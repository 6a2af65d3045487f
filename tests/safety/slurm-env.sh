#!/bin/sh
# The emitted Slurm script reads two numbers from the environment
# (issue 36, item 2): CAPSIM_JOBS_OFFSET and SLURM_ARRAY_TASK_ID. The
# shell's $((...)) evaluates what a variable holds as an expression --
# bash even runs a command substitution in an array subscript, so
# CAPSIM_JOBS_OFFSET='x[$(touch F)]' ran `touch F` -- so the script checks
# each is a plain decimal number before any arithmetic. Under bash and
# dash: every hostile value (code, empty, negative, huge, octal, hex) exits
# 2 naming the variable, runs no job and creates no file; a good value
# still runs its own line and that line only.
#   slurm-env.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
printf '%s' '{ "global": { "duration": 0.01 }, "tasks": { "t": { "run": 1000, "sleep": 1000 } } }' >w.json
"$C" sweep w.json --set 'tasks.t.run=1000,2000,3000' --policies rfc \
	--quiet -o sw --emit-jobs jobs 2>err.txt || bad "setup: --emit-jobs: $(cat err.txt)"

shells=
for sh in bash dash; do
	if command -v $sh >/dev/null 2>&1; then
		shells="$shells $sh"
	else
		bad "$sh is not installed: the script must run under both"
	fi
done

# ran: which points have a run now (their summaries), one word
ran() {
	ls sw/points/*/run/summary.json 2>/dev/null | sed 's|sw/points/\([0-9]*\)/.*|\1|' | tr '\n' ' '
}

# hostile SHELL VAR VALUE [OTHER=VALUE]: refused, exit 2, nothing run,
# F never created
hostile() {
	sh=$1 var=$2 val=$3 other=${4:-SLURM_ARRAY_TASK_ID=1}
	shown=$(printf '%s' "$val" | tr -c '[:print:]' '?')
	rm -f F
	before=$(ran)
	env -u CAPSIM_JOBS_OFFSET -u SLURM_ARRAY_TASK_ID "$other" "$var=$val" \
		$sh ./jobs.slurm >out.txt 2>err.txt
	rc=$?
	if [ -e F ]; then
		bad "$sh $var='$shown': the value ran as code (F created)"
	elif [ $rc -ne 2 ]; then
		bad "$sh $var='$shown': exit $rc, expected 2: $(head -c 200 err.txt)"
	elif ! grep -q "capsim sweep: $var is not a decimal number" err.txt; then
		bad "$sh $var='$shown': the message does not name $var: $(head -c 200 err.txt)"
	elif [ "$(ran)" != "$before" ]; then
		bad "$sh $var='$shown': a job ran"
	else
		ok "$sh $var='$shown': exit 2, named, nothing run"
	fi
}

for sh in $shells; do
	for v in 'x[$(touch F)]' 'a[$(touch F)]+1' '$(touch F)' '`touch F`' \
		'1;touch F' '1 + 1' '' '-1' '-0' '+1' '99999999999999999999' \
		'1000000000' '010' '0x1' '1e3' ' 1' '1 ' 'SLURM_ARRAY_TASK_ID'; do
		hostile $sh CAPSIM_JOBS_OFFSET "$v"
		hostile $sh SLURM_ARRAY_TASK_ID "$v" CAPSIM_JOBS_OFFSET=0
	done
	# no array index at all: not run as an array task
	rm -f F
	env -u SLURM_ARRAY_TASK_ID -u CAPSIM_JOBS_OFFSET $sh ./jobs.slurm >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 2 ] && grep -q 'SLURM_ARRAY_TASK_ID is not a decimal number' err.txt &&
		ok "$sh without SLURM_ARRAY_TASK_ID: exit 2" ||
		bad "$sh without SLURM_ARRAY_TASK_ID: exit $rc: $(head -c 200 err.txt)"
done

# good values: each runs its own line, and only it
for sh in $shells; do
	rm -rf sw/points/*/run sw/points/*/run.log
	env -u CAPSIM_JOBS_OFFSET SLURM_ARRAY_TASK_ID=2 $sh ./jobs.slurm >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 0 ] && [ "$(ran)" = "0002 " ] &&
		ok "$sh index 2, no offset: line 2 ran, only it" ||
		bad "$sh index 2: exit $rc, ran $(ran): $(head -c 200 err.txt)"
	CAPSIM_JOBS_OFFSET=2 SLURM_ARRAY_TASK_ID=1 $sh ./jobs.slurm >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 0 ] && [ "$(ran)" = "0002 0003 " ] &&
		ok "$sh offset 2 + index 1: line 3 ran" ||
		bad "$sh offset 2 + index 1: exit $rc, ran $(ran): $(head -c 200 err.txt)"
	CAPSIM_JOBS_OFFSET=0 SLURM_ARRAY_TASK_ID=1 $sh ./jobs.slurm >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 0 ] && [ "$(ran)" = "0001 0002 0003 " ] &&
		ok "$sh offset 0 + index 1: line 1 ran" ||
		bad "$sh offset 0 + index 1: exit $rc, ran $(ran): $(head -c 200 err.txt)"
	# past the last line, and index 0: no line, exit 1, said
	for pair in '3 1' '0 0'; do
		set -- $pair
		CAPSIM_JOBS_OFFSET=$1 SLURM_ARRAY_TASK_ID=$2 $sh ./jobs.slurm >out.txt 2>err.txt
		rc=$?
		[ $rc -eq 1 ] && grep -q "has no line $(($1 + $2))" err.txt &&
			ok "$sh offset $1 + index $2: no such line, exit 1" ||
			bad "$sh offset $1 + index $2: exit $rc: $(head -c 200 err.txt)"
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

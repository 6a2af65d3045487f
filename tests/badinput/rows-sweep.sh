# Bad-input rows of issue 23 for sweep and compare (sourced by table.sh:
# fresh, workload, row, $W, $tmp, $T, $G). Each finding is refused at parse
# time, exit 2, bounded in time and memory, nothing written.

# --set ranges: non-finite or absurd, refused with the count they give
fresh; workload "{ $G, $T }"
row "sweep --set nan:nan:1 (was SIGSEGV)" 2 "capsim: --set tasks.t.run=nan:nan:1: a range LO:HI:STEP needs finite numbers: this one gives no values" 10 256 \
	$W sweep w.json --set 'tasks.t.run=nan:nan:1' -o out
fresh; workload "{ $G, $T }"
row "sweep --set inf:inf:1 (was out of memory)" 2 "this one gives infinitely many values" 10 256 \
	$W sweep w.json --set 'tasks.t.run=inf:inf:1' -o out
fresh; workload "{ $G, $T }"
row "sweep --set -inf:0:1 (was out of memory)" 2 "this one gives infinitely many values" 10 256 \
	$W sweep w.json --set 'tasks.t.run=-inf:0:1' -o out
fresh; workload "{ $G, $T }"
row "sweep --set 0:1e300:1 (was out of memory)" 2 "capsim: --set tasks.t.run=0:1e300:1: the range gives 1e+300 values: a sweep has at most 100000 points" 10 256 \
	$W sweep w.json --set 'tasks.t.run=0:1e300:1' -o out
fresh; workload "{ $G, $T }"
row "sweep --set 1e300 as a list item" 2 "capsim: --set tasks.t.run=1,1e400: item 2 is not a finite number" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1,1e400' -o out
fresh; workload "{ $G, $T }"
row "sweep --set step below a double's resolution (was duplicate points)" 2 "STEP 1 is below the resolution of a double at 1e+17: the 993 values would repeat" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1e17:1.00000000000001e17:1' -o out
fresh; workload "{ $G, $T }"
row "sweep --set a value listed twice" 2 "capsim: --set tasks.t.run=1000,2000,1000.0: the value 1000 is listed twice: it would give duplicate points" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000,2000,1000.0' -o out
fresh; workload "{ $G, $T }"
row "sweep of 10^6 points" 2 "capsim: the sweep has 3000000 points (--set values x platforms x policies x repeats): at most 100000" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1:1000:1' --set 'tasks.t.sleep=1:1000:1' -o out
fresh; workload "{ $G, $T }"
# one value, not 9 (tests/fuzz/regressions/sweep_spec/ has the count),
# beyond what tasks.t.run takes: refused before a job is emitted (was 3
# jobs, each to fail)
row "sweep --set 1e17:1e17:1: one value, out of the field's range" 2 "capsim: --set tasks.t.run=1e17:1e17:1: the value 1e17: tasks.t.run: 1e17 is not an integer: allowed [0, 3600000000]" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1e17:1e17:1' -o "$tmp/sweep-1e17" --emit-jobs "$tmp/jobs-1e17"
[ ! -e "$tmp/jobs-1e17" ] || { fail=$((fail + 1)); echo "FAIL 1e17:1e17:1: jobs emitted"; }

# usage errors found before any point, with --emit-jobs too (was exit 0)
for emit in "" "--emit-jobs jobs"; do
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep -o '' ${emit:-(runs)}" 2 "capsim: -o needs a directory, not an empty path" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' -o '' $emit
	fresh; workload "{ $G, $T }"; : >afile
	# shellcheck disable=SC2086
	row "sweep -o FILE ${emit:-(runs)}" 2 "capsim: -o afile: it exists and is not a directory" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' -o afile $emit
	fresh; workload "{ $G, $T }"; : >afile
	# shellcheck disable=SC2086
	row "sweep -o under a file ${emit:-(runs)}" 2 "capsim: -o afile/x: afile is not a directory" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' -o afile/x $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep unknown policy ${emit:-(runs)}" 2 'capsim: --policies: unknown policy "fast": allowed rfc, none, uclamp' 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --policies rfc,fast -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep policy twice ${emit:-(runs)}" 2 'capsim: --policies: "rfc" is listed twice' 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --policies rfc,rfc -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep unknown platform ${emit:-(runs)}" 2 'unknown platform "sym5"' 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --platforms sym4,sym5 -o out $emit
	fresh; workload "{ $G, $T }"; printf '{ "name": 1 }' >p.json
	# shellcheck disable=SC2086
	row "sweep invalid platform file ${emit:-(runs)}" 2 "p.json:1:" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --platforms ./p.json -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --duration 1e12 ${emit:-(runs)}" 2 "capsim: --duration needs seconds in [1e-06, 1e+06]: 1e12" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --duration 1e12 -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --duration soon ${emit:-(runs)}" 2 "capsim: --duration needs seconds in [1e-06, 1e+06]: soon" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --duration soon -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --seed -1 ${emit:-(runs)}" 2 "capsim: --seed needs a non-negative integer: -1" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --seed -1 -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep unknown --metric ${emit:-(runs)}" 2 "capsim: --metric u.resp_p95_ms will not be a sweep.csv column" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric u.resp_p95_ms -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --metric in us, an earlier capsim's name ${emit:-(runs)}" 2 "unknown name t.resp_p95_us: sweep columns are in ms (no column is in us any more): did you mean \"t.resp_p95_ms\"?" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric t.resp_p95_us -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --metric dom7 ${emit:-(runs)}" 2 "  names: energy_mj, dom0.avg_mhz, t.wlat_p95_ms, t.wlat_p99_ms, t.resp_p95_ms, t.resp_p99_ms, t.misses (an instance" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric dom7.avg_mhz -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --metric with an unknown name ${emit:-(runs)}" 2 "capsim: --metric energy_mj/u.misses will not be a sweep.csv column or an expression over its columns: unknown name u.misses" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric 'energy_mj/u.misses' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --metric a function call ${emit:-(runs)}" 2 "no function calls: expected an operator" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric 'system(energy_mj)' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --metric unbalanced ${emit:-(runs)}" 2 "expected ')' at the end" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000' --metric '(energy_mj/2' -o out $emit
	# every --set value against its field's type and range, before any
	# point or job (issue 37: 1e300 was emitted, exit 0, and failed at
	# every point)
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --set a value beyond the field's range ${emit:-(runs)}" 2 "capsim: --set tasks.t.run=1e300:1e300:1: the value 1e300: tasks.t.run: " 10 256 \
		$W sweep w.json --set 'tasks.t.run=1e300:1e300:1' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --set the last value out of range ${emit:-(runs)}" 2 "capsim: --set tasks.t.sleep=0,1000,-5: the value -5: tasks.t.sleep: -5 is out of range: allowed [0, 3600000000]" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1000,2000' --set 'tasks.t.sleep=0,1000,-5' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --set reals for an integer ${emit:-(runs)}" 2 "the value 1.0: tasks.t.run: 1.0 is not an integer: allowed [0, 3600000000]" 10 256 \
		$W sweep w.json --set 'tasks.t.run=1:2:0.5' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --set platform. out of range ${emit:-(runs)}" 2 "capsim: --set platform.domains[*].rate_limit_us=100,-1: the value -1 on platform sym4: domains[0].rate_limit_us: -1 is out of range: allowed [0, 10000000]" 10 256 \
		$W sweep w.json --set 'platform.domains[*].rate_limit_us=100,-1' -o out $emit
	fresh; workload "{ $G, $T }"
	# shellcheck disable=SC2086
	row "sweep --set one real among 300 integers ${emit:-(runs)}" 2 "the value 150.5: tasks.t.sleep: 150.5 is not an integer" 10 256 \
		$W sweep w.json --set "tasks.t.sleep=$(seq -s, 1 300 | sed 's/,150,/,150.5,/')" -o out $emit
done

# --set PATH with [*], and --link (issue 26): refused before any point
fresh; workload "{ $G, $T }"
row "sweep --link with unequal lengths" 2 "capsim: --link: --set tasks.t.run gives 2 values, --set tasks.t.sleep 3: linked parameters need as many values each" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000,2000' --set 'tasks.t.sleep=1:3:1' --link -o out
fresh; workload "{ $G, $T }"
row "sweep --link with one --set" 2 "capsim: --link zips two --set or more: 1 given" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000,2000' --link -o out
fresh; workload "{ $G, $T }"
row "sweep --collect --link" 2 "capsim: --collect DIR takes only --metric and --quiet" 10 256 \
	$W sweep --collect out --link
fresh; workload "{ $G, \"tasks\": { \"t\": { \"run\": 1000, \"cpus\": [] } } }"
row "sweep --set [*] over an empty array" 2 "capsim: --set tasks.t.cpus[*]: [*] matches no element (the array is empty) (in the workload)" 10 256 \
	$W sweep w.json --set 'tasks.t.cpus[*]=1,2' -o out
fresh; workload "{ $G, $T }"
row "sweep --set [*] where no array is" 2 "capsim: --set tasks[*].run: [*] matches no element (no array there) (in the workload)" 10 256 \
	$W sweep w.json --set 'tasks[*].run=1,2' -o out
fresh; workload "{ $G, $T }"
row "sweep --set [*] on a platform member that is no array" 2 "capsim: --set platform.name[*]: [*] matches no element (no array there) (in the platform)" 10 256 \
	$W sweep w.json --set 'platform.name[*]=1,2' -o out
fresh; workload "{ $G, $T }"
row "sweep --set [x]" 2 'expected [INDEX], [*] or ["key"] at "[x].run"' 10 256 \
	$W sweep w.json --set 'tasks.t[x].run=1,2' -o out
fresh; workload "{ $G, $T }"
row "sweep --drop PATH[*]" 2 "capsim: --drop capsim.events[*]: a drop ends with a member or an index, not [*]" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' --drop 'capsim.events[*]' -o out
fresh; workload "{ $G, $T }"
row "sweep --repeat 0" 2 "capsim: --repeat needs" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' --repeat 0 -o out
fresh; workload "{ $G, $T }"
row "sweep --repeat 1001" 2 "capsim: --repeat needs" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' --repeat 1001 -o out
fresh; workload "{ $G, $T }"
row "sweep --repeat x points over the limit" 2 "capsim: the sweep has 300000 points (--set values x platforms x policies x repeats): at most 100000" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1:100:1' --repeat 1000 -o out
fresh; workload "{ $G, $T }"
row "sweep --collect --repeat" 2 "capsim: --collect DIR takes only --metric and --quiet" 10 256 \
	$W sweep --collect out --repeat 3

# --emit-jobs paths: not a device, not a file capsim did not write
# (never /dev/null itself: a regressed capsim run as root would replace it;
# a FIFO and a link to the device are refused the same way, harmlessly)
fresh; workload "{ $G, $T }"; mkfifo fifo
row "sweep --emit-jobs FIFO" 2 "capsim: --emit-jobs fifo: fifo exists and is not a regular file" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' -o out --emit-jobs fifo
fresh; workload "{ $G, $T }"; ln -s /dev/null devnull
row "sweep --emit-jobs a link to /dev/null" 2 "capsim: --emit-jobs devnull: devnull exists and is not a regular file" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' -o out --emit-jobs devnull
[ -c /dev/null ] || { fail=$((fail + 1)); echo "FAIL /dev/null is no longer a character device"; }
fresh; workload "{ $G, $T }"
row "sweep --emit-jobs onto the workload" 2 "capsim: --emit-jobs w.json: w.json exists and was not written by capsim; choose another --emit-jobs or remove it" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' -o out --emit-jobs w.json
fresh; workload "{ $G, $T }"
row "sweep --emit-jobs ''" 2 "capsim: --emit-jobs needs a file, not an empty path" 10 256 \
	$W sweep w.json --set 'tasks.t.run=1000' -o out --emit-jobs ''

# compare: a policy twice was "File exists"
fresh; workload "{ $G, $T }"
row "compare --policies rfc,rfc" 2 'capsim: --policies: "rfc" is listed twice' 10 256 \
	$W compare w.json --policies rfc,rfc -o out
fresh; workload "{ $G, $T }"
row "compare unknown policy" 2 'capsim: --policies: unknown policy "fast": allowed rfc, none, uclamp' 10 256 \
	$W compare w.json --policies fast -o out
fresh; workload "{ $G, $T }"
row "compare --duration 0" 2 "capsim: --duration needs seconds in [1e-06, 1e+06]: 0" 10 256 \
	$W compare w.json --duration 0 -o out
fresh; workload "{ $G, $T }"; : >afile
row "compare -o FILE" 2 "capsim: -o afile: it exists and is not a directory" 10 256 \
	$W compare w.json -o afile
fresh; workload "{ $G, $T }"
row "compare --plots every" 2 "capsim: --plots takes compare, all or none: every" 10 256 \
	$W compare w.json --plots every -o out
# a value out of its field's range names the --set that made it (was
# the edited copy in the output's temporary directory, from the runs)
fresh; workload "{ $G, $T }"
row "compare --set out of range" 2 "capsim: --set tasks.t.run=-5: tasks.t.run: -5 is out of range: allowed [0, 3600000000]" 10 256 \
	$W compare w.json --set tasks.t.run=-5 -o out
fresh; workload "{ $G, $T }"
row "compare --set platform. out of range" 2 "capsim: --set platform.domains[*].rate_limit_us=-1: domains[0].rate_limit_us: -1 is out of range" 10 256 \
	$W compare w.json --set 'platform.domains[*].rate_limit_us=-1' -o out

# the default metric's candidates are listed before the workload's own
# check: an absurd "instance" lists one per instance (review finding:
# billions of names, then out of memory); now the points refuse it
fresh; workload '{ "global": { "duration": 0.01 }, "tasks": { "t": { "instance": 3000000000, "run": 1000, "sleep": 1000 } } }'
row "sweep of a workload with 3e9 instances, no --metric" 1 "tasks.t.instance: 3000000000 is out of range: allowed [0, 1024]" 20 256 \
	$W sweep w.json --set 'tasks.t.run=1,2' -o out

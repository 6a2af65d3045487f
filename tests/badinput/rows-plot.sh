# Rows of the bad-input table (sourced by table.sh): the plots of issue
# 23. Plots that succeed are written outside the row's directory ($tmp),
# which must stay as it was.

# kernel_trace NTASKS NCPUS SWITCHES [cpu_frequency]: a kernel-style trace
# on stdout, each task running SWITCHES times on CPUs in turn; with
# cpu_frequency each CPU at a frequency of its own, so that without a
# platform each is a domain of its own (docs/traces.md's inference)
kernel_trace() {
	awk -v nt="$1" -v nc="$2" -v ns="$3" -v freq="${4:-}" 'BEGIN {
		printf "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:%d\n", nc
		t = 1
		if (freq)
			for (c = 0; c < nc; c++)
				printf "          <idle>-0       [%03d]     %.6f: cpu_frequency: state=%d cpu_id=%d\n", c, t, 1000000 + c, c
		for (k = 0; k < ns; k++)
			for (i = 0; i < nt; i++) {
				c = (i + k) % nc; pid = 1000 + i; comm = "task" i
				t += 0.00001
				printf "          <idle>-0       [%03d]     %.6f: sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n", c, t, comm, pid, c
				printf "          <idle>-0       [%03d]     %.6f: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120\n", c, t, c, comm, pid
				t += 0.00005
				printf " %s-%d    [%03d]     %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", comm, pid, c, t, comm, pid, c
			}
	}'
}

# no frequency to draw: the panels say so (was gnuplot's "Cannot find or
# open file freq-dom0.dat", exit 1)
fresh; kernel_trace 3 2 4 >t.txt
row "plot: a trace without cpu_frequency nor platform" 0 \
	"capsim: plot: no cpu_frequency event in t.txt: the frequency panels are empty" \
	30 512 $W plot t.txt -o "$tmp/plot-nofreq"
[ -s "$tmp/plot-nofreq/freq.png" ] && [ -s "$tmp/plot-nofreq/residency.svg" ] ||
	{ fail=$((fail + 1)); echo "FAIL plot without cpu_frequency: no freq.png or residency.svg"; }
rm -rf "$tmp/plot-nofreq"

# 1024 tasks on 1024 CPUs without a platform (1024 domains): was "Cairo
# is unhappy" (a 256 110 px freq plot); the plots draw 8 domains and 16
# lanes, the busiest, and say so
fresh; kernel_trace 1024 1024 10 freq >t.txt
row "plot: 1024 tasks on 1024 CPUs, no platform" 0 "plots: $tmp/plot-big/" \
	120 1024 $W plot t.txt -o "$tmp/plot-big"
grep -q "^lanenote = '16 of 1024 tasks drawn, the busiest'" "$tmp/plot-big/data/vars.gp" &&
	grep -q "^domnote = '8 of 1024 domains drawn" "$tmp/plot-big/data/vars.gp" ||
	{ fail=$((fail + 1)); echo "FAIL plot of 1024 tasks: no note of the tasks and domains left out"; }
rm -rf "$tmp/plot-big"

# a run of 1024 tasks on a 1024-CPU platform, utilization traced: was not
# done after 500 s (a panel per CPU and a lane per task)
fresh
awk 'BEGIN {
	printf "{ \"name\": \"big\", \"cpus\": ["
	for (i = 0; i < 1024; i++)
		printf "%s{ \"id\": %d, \"capacity\": 1024, \"domain\": 0 }", i ? ", " : "", i
	printf "], \"domains\": [ { \"id\": 0, \"cpus\": ["
	for (i = 0; i < 1024; i++)
		printf "%s%d", i ? ", " : "", i
	printf "], \"opps\": [ { \"khz\": 500000, \"capacity\": 512, \"power_mw\": 100 }, { \"khz\": 1000000, \"capacity\": 1024, \"power_mw\": 400 } ] } ] }\n"
}' >p.json
awk 'BEGIN {
	printf "{ \"global\": { \"duration\": 0.2 }, \"tasks\": {"
	for (i = 0; i < 1024; i++)
		printf "%s \"t%d\": { \"run\": 2000, \"sleep\": 8000 }", i ? "," : "", i
	printf " } }\n"
}' >w.json
row "run --plot: 1024 tasks on 1024 CPUs" 0 "plots: $tmp/run-big/plots/" \
	120 2048 $W run w.json --platform p.json --trace-util --plot -o "$tmp/run-big"
grep -q "^cpunote = '16 of 1024 CPUs drawn, the busiest'" "$tmp/run-big/plots/data/vars.gp" ||
	{ fail=$((fail + 1)); echo "FAIL run --plot of 1024 CPUs: no note of the CPUs left out"; }
rm -rf "$tmp/run-big"

# a task name that would split the run's trace lines
fresh; workload '{ "global": { "duration": 0.1 }, "tasks": { "a\nb": { "run": 1000, "sleep": 1000 } } }'
row "task name with a newline" 2 \
	"a task name must be non-empty and without spaces or control characters" \
	10 256 $W run w.json --plot -o out/x

# compare: a policy's plots that could not be drawn are an output not
# written, exit 1 (was 0)
fresh
mkdir "$tmp/badplots"
cp "$SRC"/plots/*.gp "$tmp/badplots/"
echo 'plot nosuchfunction(x)' >>"$tmp/badplots/activity.gp"
workload "{ $G, $T }"
row "compare: plots gnuplot cannot draw" 1 "capsim: compare: no plots for rfc" \
	60 512 env CAPSIM_PLOTS="$tmp/badplots" $W compare w.json --policies rfc \
	--plots all --quiet -o "$tmp/cmp-noplot"
rm -rf "$tmp/cmp-noplot" "$tmp/badplots"

# a run's chains.csv that is not one (issue 37's frame view reads it):
# exit 2 naming the file and line, no plot written
fresh
$W run "$SRC/traces/frame-chain.json" --duration 0.2 --quiet -o run >/dev/null 2>&1
sed -i '3s/.*/frame,x,1,2/' run/chains.csv
row "plot: a run whose chains.csv has a bad row" 2 \
	"capsim: run/chains.csv:3: not a chains.csv row of a chain of the run's summary.json" \
	30 512 $W plot run -o "$tmp/plot-badcsv"
[ ! -e "$tmp/plot-badcsv" ] && [ ! -e run/plots ] ||
	{ fail=$((fail + 1)); echo "FAIL plot of a bad chains.csv: a plot directory left"; }

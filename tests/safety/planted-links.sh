#!/bin/sh
# Nothing written through a name capsim did not create in this run (issue
# 36, item 1). Before each command that writes (run, compare, sweep and
# its --collect, --resume and --emit-jobs, plot, import, import-check,
# xcheck on a saved guest trace, trace-dat), a symbolic link is planted at
# every name it writes whose name is known beforehand -- the outputs, the
# directories it reuses, and the fixed temporary names earlier capsims
# used (.sweep.csv.tmp, ...); the temporaries made now have random names
# (O_EXCL) and cannot be planted -- each pointing at a victim file or a
# victim directory outside. After it: the victims are byte for byte as
# they were, nothing was created in the victim directory, and the exit
# status is the one the case gives (0 where the link is replaced, 2 where
# the name is refused).
#   planted-links.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
cp "$SRC/traces/whatif-bg-cap.json" w.json
fx="$SRC/tests/fixtures/guest/sym4-bg-hog-rfc-clamp.txt"
xw="$SRC/traces/xcheck/bg-hog-capped.json"

# The victims: a file and a directory the user keeps outside the outputs
victims() {
	rm -rf victim victimdir
	echo precious > victim
	mkdir victimdir
	echo code > victimdir/keep.txt
}
# Their state: names, contents and modes
vstate() {
	find victim victimdir -printf '%p %y %m %s\n' | sort
	cat victim victimdir/* 2>/dev/null
}

# plant DIR NAME...: a link to the victim at each DIR/NAME (whatever was
# there removed); a NAME ending in / links to the victim directory
plant() {
	d=$1
	shift
	for n; do
		case $n in
		*/)
			rm -rf "${d:?}/${n%/}"
			ln -s "$tmp/victimdir" "$d/${n%/}"
			;;
		*)
			rm -rf "${d:?}/$n"
			ln -s "$tmp/victim" "$d/$n"
			;;
		esac
	done
}

# expect NAME STATUS MESSAGE COMMAND...: the status (and the message on
# stderr, when not empty), and the victims as they were before
expect() {
	name=$1 want=$2 msg=$3
	shift 3
	vstate >before.txt
	"$@" >out.txt 2>err.txt </dev/null
	rc=$?
	vstate >after.txt
	if ! cmp -s before.txt after.txt; then
		bad "$name: wrote through a planted link: $(diff before.txt after.txt | tr '\n' ' ' | head -c 300)"
	elif [ $rc -ne "$want" ]; then
		bad "$name: exit $rc, expected $want: $(head -c 300 err.txt)"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" err.txt; then
		bad "$name: message '$msg' not in: $(head -c 300 err.txt)"
	else
		ok "$name: exit $want, the victims intact"
	fi
}

victims

# ---- capsim run: into a directory it wrote before ----
"$C" run w.json --duration 0.2 --trace-dat --quiet -o r 2>/dev/null || bad "setup: run"
plant r trace.txt summary.json activations.csv trace.dat chains.csv
expect "run -o DIR, links at its files" 0 "" \
	"$C" run w.json --duration 0.2 --trace-dat --quiet -o r
[ -f r/summary.json ] && [ ! -L r/summary.json ] &&
	ok "run: the links replaced by the outputs" || bad "run: r/summary.json is not the run's"
mkdir r0
plant r0 .capsim-output
expect "run -o DIR whose marker is a link" 2 "was not written by capsim" \
	"$C" run w.json --duration 0.2 --quiet -o r0

# ---- capsim plot RUN: RUN/plots ----
plant r plots/
expect "plot RUN, RUN/plots a link to a directory" 2 "r/plots" \
	"$C" plot r --quiet
rm r/plots
"$C" plot r --quiet 2>/dev/null || bad "setup: plot"
plant r/plots freq.png activity.svg data/
expect "plot RUN, links inside RUN/plots" 0 "" "$C" plot r --quiet

# ---- capsim compare ----
"$C" compare w.json --duration 0.2 --policies rfc,none --quiet -o c 2>/dev/null ||
	bad "setup: compare"
plant c compare.md compare.json compare.svg compare-data/ rfc/
plant c/none run.log summary.json
expect "compare -o DIR, links inside" 0 "" \
	"$C" compare w.json --duration 0.2 --policies rfc,none --quiet -o c

# ---- capsim sweep, run here ----
set -- --set 'tasks.fg_touch.run=1000,2000' --policies rfc,none --duration 0.2
"$C" sweep w.json "$@" --repeat 2 --quiet -o sw 2>/dev/null || bad "setup: sweep"
plant sw sweep.json sweep.csv points/
expect "sweep -o DIR, links inside" 0 "" "$C" sweep w.json "$@" --repeat 2 --quiet -o sw

# ---- sweep --collect: the issue's reproducer, relative link and all ----
ln -s ../victim sw/.sweep.csv.tmp
expect "sweep --collect, ../victim at .sweep.csv.tmp" 0 "" \
	"$C" sweep --collect sw --quiet
plant sw .sweep.csv.tmp .sweep-summary.csv.tmp .sweep.columns.json.tmp \
	.pareto.png.tmp .pareto.svg.tmp
expect "sweep --collect, links at the fixed temporary names" 0 "" \
	"$C" sweep --collect sw --quiet
plant sw sweep.csv sweep-summary.csv sweep.columns.json pareto.png pareto.svg
expect "sweep --collect, links at its outputs" 0 "" "$C" sweep --collect sw --quiet
[ -f sw/sweep.csv ] && [ ! -L sw/sweep.csv ] && [ -f sw/pareto.png ] &&
	ok "sweep --collect: the links replaced by the outputs" ||
	bad "sweep --collect: sweep.csv or pareto.png not written"
plant sw pareto-data/
expect "sweep --collect, pareto-data a link to a directory" 0 "" \
	"$C" sweep --collect sw --quiet
plant sw/pareto-data pareto.dat pareto-front.dat vars.gp
expect "sweep --collect, links inside pareto-data" 0 "" \
	"$C" sweep --collect sw --quiet

# ---- sweep --resume: an unfinished sweep, points planted ----
"$C" sweep w.json "$@" --quiet -o sr 2>/dev/null || bad "setup: sweep to resume"
unfinish() {	# the points named lose their run: --resume makes them again
	for p; do rm -rf "sr/points/$p/run"; done
}
unfinish 0002
plant sr/points/0002 w.json point.json run.log
expect "sweep --resume, links at an unfinished point's files" 0 "" \
	"$C" sweep w.json "$@" --quiet -o sr --resume
[ -s sr/points/0002/run/summary.json ] && [ ! -L sr/points/0002/point.json ] &&
	ok "sweep --resume: the point ran, its files its own" ||
	bad "sweep --resume: point 2 did not run: $(head -c 300 err.txt)"
# a point directory replaced by a link to a directory that looks like one
unfinish 0003
rm -rf victimdir && cp -r sr/points/0003 victimdir && echo code > victimdir/keep.txt
rm -rf sr/points/0003 && ln -s "$tmp/victimdir" sr/points/0003
expect "sweep --resume, a point directory a link to another" 2 "sr/points/0003" \
	"$C" sweep w.json "$@" --quiet -o sr --resume
[ ! -e victimdir/run ] && ok "sweep --resume: no run/ made through the link" ||
	bad "sweep --resume: run/ made in the linked directory"
rm sr/points/0003 && cp -r victimdir sr/points/0003 && rm sr/points/0003/keep.txt
victims
# points/ itself a link
mv sr/points sr-points && ln -s "$tmp/sr-points" sr/points
expect "sweep --resume, points/ a link to a directory" 2 "sr/points" \
	"$C" sweep w.json "$@" --quiet -o sr --resume
rm sr/points && mv sr-points sr/points
# a point directory capsim did not make: no marker, or another sweep's
unfinish 0004
rm sr/points/0004/.capsim-output
expect "sweep --resume, a point directory without capsim's marker" 2 "sr/points/0004" \
	"$C" sweep w.json "$@" --quiet -o sr --resume
"$C" sweep w.json "$@" --quiet -o other 2>/dev/null || bad "setup: another sweep"
cp other/points/0004/.capsim-output sr/points/0004/
expect "sweep --resume, a point directory of another sweep" 2 "sr/points/0004" \
	"$C" sweep w.json "$@" --quiet -o sr --resume

# ---- sweep --emit-jobs ----
"$C" sweep w.json "$@" --quiet -o e1 --emit-jobs jobs 2>/dev/null || bad "setup: --emit-jobs"
# the issue's reproducer: FILE a workload, FILE.slurm capsim's
cp w.json wb.json
cp jobs.slurm wb.json.slurm
expect "sweep --emit-jobs FILE, FILE a workload beside a capsim FILE.slurm" 2 \
	"wb.json exists and was not written by capsim" \
	"$C" sweep w.json "$@" --quiet -o e2 --emit-jobs wb.json
cmp -s w.json wb.json && ok "--emit-jobs: the workload intact" ||
	bad "--emit-jobs: wb.json was replaced"
expect "sweep --emit-jobs again onto its own pair" 0 "" \
	"$C" sweep w.json "$@" --quiet -o e1 --emit-jobs jobs
plant . jobs
expect "sweep --emit-jobs FILE, FILE a link" 2 "is not a regular file" \
	"$C" sweep w.json "$@" --quiet -o e1 --emit-jobs jobs
rm jobs
plant . jobs.slurm
expect "sweep --emit-jobs FILE, FILE.slurm a link" 2 "is not a regular file" \
	"$C" sweep w.json "$@" --quiet -o e1 --emit-jobs jobs
rm jobs.slurm

# ---- capsim import and import-check ----
plant . imp.json
expect "import -o FILE, FILE a link" 2 "" "$C" import r/trace.txt -o imp.json
rm imp.json
"$C" import r/trace.txt -o imp.json 2>/dev/null || bad "setup: import"
expect "import -o FILE, its own earlier FILE" 0 "" "$C" import r/trace.txt -o imp.json
plant . icd/
expect "import --check DIR, DIR a link to a directory" 2 "" \
	"$C" import r/trace.txt -o imp.json --check icd --quiet
rm icd
"$C" import-check r/trace.txt imp.json -o ic --quiet 2>/dev/null || bad "setup: import-check"
plant ic import-check.json import-check.md import-check.png data/ sim/
expect "import-check -o DIR, links inside" 0 "" \
	"$C" import-check r/trace.txt imp.json -o ic --quiet

# ---- capsim xcheck on a saved guest trace (level 2 fails on it: 1) ----
"$C" xcheck "$xw" --guest-trace "$fx" --quiet -o xc >/dev/null 2>&1
plant xc xcheck.json xcheck.md xcheck-freq.png plot-vars.gp sim.log guest/ sim/
expect "xcheck -o DIR, links inside" 1 "" \
	"$C" xcheck "$xw" --guest-trace "$fx" --quiet -o xc

# ---- capsim trace-dat ----
plant . out.dat
expect "trace-dat IN OUT, OUT a link" 2 "not replaced" \
	"$C" trace-dat r/trace.txt out.dat

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

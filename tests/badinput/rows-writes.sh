# Bad-input rows of issue 36, items 1 and 2 (sourced by table.sh: fresh,
# workload, row, $W, $tmp, $T, $G): names capsim did not create, and the
# Slurm script's environment. Each is refused (exit 2, nothing written
# beside the row's directory, the victim intact) or, where a planted link
# is replaced rather than followed, accepted with the victim intact.
# tests/safety/planted-links.sh and slurm-env.sh are the whole cases.

# victim_intact NAME: ./victim still holds what setup_victim put there
setup_victim() { echo precious >victim; }
victim_intact() {
	if [ "$(cat victim 2>/dev/null)" = precious ]; then
		pass=$((pass + 1)); echo "ok   $1: the victim intact"
	else
		fail=$((fail + 1)); echo "FAIL $1: the victim was written through a link"
	fi
}
S_SET="--set tasks.t.run=1000,2000 --policies rfc --duration 0.01 --quiet"

# --emit-jobs FILE, FILE a workload beside a FILE.slurm capsim wrote
# (jobs_path_check() read only the .slurm: the workload was replaced)
fresh; workload "{ $G, $T }"
$W sweep w.json $S_SET -o e1 --emit-jobs jobs >/dev/null 2>&1
cp w.json wb.json && cp jobs.slurm wb.json.slurm
row "sweep --emit-jobs FILE, FILE a workload, FILE.slurm capsim's (was replaced)" 2 \
	"capsim: --emit-jobs wb.json: wb.json exists and was not written by capsim" 10 256 \
	$W sweep w.json $S_SET -o e2 --emit-jobs wb.json

# sweep --collect through a link planted at the old fixed temporary name
fresh; workload "{ $G, $T }"; setup_victim
$W sweep w.json $S_SET -o sw >/dev/null 2>&1
ln -s ../victim sw/.sweep.csv.tmp
row "sweep --collect, a link at .sweep.csv.tmp (was written through)" 0 "" 30 512 \
	$W sweep --collect sw --quiet
victim_intact "sweep --collect, a link at .sweep.csv.tmp"
ln -sf ../victim sw/sweep.csv
row "sweep --collect, a link at sweep.csv" 0 "" 30 512 $W sweep --collect sw --quiet
victim_intact "sweep --collect, a link at sweep.csv"

# sweep --resume: a point directory replaced by a link, one without the
# marker, a sweep.json without an id (an older capsim's)
fresh; workload "{ $G, $T }"
$W sweep w.json $S_SET -o sr >/dev/null 2>&1
mkdir elsewhere && cp sr/points/0002/point.json elsewhere/
rm -rf sr/points/0002 && ln -s ../../elsewhere sr/points/0002
row "sweep --resume, a point directory a link (was written through)" 2 \
	"capsim: --resume: sr/points/0002: a symbolic link: not a point directory this sweep made" 10 256 \
	$W sweep w.json $S_SET -o sr --resume
[ "$(ls -A elsewhere)" = point.json ] && { pass=$((pass + 1)); echo "ok   sweep --resume: the linked directory intact"; } ||
	{ fail=$((fail + 1)); echo "FAIL sweep --resume: wrote into the linked directory: $(ls -A elsewhere)"; }
rm sr/points/0002 && mkdir sr/points/0002
row "sweep --resume, a point directory without the marker" 2 \
	"sr/points/0002: no marker of this sweep in it" 10 256 \
	$W sweep w.json $S_SET -o sr --resume
sed 's/"id": "[0-9a-f]*",//' sr/sweep.json >sr/sweep.json.new && mv sr/sweep.json.new sr/sweep.json
row "sweep --resume of a sweep without an id" 2 "has no sweep id" 10 256 \
	$W sweep w.json $S_SET -o sr --resume

# the Slurm script's environment (was: bash ran the command in the subscript)
fresh; workload "{ $G, $T }"
$W sweep w.json $S_SET -o e --emit-jobs jobs >/dev/null 2>&1
row "jobs.slurm under bash, CAPSIM_JOBS_OFFSET='x[\$(touch F)]' (was run)" 2 \
	"capsim sweep: CAPSIM_JOBS_OFFSET is not a decimal number" 10 256 \
	env CAPSIM_JOBS_OFFSET='x[$(touch F)]' SLURM_ARRAY_TASK_ID=1 bash ./jobs.slurm
row "jobs.slurm under dash, SLURM_ARRAY_TASK_ID='1;touch F'" 2 \
	"capsim sweep: SLURM_ARRAY_TASK_ID is not a decimal number" 10 256 \
	env SLURM_ARRAY_TASK_ID='1;touch F' dash ./jobs.slurm
row "jobs.slurm, SLURM_ARRAY_TASK_ID empty" 2 \
	"capsim sweep: SLURM_ARRAY_TASK_ID is not a decimal number" 10 256 \
	env SLURM_ARRAY_TASK_ID= sh ./jobs.slurm
row "jobs.slurm, CAPSIM_JOBS_OFFSET=-1" 2 \
	"capsim sweep: CAPSIM_JOBS_OFFSET is not a decimal number" 10 256 \
	env CAPSIM_JOBS_OFFSET=-1 SLURM_ARRAY_TASK_ID=1 sh ./jobs.slurm
row "jobs.slurm, SLURM_ARRAY_TASK_ID of 20 digits" 2 \
	"capsim sweep: SLURM_ARRAY_TASK_ID is not a decimal number" 10 256 \
	env SLURM_ARRAY_TASK_ID=99999999999999999999 sh ./jobs.slurm

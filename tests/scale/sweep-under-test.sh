# The sweep both scale tests run (sourced by slurm.sh and parallel.sh):
# 4 capacity caps x 3 policies = 12 points of 2 s simulated, 0.2 s in all
# when run locally. Needs $capsim (the binary) and $src (the source tree).
sweep_points=12
sweep_cmd() {	# OUTDIR [more sweep options]
	"$capsim" sweep "$src/traces/whatif-bg-cap.json" \
		--set 'capsim.taskgroups./bg.capacity_max=256:1024:256' \
		--drop capsim.events --duration 2 --seed 3 -o "$@"
}

# Rows of the bad-input table (sourced by table.sh): capsim import of a
# hostile or careless trace or command line (issue 36). Each is refused
# (exit 2) with its file:line:column where a trace line is at fault, in
# bounded time and memory, and writes nothing: no workload, no --check
# directory. tests/import/run.sh's `validity` case keeps the traces that
# must import (a path normalised, names made unique).

# imp_trace [LINE...]: t.txt, a task woken and run six times on CPU 0 at
# 1.00, 1.01, ... s, the LINEs (ftrace event text, each on CPU 0 at
# 1.000000 s) before the first
imp_trace() {
	{ echo '# tracer: nop'
	  echo '  <idle>-0 [000] 1.000000: cpu_frequency: state=2500000 cpu_id=0'
	  for l in "$@"; do
		printf '  <idle>-0 [000] 1.000000: %s\n' "$l"
	  done
	  for i in 0 1 2 3 4 5; do
		echo "  <idle>-0 [000] 1.0${i}0000: sched_wakeup: comm=app pid=100 prio=120 target_cpu=000"
		echo "  <idle>-0 [000] 1.0${i}0000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 next_prio=120"
		echo "  app-100 [000] 1.0${i}2000: sched_switch: prev_comm=app prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	  done; } >t.txt
}

# cw PATH MIN MAX: a successful cap_clamp_write of group 1
cw() {
	echo "cap_clamp_write: group=1 path=$1 attr=capacity_max value=$3 ret=0 min=$2 max=$3"
}

fresh; imp_trace "$(cw /a/.. 0 256)"
row "import: group path /a/.." 2 \
	"t.txt:3:58: error: group 1's path /a/..: \".\" and \"..\" name no cgroup" \
	10 256 $W import t.txt -o w.json

fresh; imp_trace "$(cw "/$(head -c 60000 /dev/zero | tr '\0' a)" 0 256)"
row "import: group name of 60 kB" 2 \
	"t.txt:3:58: error: group 1's path /aaaa" 10 256 $W import t.txt -o w.json

fresh; imp_trace "$(cw "$(awk 'BEGIN { for (i = 0; i < 2100; i++) printf "/ab" }')" 0 256)"
row "import: group path of 6 kB" 2 \
	"longer than the kernel's PATH_MAX (4096 with its NUL): no cgroup the kernel has" \
	10 256 $W import t.txt -o w.json

fresh; imp_trace "$(cw /bad 900 100)"
row "import: group min 900 > max 100" 2 \
	"t.txt:3:101: error: group /bad: a successful write leaves capacity_min 900 above capacity_max 100" \
	10 256 $W import t.txt -o w.json

fresh; imp_trace "$(cw /p 0 256)" \
	"cap_clamp_write: group=2 path=/p/c attr=capacity_max value=1024 ret=0 min=0 max=1024"
row "import: group wider than its parent" 2 \
	"t.txt:4:58: error: group /p/c: its range [0, 1024] at the window's start is not within its ancestor /p's [0, 256]" \
	10 256 $W import t.txt -o w.json

fresh; imp_trace
row "import --tasks with a back-reference" 2 \
	"--tasks: back-reference \\1 at offset 6: not taken" \
	10 256 $W import t.txt -o w.json --tasks '^(a*)*\1b$'

fresh; imp_trace
row "import-check --tasks with a back-reference" 2 \
	"is no POSIX extended regular expression capsim takes: back-reference \\2" \
	10 256 $W import-check t.txt t.txt -o ck --tasks '(a)(b)\2'

fresh; imp_trace
row "import -o ''" 2 "-o is an empty path" 10 256 $W import t.txt -o ''

fresh; imp_trace; mkdir tgt; ln -s tgt ck
row "import --check DIR a symbolic link" 2 \
	"ck is a symbolic link: name the directory itself with --check" \
	10 256 $W import t.txt -o w.json --check ck

fresh; imp_trace
row "import --check DIR holding -o" 2 \
	"ck would hold the workload -o ck/w.json, which the check's directory replaces" \
	10 256 $W import t.txt -o ck/w.json --check ck

fresh; imp_trace; mkdir ck
row "import --check DIR holding -o by another name" 2 \
	"ck would hold the workload -o ck/../ck/w.json" \
	10 256 $W import t.txt -o ck/../ck/w.json --check ck

fresh; imp_trace
row "import --window past the trace's end" 2 \
	"t.txt: error: the window starts at 5.000000 s, after the trace's last event (0.052000 s from its start)" \
	10 256 $W import t.txt -o w.json --window 5:6

fresh; imp_trace; cp "$SRC/traces/platforms/sym4.json" "p$(printf '\377').json"
row "import --platform FILE whose path is not UTF-8" 2 \
	"--platform: the file's path is not valid UTF-8" \
	10 256 $W import t.txt -o w.json --platform "./p$(printf '\377').json"

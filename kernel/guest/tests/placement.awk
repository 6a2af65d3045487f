# Why each wake-up of one task landed where it did, read from the
# scheduler's own events (sched_switch, sched_waking, sched_wakeup). A
# share of wake-ups on LITTLE CPUs says where the task went; this says
# whether the wake-up path could explain it without EAS. Without EAS,
# select_idle_sibling() keeps a fitting task on its previous CPU while
# that CPU is idle and looks elsewhere only when it is busy; leaving an
# idle previous CPU is what find_energy_efficient_cpu() does.
#
#   awk -v pid=P -v little="0 3 4 5" -f fields.awk -f placement.awk TRACE
#
# Prints one line of counts, name=value:
#   wakeups    wake-ups of P whose previous CPU's state was known
#   on_little  ... placed on a CPU listed in little
#   stay       ... placed on the previous CPU
#   left_busy  ... placed elsewhere, the previous CPU running a task
#   left_idle  ... placed elsewhere, the previous CPU idle at sched_waking
#              (the waker's CPU chooses right after that event)
#   unknown    wake-ups before the previous CPU's state was seen
function cpu_of(line) {
	if (!match(line, /\[[0-9]+\]/))
		return -1
	return substr(line, RSTART + 1, RLENGTH - 2) + 0
}
BEGIN {
	n = split(little, l, " ")
	for (i = 1; i <= n; i++)
		is_little[l[i] + 0] = 1
	prev = -1
	wakeups = on_little = stay = left_busy = left_idle = unknown = 0
}
/ sched_switch: / {
	c = cpu_of($0)
	running[c] = field($0, "next_pid")
	if (field($0, "prev_pid") == pid)
		prev = c
	next
}
/ sched_waking: / {
	if (field($0, "pid") != pid)
		next
	# the state select_task_rq() is about to see
	from = prev
	from_known = from >= 0 && (from in running)
	from_idle = from_known && running[from] == 0
	next
}
/ sched_wakeup: / {
	if (field($0, "pid") != pid)
		next
	if (!from_known) {
		unknown++
		next
	}
	to = field($0, "target_cpu")
	wakeups++
	if (to in is_little)
		on_little++
	if (to == from)
		stay++
	else if (from_idle)
		left_idle++
	else
		left_busy++
	from_known = 0
}
END {
	printf "wakeups=%d on_little=%d stay=%d left_busy=%d left_idle=%d " \
	    "unknown=%d\n", wakeups, on_little, stay, left_busy, left_idle,
	    unknown
}

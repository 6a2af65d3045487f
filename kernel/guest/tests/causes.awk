# The causes of schedutil's decisions, read from patch 11's events
# (capsim_sugov_cpu, one line per CPU of the policy, then capsim_sugov on
# the same CPU). A residency share says how often the top OPP ran; this
# says why: which CPU's range let it through. Timing under TCG follows the
# host's load, the causes do not.
#
# A second copy, on purpose, of one rule of src/xcheck/e2e.c (level 4's
# "why a CPU was busy above its capacity_max"): the CPU whose range lets
# a decision's frequency through is the non-idle one with the highest
# clamp_max. This script runs in the guest's busybox shell and counts
# decisions; e2e.c charges busy time to task pairs. e2e.c also counts an
# idle caller of a remote update (sugov_line_counts()), this script does
# not: top_race holds what that leaves. Change the rule in both
# (docs/architecture.md, "Who owns what").
#
#   awk -v cpu=C -v cap=M -f fields.awk -f causes.awk TRACE
#
# C is the CPU the task under test runs on, M its group's capacity_max.
# Prints one line of counts, name=value:
#   decisions  every capsim_sugov line with its CPU lines seen
#   top        decisions asking for the top OPP (perf > 819 on sym4)
#   top_other  ... with a non-idle CPU other than C whose range max > M
#              (an uncapped task elsewhere lifted the domain, the RFC's rule)
#   top_same   ... with C itself above M (an uncapped task sharing C)
#   top_idle   ... with every CPU idle (no range applies)
#   top_race   ... with a non-idle CPU and none above M: the lines do
#              not explain the decision's max (> 819 needs a range above
#              M), so the decision read a range the lines did not see:
#              the unlocked remote read (docs/xcheck.md, level 2)
#   over       decisions whose own max <= M ask for perf > M: the capped
#              task driving the frequency past its cap
#   rt_capped  C's lines with a RUNNABLE RT task and range max M
#   rt_top     top decisions with C RT-RUNNABLE at range max 1024
#   boosted    decisions with C non-idle at range min >= 819
#   boost_low  ... of them asking for perf < 819
/: capsim_sugov_cpu: / {
	c = $2
	lines[c, field($0, "cpu")] = $0
	seen[c] = 1
	if (field($0, "cpu") == cpu && field($0, "rt_runnable") == 1 &&
	    field($0, "clamp_max") == cap)
		rt_capped++
	next
}
/: capsim_sugov: / {
	c = $2
	if (!seen[c])
		next
	decisions++
	perf = field($0, "perf")
	if (field($0, "max") <= cap && perf > cap)
		over++
	other = same = busy = 0
	for (k = 0; k < 64; k++) {
		if (!((c, k) in lines))
			continue
		l = lines[c, k]
		if (field(l, "idle") == 1)
			continue
		busy = 1
		if (field(l, "clamp_max") > cap) {
			if (k == cpu)
				same = 1
			else
				other = 1
		}
		if (k == cpu && field(l, "clamp_min") >= 819) {
			boosted++
			if (perf < 819)
				boost_low++
		}
	}
	if (perf > 819) {
		top++
		if (other)
			top_other++
		else if (same)
			top_same++
		else if (!busy)
			top_idle++
		else
			top_race++
		l = lines[c, cpu]
		if (field(l, "rt_runnable") == 1 && field(l, "clamp_max") == 1024)
			rt_top++
	}
	for (k = 0; k < 64; k++)
		delete lines[c, k]
	seen[c] = 0
}
END {
	printf "decisions=%d top=%d top_other=%d top_same=%d top_idle=%d top_race=%d over=%d rt_capped=%d rt_top=%d boosted=%d boost_low=%d\n",
	       decisions, top, top_other, top_same, top_idle, top_race, over,
	       rt_capped, rt_top, boosted, boost_low
}

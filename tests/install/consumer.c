/* A program outside the tree, built only from the installed package. */
#include <stdio.h>
#include <linux/sched/cap_clamp.h>

int main(void)
{
	struct cap_clamp_cpu cc;
	struct cap_clamp_range r;

	cap_clamp_cpu_init(&cc);
	cap_clamp_cpu_range(&cc, &r);
	printf("%u %u\n", r.min, r.max);
	return !(r.min == 0 && r.max == 1024);
}

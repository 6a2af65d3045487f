/*
 * The kernel tree carries the core's header as <linux/sched/cap_clamp.h>;
 * in user space that name forwards to the one copy in src/core/.
 */
#include "../../../../core/cap_clamp.h"

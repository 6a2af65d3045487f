/*
 * One parsed op-log line applied to a clamp host: what capsim-replay does
 * for each line, shared with the op-log fuzzer so that both drive the core
 * the same way.
 */
#ifndef CAPSIM_OPLOG_APPLY_H
#define CAPSIM_OPLOG_APPLY_H

#include <stdio.h>

#include "clamp_host.h"
#include "oplog.h"

/*
 * Apply @op; the answers (ok/EINVAL of a write, a range) go to @out.
 * Returns 0, or a negative errno with *@why the message (-ENOMEM is the
 * only one that is not the log's fault; an EINVAL from the core is an
 * answer, not an error).
 */
int oplog_apply(struct clamp_host *h, const struct op *op, FILE *out,
		const char **why);

#endif

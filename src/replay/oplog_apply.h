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
 * Returns HOST_OK, or the host's error for an inconsistent operation
 * (an EINVAL from the core is an answer, not an error).
 */
int oplog_apply(struct clamp_host *h, const struct op *op, FILE *out);

#endif

/* One op-log line applied to a clamp host (see oplog_apply.h). */
#include "oplog_apply.h"

int oplog_apply(struct clamp_host *h, const struct op *op, FILE *out)
{
	struct cap_clamp_range r;
	int err = HOST_OK;

	switch (op->kind) {
	case OP_NONE:
		break;
	case OP_GROUP:
		err = clamp_host_group_create(h, op->path);
		break;
	case OP_WRITE:
		err = clamp_host_write(h, op->path, op->clamp_id, op->value);
		if (err == HOST_OK || err == HOST_EINVAL) {
			fputs(err ? "EINVAL\n" : "ok\n", out);
			err = HOST_OK;
		}
		break;
	case OP_ENQUEUE:
		err = clamp_host_enqueue(h, op->entity, op->cpu, op->path);
		break;
	case OP_DEQUEUE:
		err = clamp_host_dequeue(h, op->entity);
		break;
	case OP_MOVE:
		err = clamp_host_move(h, op->entity, op->path);
		break;
	case OP_RANGE:
		err = clamp_host_range(h, op->cpu, &r);
		if (!err)
			fprintf(out, "cpu=%u min=%u max=%u\n", op->cpu, r.min,
				r.max);
		break;
	}
	return err;
}

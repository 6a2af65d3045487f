/* One op-log line applied to a clamp host (see oplog_apply.h). */
#include <linux/errno.h>

#include "oplog_apply.h"

/* The group @path names, or NULL with *@why set */
static struct host_group *group_of(struct clamp_host *h, const struct op *op,
				   const char **why)
{
	struct host_group *g = clamp_host_group(h, op->path);

	if (!g)
		*why = "no such group";
	return g;
}

int oplog_apply(struct clamp_host *h, const struct op *op, FILE *out,
		const char **why)
{
	struct host_entity *e = NULL;
	struct host_group *g = NULL;
	struct cap_clamp_range r;
	int err = 0;

	*why = NULL;
	if ((op->kind == OP_WRITE || op->kind == OP_ENQUEUE ||
	     op->kind == OP_MOVE) && !(g = group_of(h, op, why)))
		return -ENOENT;
	if (op->kind == OP_ENQUEUE || op->kind == OP_MOVE)
		err = clamp_host_entity_get(h, op->entity, &e);
	else if (op->kind == OP_DEQUEUE && !(e = clamp_host_entity(h, op->entity))) {
		*why = "no such entity";
		return -ENOENT;
	}
	if (err)
		return err;

	switch (op->kind) {
	case OP_NONE:
		break;
	case OP_GROUP:
		err = clamp_host_group_create(h, op->path, NULL);
		if (err == -ENOENT)
			*why = "parent group does not exist";
		break;
	case OP_WRITE:
		err = clamp_host_write(h, g, op->clamp_id, op->value);
		if (!err || err == -EINVAL) {
			fputs(err ? "EINVAL\n" : "ok\n", out);
			err = 0;
		}
		break;
	case OP_ENQUEUE:
		err = clamp_host_enqueue(h, e, op->cpu, g);
		break;
	case OP_DEQUEUE:
		err = clamp_host_dequeue(h, e);
		break;
	case OP_MOVE:
		err = clamp_host_move(h, e, g);
		break;
	case OP_RANGE:
		err = clamp_host_range(h, op->cpu, &r);
		if (!err)
			fprintf(out, "cpu=%u min=%u max=%u\n", op->cpu, r.min,
				r.max);
		break;
	}
	if (err > 0)		/* "the range changed" is no error here */
		err = 0;
	if (err && !*why)
		*why = clamp_host_strerror(err);
	return err;
}

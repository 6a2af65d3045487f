/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory protobuf-c decodes one Perfetto packet into (its
 * ProtobufCAllocator, for perfetto_reader.c): bump allocation through a
 * list of chunks, all of it dropped when the packet is done, the chunks
 * kept for the next (up to PF_KEEP). Bounded: protobuf-c's structs take
 * a few times the bytes they come from (an empty FtraceEvent, 2 bytes on
 * the wire, is ~60 in memory), so a packet needing more than
 * PF_DECODED_MAX is refused (the allocation fails, `full` says why)
 * rather than decoded into gigabytes.
 */
#ifndef CAPSIM_PERFETTO_ARENA_H
#define CAPSIM_PERFETTO_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

#define PF_DECODED_MAX (512u << 20)
#define PF_CHUNK (1u << 20)
#define PF_KEEP (8u << 20)

struct pf_chunk;

struct pf_arena {
	ProtobufCAllocator alloc;	/* hand this to protobuf-c */
	struct pf_chunk *head, *cur, *tail;
	size_t total;
	bool full;		/* an allocation failed: PF_DECODED_MAX */
};

void pf_arena_init(struct pf_arena *a);
/* Ready for the next packet (@all: nothing kept, as at the end) */
void pf_arena_reset(struct pf_arena *a, bool all);

#endif

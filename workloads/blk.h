/*
 * A paravirtual disk: blkfront in a guest, blkback in dom0, and the
 * physical disk behind it (Linux drivers/block/xen-blkfront.c and
 * drivers/block/xen-blkback/).
 *
 *   guest task -- blk_submit --> ring --evtchn--> dom0 IRQ (wakes kthread)
 *   dom0 blkback kthread: claims requests, maps and issues them -> disk
 *   disk completion -> dom0 IRQ: makes the responses --evtchn--> guest IRQ
 *   guest blkfront IRQ: consumes responses, completes the waiters, and
 *   puts requests that found the ring full into it.
 *
 * The disk serves requests in parallel, each after a service time drawn
 * from 'disk' plus bytes / disk_bw.
 */
#ifndef SCHEDSIM_BLK_H
#define SCHEDSIM_BLK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/dist.h"
#include "workloads/split.h"

struct blk_params {
	int ring_size;            /* requests (32: one 4 KiB page) */
	int batch;                /* requests blkback claims per pass */
	stime_t front_cost;       /* guest CPU per response (blkfront IRQ) */
	stime_t back_irq_cost;    /* dom0 CPU per notification (wake the kthread) */
	stime_t back_cost;        /* dom0 CPU per request (blkback kthread) */
	stime_t complete_cost;    /* dom0 CPU per completion (make the response) */
	stime_t evtchn_latency;
	struct dist disk;         /* disk service time */
	double disk_bw;           /* bytes per second (0: no transfer time) */
	int guest_vcpu;           /* blkfront's event channel target */
	int dom0_vcpu;            /* blkback's event channel and disk IRQ */
};

typedef void (*blk_done_fn)(struct sim *s, void *cookie);

struct blk_req {
	bool write;
	uint32_t bytes;
	blk_done_fn done;
	void *cookie;
};

struct blk_slot {              /* an in-flight request, by id */
	struct blkdev *b;
	struct blk_req req;
	struct timer disk_timer;
};

struct blkdev {
	struct sim *sim;
	struct blk_params p;
	struct rng *rng;
	struct ring ring;
	int *req_ids, *rsp_ids;        /* ring slot contents */
	struct blk_slot *slots;
	int *free_ids, nfree;
	struct blk_req *waitq;         /* submitted while the ring was full */
	int wq_head, wq_len, wq_cap;
	int *completed, ncompleted;    /* disk done, response not made yet */
	int *claimed, nclaimed;        /* blkback's batch */
	int *finished, nfinished;      /* the disk IRQ's batch */
	int *reaped, nreaped;          /* blkfront's batch */
	struct worker *front_irq, *back_irq, *kthread, *disk_irq;
	struct evtchn to_back, to_front;
	uint64_t requests, completions;
};

/* Sets up a disk between guest g and dom0 guest d0; rng draws service times. */
struct blkdev *blk_create(struct sim *s, struct guest *g, struct guest *d0,
			  const struct blk_params *p, struct rng *rng, const char *name);
/* Queues a request; done(cookie) runs when blkfront has its response. */
void blk_submit(struct blkdev *b, bool write, uint32_t bytes, blk_done_fn done,
		void *cookie);
void blk_free(struct blkdev *b);

#endif

/*
 * Xen's side of the shim: plays the part of xen/common/sched/core.c (and
 * the bits of the rest of the hypervisor) around one of Xen's scheduler
 * files, for the simulator's core.
 *
 * The simulator's core decides when things happen (wake, sleep, schedule,
 * context switch, migration); this file turns each of those moments into
 * the calls Xen's core.c makes at the same moment, with the same locks
 * held, and keeps Xen's view of the world (sched_resource::curr,
 * unit->is_running, state_entry_time, v->processor, pause flags) in step
 * with the simulator's:
 *
 *  - pause state flows in: on every entry, each Xen vCPU's pause flags and
 *    pause count are reloaded from its simulated twin (only _VPF_parked is
 *    Xen's own, set by credit2's caps);
 *  - placement, parking and migration requests flow out: on every exit
 *    (and before any call back into the simulator) v->processor,
 *    _VPF_parked and a _VPF_migrating the scheduler set go back; only the
 *    core clears _VPF_migrating, as in Xen.
 *
 * Everything hangs off struct xs_ctx; xs_cur points at the context whose
 * code runs, and enter()/leave() save and restore it, so nested entries
 * (credit1 pausing a vCPU from its accounting timer) and several
 * simulations in one process both work.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/softirq.h>
#include <xen/bitmap.h>
#include <xen/err.h>
#include <xen/param.h>

#include "xen-shim/iface.h"
#include "xen-shim/bridge.h"

#ifndef XS_TREE_SYMBOL
#error "XS_TREE_SYMBOL, XS_TREE_NAME and XS_TREE_VERSION are set per tree by the build"
#endif

/* Header of each of Xen's allocations (see _xzalloc). */
struct xs_alloc {
	struct xs_alloc *prev, *next;
};

struct xs_ctx {
	const struct xs_module *m;
	struct xs_host h;
	struct xs_params p;
	struct scheduler ops;           /* this instance's struct scheduler */
	struct cpupool pool;
	struct domain idle_dom;
	struct vcpu **idle;             /* per pCPU */
#if XS_IFACE != XS_IFACE_VCPU
	struct sched_resource **res;    /* per pCPU */
#endif
	struct cpuinfo_x86 *cpu_info;   /* per pCPU: cpu_data */
	bool *tick_suspended;           /* per pCPU: the idle driver stopped its tick */
	void *percpu[XS_PCPU_NR_IDS];
	size_t percpu_size[XS_PCPU_NR_IDS];
	cpumask_t online;
	cpumask_t res_mask;             /* sched_res_mask: online but the threads after a master */
	cpumask_t *node_masks;
	nodemask_t nodes_online;
	struct vcpu **vcpus;            /* every guest vCPU, for the pause sync */
	int nr_vcpus, cap_vcpus;
	struct timer **timers;          /* every live (not killed) timer, freed at the end */
	int nr_timers, cap_timers;
	int cpu;                        /* pCPU whose code runs, -1: the simulator's */
	FILE *dump;                     /* printk goes here while dumping, else nowhere */
	struct xs_alloc allocs;         /* list head of Xen's allocations */
};

/* The globals Xen's code names; reloaded from the context on entry. */
struct xs_ctx *xs_cur;
unsigned int nr_cpu_ids;
int sched_ratelimit_us = SCHED_DEFAULT_RATELIMIT_US;
cpumask_t cpu_online_map;
nodemask_t xs_node_online_map;
cpumask_t cpupool_free_cpus;
struct cpupool *cpupool0;
char keyhandler_scratch[1024];
enum system_state system_state = SYS_STATE_active;   /* kernel.h's */
#if XS_IFACE != XS_IFACE_VCPU
cpumask_t sched_res_mask;
DEFINE_RCU_READ_LOCK(sched_res_rculock);
#endif

#define XS_BIT(n) [(n) + 1][0] = 1UL << (n)
#define XS_BIT4(n) XS_BIT(n), XS_BIT((n) + 1), XS_BIT((n) + 2), XS_BIT((n) + 3)
#define XS_BIT16(n) XS_BIT4(n), XS_BIT4((n) + 4), XS_BIT4((n) + 8), XS_BIT4((n) + 12)
/* Row k + 1 has bit k set in its first word: cpumask_of() offsets into it. */
const unsigned long cpu_bit_bitmap[BITS_PER_LONG + 1][BITS_TO_LONGS(NR_CPUS)] = {
	XS_BIT16(0), XS_BIT16(16), XS_BIT16(32), XS_BIT16(48)
};

/* --- the runtime the stub headers declare --- */

void xs_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "xen-shim: %s failed at %s:%d\n", what, file, line);
	abort();
}

/*
 * Xen's "%*pb[l]" (printk) and bitmap_scnprintf / bitmap_scnlistprintf
 * (up to 2018): a bitmap of n bits as hex words or as a list, into buf
 * (always terminated); returns the characters written.
 */
static int format_bitmap(char *buf, size_t len, int nbits, const unsigned long *bits, bool list)
{
	size_t n = 0;
	int i, first = -1;

#define XS_PUT(...) do { \
	int w_ = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__); \
	n += w_ > 0 ? (size_t)w_ : 0; \
} while (0)
	if (len)
		buf[0] = '\0';
	if (!list) {
		for (i = (nbits - 1) / BITS_PER_LONG; i >= 0; i--)
			XS_PUT(i == (nbits - 1) / BITS_PER_LONG ? "%lx" : "%016lx", bits[i]);
	} else {
		for (i = 0; i <= nbits; i++) {
			bool set = i < nbits && test_bit(i, bits);

			if (set && first < 0)
				first = i;
			if (!set && first >= 0) {
				XS_PUT(n ? ",%d" : "%d", first);
				if (i - 1 > first)
					XS_PUT("-%d", i - 1);
				first = -1;
			}
		}
	}
#undef XS_PUT
	return (int)(n < len ? n : (len ? len - 1 : 0));
}

int bitmap_scnprintf(char *buf, unsigned int len, const unsigned long *bits, int nbits)
{
	return format_bitmap(buf, len, nbits, bits, false);
}

int bitmap_scnlistprintf(char *buf, unsigned int len, const unsigned long *bits, int nbits)
{
	return format_bitmap(buf, len, nbits, bits, true);
}

static void print_bitmap(FILE *f, int nbits, const unsigned long *bits, bool list)
{
	char buf[4 * NR_CPUS];

	format_bitmap(buf, sizeof(buf), nbits, bits, list);
	fputs(buf, f);
}

/*
 * printk with Xen's %*pb extension: each conversion is handed to
 * fprintf alone, with its argument fetched by its length modifier.
 */
static void xs_vprintk(FILE *f, const char *fmt, va_list ap)
{
	char spec[32];

	while (*fmt) {
		const char *start = fmt;
		size_t n;
		int lng = 0;

		if (*fmt != '%') {
			fputc(*fmt++, f);
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			fputc(*fmt++, f);
			continue;
		}
		if (fmt[0] == '*' && fmt[1] == 'p' && fmt[2] == 'b') {
			int nbits = va_arg(ap, int);
			const unsigned long *bits = va_arg(ap, const unsigned long *);

			fmt += 3;
			print_bitmap(f, nbits, bits, *fmt == 'l');
			if (*fmt == 'l')
				fmt++;
			continue;
		}
		while (*fmt && strchr("-+ #0123456789.", *fmt))
			fmt++;
		while (*fmt && strchr("hlzjt", *fmt)) {
			lng += *fmt == 'l' || *fmt == 'z' || *fmt == 'j' || *fmt == 't';
			fmt++;
		}
		if (!*fmt)
			break;
		n = (size_t)(fmt - start) + 1;
		if (n >= sizeof(spec)) {
			fmt++;
			continue;
		}
		memcpy(spec, start, n);
		spec[n] = '\0';
		switch (*fmt++) {
		case 'd': case 'i':
			if (lng)
				fprintf(f, spec, va_arg(ap, long));
			else
				fprintf(f, spec, va_arg(ap, int));
			break;
		case 'u': case 'x': case 'X': case 'o':
			if (lng)
				fprintf(f, spec, va_arg(ap, unsigned long));
			else
				fprintf(f, spec, va_arg(ap, unsigned int));
			break;
		case 'c':
			fprintf(f, spec, va_arg(ap, int));
			break;
		case 's':
			fprintf(f, spec, va_arg(ap, const char *));
			break;
		case 'p':
			fprintf(f, spec, va_arg(ap, void *));
			break;
		default:
			fputs(spec, f);
		}
	}
}

void xs_printk(const char *fmt, ...)
{
	va_list ap;

	if (!xs_cur || !xs_cur->dump)
		return;
	va_start(ap, fmt);
	xs_vprintk(xs_cur->dump, fmt, ap);
	va_end(ap);
}

void *xs_percpu_ptr(int id, size_t size, unsigned int cpu)
{
	struct xs_ctx *c = xs_cur;

	if (!c->percpu[id]) {
		c->percpu[id] = calloc(NR_CPUS, size);
		c->percpu_size[id] = size;
		if (!c->percpu[id])
			xs_bug(__FILE__, __LINE__, "per-cpu allocation");
	}
	ASSERT(cpu < NR_CPUS && size == c->percpu_size[id]);
	return (char *)c->percpu[id] + cpu * size;
}

unsigned int xs_this_cpu(void)
{
	return xs_cur->cpu >= 0 ? (unsigned int)xs_cur->cpu : 0;
}

int64_t xs_now(void)
{
	return xs_cur->h.now(xs_cur->h.sim);
}

void xs_raise_softirq(unsigned int cpu)
{
	xs_cur->h.tickle(xs_cur->h.sim, (int)cpu);
}

unsigned int xs_get_random(void)
{
	return xs_cur->h.random(xs_cur->h.sim);
}

bool xs_tracing(void)
{
	return xs_cur->h.tracing(xs_cur->h.sim);
}

void xs_trace(uint32_t event, unsigned int bytes, const void *data)
{
	uint32_t words[8] = { 0 };
	unsigned int n = bytes / 4 > 8 ? 8 : bytes / 4;

	if (n)
		memcpy(words, data, n * 4);
	xs_cur->h.trace(xs_cur->h.sim, (int)xs_this_cpu(), event, (int)n, words);
}

struct vcpu *xs_current(void)
{
	return XU_VCPU(XS_CPU_CURR(xs_this_cpu()));
}

const struct cpuinfo_x86 *xs_cpu_data(void)
{
	return xs_cur->cpu_info;
}

struct vcpu **xs_idle_vcpus(void)
{
	return xs_cur->idle;
}

unsigned int cpu_to_socket(unsigned int cpu)
{
	return (unsigned int)xs_cur->h.cpu_socket[cpu];
}

unsigned int cpu_to_core(unsigned int cpu)
{
	return (unsigned int)xs_cur->h.cpu_core[cpu];
}

unsigned int cpu_to_node(unsigned int cpu)
{
	return (unsigned int)xs_cur->h.cpu_node[cpu];
}

const cpumask_t *xs_node_to_cpumask(unsigned int node)
{
	return &xs_cur->node_masks[node];
}

int xs_parse_bool(const char *s, const char *e)
{
	return -1;
}

/*
 * Xen's allocations are listed in their context: at teardown the
 * simulator does not take pCPUs and domains down the way Xen does, so
 * what Xen's code would have freed then is freed with the context.
 * The header keeps the 16-byte alignment calloc gives.
 */
void *_xmalloc(unsigned long size, unsigned long align)
{
	return _xzalloc(size, align);
}

void *_xzalloc(unsigned long size, unsigned long align)
{
	struct xs_alloc *a = calloc(1, sizeof(*a) + size), *head = &xs_cur->allocs;

	if (!a || align > 16)
		xs_bug(__FILE__, __LINE__, "out of memory or alignment over 16");
	a->prev = head;
	a->next = head->next;
	head->next->prev = a;
	head->next = a;
	return a + 1;
}

void xfree(void *p)
{
	struct xs_alloc *a;

	if (!p)
		return;
	a = (struct xs_alloc *)p - 1;
	a->prev->next = a->next;
	a->next->prev = a->prev;
	free(a);
}

/*
 * --- bitmaps (Xen's common/bitmap.c, rewritten) ---
 * The bit count is an int, and an unsigned int from 2024 (XS_BITMAP_UINT).
 */
#ifdef XS_BITMAP_UINT
typedef unsigned int xs_nbits;
#else
typedef int xs_nbits;
#endif

static unsigned long last_word_mask(xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	return bits % BITS_PER_LONG ? (1UL << (bits % BITS_PER_LONG)) - 1 : ~0UL;
}

#define FOR_WORDS(k, bits) for ((k) = 0; (k) < BITS_TO_LONGS(bits); (k)++)
#define WORD_MASK(k, bits) ((k) == BITS_TO_LONGS(bits) - 1 ? last_word_mask(bits) : ~0UL)

int __bitmap_empty(const unsigned long *a, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		if (a[k] & WORD_MASK(k, bits))
			return 0;
	return 1;
}

int __bitmap_full(const unsigned long *a, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		if (~a[k] & WORD_MASK(k, bits))
			return 0;
	return 1;
}

int __bitmap_equal(const unsigned long *a, const unsigned long *b, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		if ((a[k] ^ b[k]) & WORD_MASK(k, bits))
			return 0;
	return 1;
}

void __bitmap_complement(unsigned long *d, const unsigned long *a, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		d[k] = ~a[k] & WORD_MASK(k, bits);
}

void __bitmap_and(unsigned long *d, const unsigned long *a, const unsigned long *b,
		  xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		d[k] = a[k] & b[k];
}

void __bitmap_or(unsigned long *d, const unsigned long *a, const unsigned long *b,
		 xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		d[k] = a[k] | b[k];
}

void __bitmap_xor(unsigned long *d, const unsigned long *a, const unsigned long *b,
		  xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		d[k] = a[k] ^ b[k];
}

void __bitmap_andnot(unsigned long *d, const unsigned long *a, const unsigned long *b,
		     xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		d[k] = a[k] & ~b[k];
}

int __bitmap_intersects(const unsigned long *a, const unsigned long *b, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		if (a[k] & b[k] & WORD_MASK(k, bits))
			return 1;
	return 0;
}

int __bitmap_subset(const unsigned long *a, const unsigned long *b, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;

	FOR_WORDS(k, bits)
		if (a[k] & ~b[k] & WORD_MASK(k, bits))
			return 0;
	return 1;
}

xs_nbits __bitmap_weight(const unsigned long *a, xs_nbits nbits)
{
	unsigned int bits = (unsigned int)nbits;
	unsigned int k;
	xs_nbits w = 0;

	FOR_WORDS(k, bits)
		w += __builtin_popcountl(a[k] & WORD_MASK(k, bits));
	return w;
}

void __bitmap_set(unsigned long *map, unsigned int start, int len)
{
	for (; len > 0; len--)
		set_bit((int)start++, map);
}

void __bitmap_clear(unsigned long *map, unsigned int start, int len)
{
	for (; len > 0; len--)
		clear_bit((int)start++, map);
}

unsigned int xs_find_next_bit(const unsigned long *addr, unsigned int size,
			      unsigned int off, bool zero)
{
	for (; off < size; off++) {
		unsigned long w = addr[off / BITS_PER_LONG];

		if (zero)
			w = ~w;
		if (!(off % BITS_PER_LONG) && !w) {
			off += BITS_PER_LONG - 1;
			continue;
		}
		if ((w >> (off % BITS_PER_LONG)) & 1)
			return off;
	}
	return size;
}

/* --- entering and leaving Xen's code --- */

static void sync_in(struct xs_ctx *c)
{
	int i;

	for (i = 0; i < c->nr_vcpus; i++) {
		struct vcpu *v = c->vcpus[i];
		struct xs_peer_state st;

		if (!v->xs_peer && v->xs_unit_peer)
			v->xs_peer = c->h.unit_member(v->xs_unit_peer, v->xs_member);
		if (!v->xs_peer)
			continue;
		c->h.peer_state(v->xs_peer, &st);
		v->pause_flags = (v->pause_flags & VPF_parked) | st.pause_flags;
		atomic_set(&v->pause_count, st.pause_count);
		/* Up to 4.12 the schedulers read the vCPU's runstate times. */
		v->runstate.state = st.runstate;
		v->runstate.state_entry_time = st.runstate_entry;
	}
}

static void sync_out(struct xs_ctx *c)
{
	int i;

	for (i = 0; i < c->nr_vcpus; i++) {
		struct vcpu *v = c->vcpus[i];

		void *peer = v->xs_peer;

		/* A unit of several vCPUs goes back whole, from its first. */
		if (v->xs_unit_peer) {
			if (v->xs_member != 0)
				continue;
			peer = v->xs_unit_peer;
		}
		if (!peer)
			continue;
		c->h.peer_update(c->h.sim, peer, (int)v->processor,
				 test_bit(_VPF_parked, &v->pause_flags),
				 test_bit(_VPF_migrating, &v->pause_flags));
	}
}

struct xs_saved {
	struct xs_ctx *ctx;
	int cpu;
};

static void load_globals(struct xs_ctx *c)
{
	xs_cur = c;
	nr_cpu_ids = (unsigned int)c->h.nr_cpus;
	sched_ratelimit_us = (int)(c->p.ratelimit_us >= 0 ? c->p.ratelimit_us :
				   SCHED_DEFAULT_RATELIMIT_US);
	cpu_online_map = c->online;
	xs_node_online_map = c->nodes_online;
	cpupool0 = &c->pool;
#if XS_IFACE != XS_IFACE_VCPU
	sched_res_mask = c->res_mask;
#endif
}

/*
 * Enters c's code as pCPU cpu: the simulator's current pCPU if it has
 * one, else the pCPU Xen would most likely run the path on (the vCPU's).
 */
static struct xs_saved enter(struct xs_ctx *c, int cpu)
{
	struct xs_saved s = { xs_cur, c->cpu };
	int sim_cpu = c->h.cur_cpu(c->h.sim);

	load_globals(c);
	c->cpu = sim_cpu >= 0 ? sim_cpu : cpu;
	sync_in(c);
	return s;
}

static void leave(struct xs_ctx *c, struct xs_saved s)
{
	sync_out(c);
	c->cpu = s.cpu;
	if (s.ctx && s.ctx != c)
		load_globals(s.ctx);
	xs_cur = s.ctx;
}

void xs_vcpu_pause_nosync(struct vcpu *v)
{
	struct xs_ctx *c = xs_cur;

	sync_out(c);
	c->h.pause_nosync(c->h.sim, v->xs_peer);
	load_globals(c);
	sync_in(c);
}

void xs_vcpu_unpause(struct vcpu *v)
{
	struct xs_ctx *c = xs_cur;

	sync_out(c);
	c->h.unpause(c->h.sim, v->xs_peer);
	load_globals(c);
	sync_in(c);
}

/* --- timers --- */

static void timer_fire(void *arg)
{
	struct timer *t = arg;
	struct xs_ctx *c = t->ctx;
	struct xs_saved s;
	int old = c->h.cur_cpu(c->h.sim);

	/* A timer handler runs on its pCPU: a softirq it raises there is local. */
	c->h.set_cur_cpu(c->h.sim, (int)t->cpu);
	s = enter(c, (int)t->cpu);
	t->function(t->data);
	leave(c, s);
	c->h.set_cur_cpu(c->h.sim, old);
}

void init_timer(struct timer *t, void (*fn)(void *), void *data, unsigned int cpu)
{
	struct xs_ctx *c = xs_cur;

	t->function = fn;
	t->data = data;
	t->cpu = cpu;
	t->killed = false;
	t->status = TIMER_STATUS_inactive;
	t->expires = 0;
	t->ctx = c;
	t->handle = c->h.timer_new(c->h.sim, timer_fire, t);
	if (c->nr_timers == c->cap_timers) {
		c->cap_timers = c->cap_timers ? 2 * c->cap_timers : 16;
		c->timers = realloc(c->timers, (size_t)c->cap_timers * sizeof(*c->timers));
		if (!c->timers)
			xs_bug(__FILE__, __LINE__, "out of memory");
	}
	c->timers[c->nr_timers++] = t;
}

void set_timer(struct timer *t, s_time_t expires)
{
	ASSERT(t->handle && !t->killed);
	t->expires = expires;
	t->status = TIMER_STATUS_in_heap;
	t->ctx->h.timer_set(t->ctx->h.sim, t->handle, expires);
}

void stop_timer(struct timer *t)
{
	if (t->handle)
		t->ctx->h.timer_stop(t->ctx->h.sim, t->handle);
	if (t->status == TIMER_STATUS_in_heap)
		t->status = TIMER_STATUS_inactive;
}

/* A killed timer's memory is its owner's again: its event goes now. */
void kill_timer(struct timer *t)
{
	struct xs_ctx *c = t->ctx;
	int i;

	stop_timer(t);
	t->killed = true;
	t->status = TIMER_STATUS_killed;
	if (!c)
		return;
	for (i = 0; i < c->nr_timers; i++)
		if (c->timers[i] == t)
			c->timers[i] = NULL;
	if (t->handle)
		c->h.timer_free(c->h.sim, t->handle);
	t->handle = NULL;
}

void migrate_timer(struct timer *t, unsigned int cpu)
{
	t->cpu = cpu;
}

/* --- building the host --- */

static struct xs_ctx *xs_ctx_new(const struct xs_module *m, const struct xs_host *h,
				 const struct xs_params *p, char *err, int errlen)
{
	struct xs_ctx *c;
	struct xs_saved s;
	int cpu, rc;

	if (h->nr_cpus > NR_CPUS) {
		snprintf(err, (size_t)errlen, "xen-%s@%s: the shim is built for at most %d pCPUs, the host has %d",
			 m->file, XS_TREE_NAME, NR_CPUS, h->nr_cpus);
		return NULL;
	}
#if XS_IFACE == XS_IFACE_VCPU
	if (h->sched_gran > 1) {
		snprintf(err, (size_t)errlen, "sched-gran=%s: Xen %s has no sched-gran (sched_unit, "
			 "4.13): its scheduler runs vCPUs, not units of several",
			 h->gran == 1 ? "core" : "socket", XS_TREE_VERSION);
		return NULL;
	}
#endif
	/* Boot parameters are the file's own variables: set before anything. */
	if (m->apply_params(p, err, errlen) < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		xs_bug(__FILE__, __LINE__, "out of memory");
	c->allocs.prev = c->allocs.next = &c->allocs;
	c->m = m;
	c->h = *h;
	c->p = *p;
	c->cpu = -1;
	xs_sched_set_def(&c->ops, m->def);
	c->idle = calloc((size_t)h->nr_cpus, sizeof(*c->idle));
#if XS_IFACE != XS_IFACE_VCPU
	c->res = calloc((size_t)h->nr_cpus, sizeof(*c->res));
#endif
	c->cpu_info = calloc((size_t)h->nr_cpus, sizeof(*c->cpu_info));
	c->tick_suspended = calloc((size_t)h->nr_cpus, sizeof(*c->tick_suspended));
	c->node_masks = calloc((size_t)(h->nr_nodes > 0 ? h->nr_nodes : 1), sizeof(*c->node_masks));
	s = enter(c, 0);
	for (cpu = 0; cpu < h->nr_cpus; cpu++) {
		cpumask_set_cpu(cpu, &c->online);
		cpumask_set_cpu(cpu, &c->res_mask);
		cpumask_set_cpu(cpu, &c->node_masks[h->cpu_node[cpu]]);
		node_set(h->cpu_node[cpu], c->nodes_online);
	}
	load_globals(c);
	for (cpu = 0; cpu < h->nr_cpus; cpu++) {
		int o;

		zalloc_cpumask_var(&per_cpu(cpu_sibling_mask, cpu));
		zalloc_cpumask_var(&per_cpu(cpu_core_mask, cpu));
		for (o = 0; o < h->nr_cpus; o++) {
			if (h->cpu_core[o] == h->cpu_core[cpu])
				cpumask_set_cpu(o, per_cpu(cpu_sibling_mask, cpu));
			if (h->cpu_socket[o] == h->cpu_socket[cpu])
				cpumask_set_cpu(o, per_cpu(cpu_core_mask, cpu));
		}
		c->cpu_info[cpu].x86_num_siblings = cpumask_weight(per_cpu(cpu_sibling_mask, cpu));
	}
	zalloc_cpumask_var(&c->pool.cpu_valid);
	c->pool.sched = &c->ops;
#if XS_IFACE != XS_IFACE_VCPU
	zalloc_cpumask_var(&c->pool.res_valid);
	c->pool.gran = h->gran == 0 ? SCHED_GRAN_cpu : h->gran == 1 ? SCHED_GRAN_core :
		       SCHED_GRAN_socket;
#ifndef XS_UNIT_SCHED_IF
	/* 4.14 on (sched/private.h): the pool's threads per unit, the pool of the scheduler. */
	c->pool.sched_gran = (unsigned int)h->sched_gran;
	c->ops.cpupool = &c->pool;
#endif
#endif
	c->idle_dom.domain_id = DOMID_IDLE;
	c->idle_dom.max_vcpus = (unsigned int)h->nr_cpus;
	c->idle_dom.vcpu = c->idle;
	rc = xs_sched_global_init(&c->ops);
	if (!rc)
		rc = xs_sched_init(&c->ops);
	leave(c, s);
	if (rc) {
		snprintf(err, (size_t)errlen, "xen-%s@%s: Xen's init failed (error %d)",
			 m->file, XS_TREE_NAME, rc);
		return NULL;
	}
	return c;
}

#if XS_IFACE != XS_IFACE_VCPU
static struct sched_unit *unit_new(struct domain *d, struct vcpu *v)
{
	struct sched_unit *u = xzalloc(struct sched_unit), **pp;

	u->domain = d;
	u->vcpu_list = v;
	u->unit_id = v->vcpu_id;
	u->next_time = -1;
	zalloc_cpumask_var(&u->cpu_hard_affinity);
	zalloc_cpumask_var(&u->cpu_soft_affinity);
	v->sched_unit = u;
	for (pp = &d->sched_unit_list; *pp; pp = &(*pp)->next_in_list)
		;
	*pp = u;
	return u;
}
#endif

/* A vCPU of Xen's side (guest or idle), before its scheduler data. */
static struct vcpu *vcpu_make(struct domain *d, void *peer, int vcpu_id, int processor)
{
	struct vcpu *v = xzalloc(struct vcpu);

	v->vcpu_id = (unsigned int)vcpu_id;
	v->processor = (unsigned int)processor;
	v->domain = d;
	v->xs_peer = peer;
	zalloc_cpumask_var(&v->cpu_hard_affinity);
	zalloc_cpumask_var(&v->cpu_soft_affinity);
	return v;
}

/* The unit a vCPU is scheduled as (itself before 4.13). */
static xs_unit *unit_of_vcpu(struct vcpu *v)
{
#if XS_IFACE == XS_IFACE_VCPU
	return v;
#else
	return v->sched_unit;
#endif
}

/*
 * pCPU cpu joins the host and the scheduler, in the order of the era's
 * boot: up to 4.12 (cpu_schedule_up and CPU_STARTING) the idle vCPU's
 * data, then alloc_pdata, then init_pdata; from 4.13 (schedule_cpu_add)
 * alloc_pdata, the idle unit's data, then switch_sched under the lock.
 * A pCPU of another pool than Pool-0 is moved in later by
 * schedule_cpu_switch (up to 4.12), in the order of that.  The pCPU
 * joins the pool afterwards (cpupool_assign_cpu_locked); c sees only the
 * pCPUs of its pool.  From 4.13 with sched-gran > cpu the resource holds
 * nr threads (threads[0] its master), which join together.
 */
/* pCPU cpu's idle vCPU (peer: the simulator's), running, linked in pCPU order. */
static struct vcpu *idle_vcpu_add(struct xs_ctx *c, int cpu, void *peer)
{
	struct vcpu *idle = vcpu_make(&c->idle_dom, peer, cpu, cpu);
	int prev;

	idle->is_running = true;
	idle->runstate.state = RUNSTATE_running;
	cpumask_copy(idle->cpu_hard_affinity, cpumask_of(cpu));
	cpumask_setall(idle->cpu_soft_affinity);
	/* The idle vCPUs of this pool's pCPUs, in pCPU order (others are other pools'). */
	for (prev = cpu - 1; prev >= 0 && !c->idle[prev]; prev--)
		;
	if (prev >= 0)
		c->idle[prev]->next_in_list = idle;
	c->idle[cpu] = idle;
	return idle;
}

static void xs_cpu_add(struct xs_ctx *c, int nr, const int *threads, void *const *idle_peers,
		       void *idle_unit_peer)
{
	int cpu = threads[0];
	struct xs_saved s = enter(c, cpu);
	struct vcpu *idle = idle_vcpu_add(c, cpu, idle_peers[0]);
#if XS_IFACE == XS_IFACE_VCPU
	struct schedule_data *sd = &per_cpu(schedule_data, cpu);
#else
	struct sched_resource *sr = xzalloc(struct sched_resource);
	struct sched_unit *u;
	spinlock_t *lock;
	void *ppriv, *vpriv;
	int k;
#endif

#if XS_IFACE == XS_IFACE_VCPU
	ASSERT(nr == 1);
	per_cpu(scheduler, cpu) = &c->ops;
	spin_lock_init(&sd->_lock);
	sd->schedule_lock = &sd->_lock;
	sd->curr = idle;
	if (c->h.pool_id == 0) {
		idle->sched_priv = xs_sched_alloc_udata(&c->ops, idle, c->idle_dom.sched_priv);
		ASSERT(idle->sched_priv);
		sd->sched_priv = xs_sched_alloc_pdata(&c->ops, cpu);
		ASSERT(!IS_ERR(sd->sched_priv));
#ifdef XS_HAVE_INIT_PDATA
		if (c->ops.init_pdata)
			c->ops.init_pdata(&c->ops, sd->sched_priv, cpu);
#endif
	} else {
		/*
		 * schedule_cpu_switch(): a free pCPU moved into another pool gets
		 * the new scheduler's pdata, then its idle vCPU's data, and (from
		 * 2016) switch_sched sets both under the old lock; before,
		 * alloc_pdata did all there was.
		 */
		void *ppriv = xs_sched_alloc_pdata(&c->ops, cpu);
		void *vpriv = xs_sched_alloc_udata(&c->ops, idle, c->idle_dom.sched_priv);

		ASSERT(!IS_ERR(ppriv) && vpriv);
#ifdef XS_HAVE_SWITCH_SCHED
		if (c->ops.switch_sched) {
			spin_lock_irq(&sd->_lock);
#ifdef XS_SWITCH_SCHED_LOCK
			/* The scheduler hands back the pCPU's lock; the core reroutes it. */
			sd->schedule_lock = c->ops.switch_sched(&c->ops, (unsigned int)cpu, ppriv, vpriv);
			sd->sched_priv = ppriv;
#else
			c->ops.switch_sched(&c->ops, (unsigned int)cpu, ppriv, vpriv);
#endif
			spin_unlock_irq(&sd->_lock);
		} else
#endif
		{
			idle->sched_priv = vpriv;
			sd->sched_priv = ppriv;
		}
	}
	per_cpu(cpupool, cpu) = &c->pool;
	/* The pCPU is up and idle: the idle driver stops its tick (see xs_do_schedule). */
	if (c->p.tick_suspend && c->ops.tick_suspend) {
		c->ops.tick_suspend(&c->ops, (unsigned int)cpu);
		c->tick_suspended[cpu] = true;
	}
#else
	u = unit_new(&c->idle_dom, idle);
	u->is_running = true;
	u->runstate_cnt[RUNSTATE_running] = 1;
	cpumask_copy(u->cpu_hard_affinity, cpumask_of(cpu));
	cpumask_setall(u->cpu_soft_affinity);
	spin_lock_init(&sr->_lock);
	sr->schedule_lock = &sr->_lock;
	sr->master_cpu = (unsigned int)cpu;
	sr->granularity = (unsigned int)nr;
	zalloc_cpumask_var(&sr->cpus);
	cpumask_set_cpu(cpu, sr->cpus);
	sr->curr = sr->sched_unit_idle = u;
	c->res[cpu] = sr;
	set_sched_res(cpu, sr);
	u->res = sr;
	/*
	 * sched-gran > cpu (schedule_cpu_add): the other threads' idle vCPUs
	 * join the master's idle unit and the threads its resource; only the
	 * master stays in sched_res_mask.
	 */
	if (nr > 1)
		idle->xs_unit_peer = idle_unit_peer;
	for (k = 1; k < nr; k++) {
		struct vcpu *t = idle_vcpu_add(c, threads[k], idle_peers[k]);

		t->sched_unit = u;
		u->runstate_cnt[RUNSTATE_running]++;
		cpumask_clear_cpu((unsigned int)threads[k], &c->res_mask);
		cpumask_set_cpu((unsigned int)threads[k], sr->cpus);
		c->res[threads[k]] = sr;
		set_sched_res(threads[k], sr);
		cpumask_set_cpu((unsigned int)threads[k], c->pool.cpu_valid);
	}
	load_globals(c);
	ppriv = sched_alloc_pdata(&c->ops, cpu);
	ASSERT(!IS_ERR(ppriv));
	vpriv = sched_alloc_udata(&c->ops, u, c->idle_dom.sched_priv);
	ASSERT(vpriv);
	spin_lock(&sr->_lock);
	lock = sched_switch_sched(&c->ops, (unsigned int)cpu, ppriv, vpriv);
	sr->scheduler = &c->ops;
	sr->sched_priv = ppriv;
	sr->cpupool = &c->pool;
	sr->schedule_lock = lock;
	spin_unlock(&sr->_lock);
	cpumask_set_cpu(cpu, c->pool.res_valid);
#endif
	cpumask_set_cpu(cpu, c->pool.cpu_valid);
	leave(c, s);
}

static struct xs_vcpu *xs_idle_of(struct xs_ctx *c, int cpu)
{
	return (struct xs_vcpu *)c->idle[cpu];
}

static struct xs_dom *xs_domain_new(struct xs_ctx *c, void *peer, int domid, int nr_vcpus)
{
	struct xs_saved s = enter(c, 0);
	struct domain *d = xzalloc(struct domain);

	d->domain_id = (domid_t)domid;
	/* A handle (UUID) of its own: the domid in its first two bytes. */
	d->handle[0] = (uint8_t)(domid & 0xff);
	d->handle[1] = (uint8_t)(domid >> 8);
	d->max_vcpus = (unsigned int)nr_vcpus;
	d->vcpu = xzalloc_array(struct vcpu *, nr_vcpus + 1);
	d->cpupool = &c->pool;
	d->xs_peer = peer;
	d->sched_priv = xs_sched_alloc_domdata(&c->ops, d);
	ASSERT(!IS_ERR(d->sched_priv));
	leave(c, s);
	/* Weight and cap come later, from the toolstack (see adapter.c). */
	return (struct xs_dom *)d;
}

static void copy_mask(cpumask_t *dst, const uint64_t *words, int nr_cpus)
{
	int cpu;

	cpumask_clear(dst);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if ((words[cpu / 64] >> (cpu % 64)) & 1)
			cpumask_set_cpu(cpu, dst);
}

/*
 * sched_set_affinity(): the scheduler hears of it first (4.11 on), then
 * the masks change.
 */
static void set_affinity(struct xs_ctx *c, xs_unit *u, const uint64_t *hard,
			 const uint64_t *soft)
{
	cpumask_t h, s;

	copy_mask(&h, hard, c->h.nr_cpus);
	copy_mask(&s, soft, c->h.nr_cpus);
	if (XU_PRIV(u))
		xs_sched_adjust_affinity(&c->ops, u, &h, &s);
	cpumask_copy(u->cpu_hard_affinity, &h);
	cpumask_copy(u->cpu_soft_affinity, &s);
	/* Read by sched-if.h's has_soft_affinity() from 4.12 (on the vCPU until 4.13). */
	u->soft_aff_effective = !cpumask_subset(u->cpu_hard_affinity, u->cpu_soft_affinity) &&
				cpumask_intersects(u->cpu_soft_affinity, u->cpu_hard_affinity);
}

static void vcpu_list_add(struct xs_ctx *c, struct domain *d, struct vcpu *v)
{
	int id = (int)v->vcpu_id;

	v->runstate.state = RUNSTATE_offline;
	d->vcpu[id] = v;
	if (id > 0 && d->vcpu[id - 1])
		d->vcpu[id - 1]->next_in_list = v;
	if (c->nr_vcpus == c->cap_vcpus) {
		c->cap_vcpus = c->cap_vcpus ? 2 * c->cap_vcpus : 16;
		c->vcpus = realloc(c->vcpus, (size_t)c->cap_vcpus * sizeof(*c->vcpus));
		if (!c->vcpus)
			xs_bug(__FILE__, __LINE__, "out of memory");
	}
	c->vcpus[c->nr_vcpus++] = v;
}

/*
 * sched_init_vcpu() of a unit's first vCPU: the unit, its resource, the
 * all-pCPUs affinity and its data.  With sched-gran > cpu the unit's
 * other nr - 1 vCPUs are made with it (the simulator's members follow;
 * each is found by unit_member once made), each on its thread.
 */
static struct xs_vcpu *xs_vcpu_new(struct xs_ctx *c, struct xs_dom *xd, void *peer,
				   int vcpu_id, int processor, int nr)
{
	struct domain *d = (struct domain *)xd;
	struct xs_saved s = enter(c, processor);
	bool units = c->h.sched_gran > 1;
	struct vcpu *v = vcpu_make(d, units ? NULL : peer, vcpu_id, processor);
	xs_unit *u;
	uint64_t all[XS_NR_CPUS / 64];

	vcpu_list_add(c, d, v);
#if XS_IFACE == XS_IFACE_VCPU
	ASSERT(nr == 1 && !units);
	u = v;
#else
	u = unit_new(d, v);
	u->state_entry_time = NOW();
	u->res = c->res[processor];
	if (units) {
		unsigned int thread = cpumask_first(u->res->cpus);
		int k;

		v->xs_unit_peer = peer;
		for (k = 1; k < nr; k++) {
			struct vcpu *m;

			thread = cpumask_next(thread, u->res->cpus);
			m = vcpu_make(d, NULL, vcpu_id + k, (int)thread);
			m->xs_unit_peer = peer;
			m->xs_member = k;
			m->sched_unit = u;
			/* Down until the simulator has made it (sync_in finds it). */
			m->pause_flags = 1UL << _VPF_down;
			vcpu_list_add(c, d, m);
		}
		v->pause_flags = 1UL << _VPF_down;
		sync_in(c);
	}
#endif
	memset(all, 0xff, sizeof(all));
	set_affinity(c, u, all, all);
	XU_PRIV(u) = xs_sched_alloc_udata(&c->ops, u, d->sched_priv);
	ASSERT(XU_PRIV(u));
	/* The configured affinities come later, through the core's vcpu_set_affinity. */
	leave(c, s);
	return (struct xs_vcpu *)v;
}

static xs_unit *unit_of(struct xs_vcpu *xv)
{
	return unit_of_vcpu((struct vcpu *)xv);
}

static void xs_insert(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));

	xs_sched_insert(&c->ops, u);
	leave(c, s);
}

static void xs_remove(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));

	xs_sched_remove(&c->ops, u);
	leave(c, s);
}

static void xs_wake(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	spinlock_t *lock = XU_LOCK(u);

	xs_sched_wake(&c->ops, u);
	XU_UNLOCK(lock, u);
	leave(c, s);
}

static void xs_sleep(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	spinlock_t *lock = XU_LOCK(u);

	xs_sched_sleep(&c->ops, u);
	XU_UNLOCK(lock, u);
	leave(c, s);
}

static void xs_yield(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	spinlock_t *lock = XU_LOCK(u);

	xs_sched_yield(&c->ops, u);
	XU_UNLOCK(lock, u);
	leave(c, s);
}

/* context_saved(): no lock held; the scheduler takes what it needs. */
static void xs_context_saved(struct xs_ctx *c, struct xs_vcpu *xv)
{
	struct vcpu *v = (struct vcpu *)xv;
	xs_unit *u = unit_of_vcpu(v);
	struct xs_saved s = enter(c, (int)v->processor);

	v->is_running = false;
#if XS_IFACE != XS_IFACE_VCPU
	for (; v && v->sched_unit == u; v = v->next_in_list)
		v->is_running = false;
	v = XU_VCPU(u);
	u->is_running = false;
	u->runstate_cnt[RUNSTATE_running] = 0;
	u->state_entry_time = NOW();
	c->res[v->processor]->prev = NULL;
#endif
	xs_sched_context_saved(&c->ops, u);
	leave(c, s);
}

static void lock_double(spinlock_t *a, spinlock_t *b)
{
	spin_lock(a);
	if (b != a)
		spin_lock(b);
}

static void unlock_double(spinlock_t *a, spinlock_t *b)
{
	if (b != a)
		spin_unlock(b);
	spin_unlock(a);
}

/*
 * The migration's choice of pCPU (vcpu_migrate() up to 4.12,
 * sched_unit_migrate_finish() after): pick under the old pCPU's lock; if
 * the new pCPU has another lock, retake both and pick again, until two
 * picks in a row agree (so pick may run twice).
 */
#define XS_MAX_PICKS 1000

static unsigned int pick_locked(struct xs_ctx *c, xs_unit *u)
{
	unsigned int old_cpu = XU_CPU(u), new_cpu = old_cpu;
	bool pick_called = false;
	spinlock_t *old_lock, *new_lock;
	int picks;

	for (picks = 0;; picks++) {
		/*
		 * Xen's loop has no bound: a pick that keeps alternating
		 * between runqueues, each time outside the hard affinity
		 * (credit2 before it knew affinities, 2015), livelocks Xen
		 * itself.  Say so rather than spin.
		 */
		if (picks == XS_MAX_PICKS) {
			fprintf(stderr, "xen-shim: xen-%s@%s: d%dv%d's migration: %d picks without settling on a pCPU of its hard affinity (Xen's own loop would not end)\n",
				c->m->file, XS_TREE_NAME, XU_VCPU(u)->domain->domain_id,
				XU_VCPU(u)->vcpu_id, XS_MAX_PICKS);
			abort();
		}
		old_lock = XS_CPU_LOCK(old_cpu);
		new_lock = XS_CPU_LOCK(new_cpu);
		lock_double(old_lock, new_lock);
		if (pick_called && new_lock == XS_CPU_LOCK(new_cpu) &&
		    cpumask_test_cpu(new_cpu, u->cpu_hard_affinity))
			break;
		new_cpu = xs_sched_pick(&c->ops, u);
		if (new_lock == XS_CPU_LOCK(new_cpu))
			break;
		pick_called = true;
		unlock_double(old_lock, new_lock);
	}
	unlock_double(old_lock, new_lock);
	return new_cpu;
}

static int xs_pick_resource(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	unsigned int cpu = pick_locked(c, u);

	leave(c, s);
	return (int)cpu;
}

static void xs_migrate(struct xs_ctx *c, struct xs_vcpu *xv, int cpu)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	spinlock_t *old_lock = XS_CPU_LOCK(XU_CPU(u));
	spinlock_t *new_lock = XS_CPU_LOCK((unsigned int)cpu);

	lock_double(old_lock, new_lock);
	xs_sched_migrate(&c->ops, u, (unsigned int)cpu);
	unlock_double(old_lock, new_lock);
	leave(c, s);
}

/*
 * schedule() for one pCPU with sched-gran=cpu, and the bookkeeping of the
 * switch: sched_switch_units() from 4.13 (curr, prev, is_running,
 * state_entry_time), schedule() before (curr, last_run_time, is_running;
 * runstates are the simulator's, loaded on every entry).
 */
static void *xs_do_schedule(struct xs_ctx *c, int cpu, struct xs_vcpu *xprev, int64_t now,
			    bool tasklet, int64_t *slice, bool *migrated)
{
	xs_unit *prev = unit_of(xprev), *next;
	struct xs_saved s = enter(c, cpu);
	spinlock_t *lock = pcpu_schedule_lock_irq((unsigned int)cpu);
	s_time_t sl;

	ASSERT(XS_CPU_CURR(cpu) == prev);
#if XS_IFACE == XS_IFACE_VCPU
	/*
	 * Up to 4.12 (credit1 until 969f58bde2) the idle driver stops the
	 * scheduler's tick when it takes an idle pCPU into a C-state and
	 * restarts it when the pCPU wakes, before the softirq that schedules
	 * (sched_tick_suspend/resume, x86's acpi/cpu_idle.c, mwait-idle.c).
	 */
	if (c->p.tick_suspend && c->ops.tick_resume && c->tick_suspended[cpu]) {
		c->ops.tick_resume(&c->ops, (unsigned int)cpu);
		c->tick_suspended[cpu] = false;
	}
#endif
	next = xs_sched_do_schedule(&c->ops, prev, now, tasklet, &sl, migrated);
#if XS_IFACE == XS_IFACE_VCPU
	ASSERT(next && XU_CPU(next) == (unsigned int)cpu);
#else
	/* Any thread of the resource may be the one that schedules it. */
	ASSERT(next && XU_CPU(next) == c->res[cpu]->master_cpu);
#endif
	*slice = sl;
	if (next != prev) {
		struct vcpu *vn = XU_VCPU(next), *vp = XU_VCPU(prev);

		XS_CPU_CURR(cpu) = next;
		ASSERT(!next->is_running);
		next->is_running = true;
		vp->last_run_time = now;
#if XS_IFACE == XS_IFACE_VCPU
		vn->is_running = true;
		vn->runstate.state = RUNSTATE_running;
		vn->runstate.state_entry_time = now;
#else
		/* sched_switch_units(): every vCPU of the unit, on its thread. */
		for (; vn && vn->sched_unit == next; vn = vn->next_in_list) {
			vn->is_running = true;
			vn->runstate.state = RUNSTATE_running;
			vn->runstate.state_entry_time = now;
		}
		c->res[cpu]->prev = prev;
		next->runstate_cnt[RUNSTATE_running] = is_idle_unit(next) ?
			c->res[cpu]->granularity : 1;
		next->state_entry_time = now;
#endif
	}
	pcpu_schedule_unlock_irq(lock, (unsigned int)cpu);
#if XS_IFACE == XS_IFACE_VCPU
	/* The idle loop takes over: into a C-state, the tick stopped. */
	if (c->p.tick_suspend && c->ops.tick_suspend && is_idle_vcpu(XU_VCPU(next))) {
		c->ops.tick_suspend(&c->ops, (unsigned int)cpu);
		c->tick_suspended[cpu] = true;
	}
#endif
	leave(c, s);
	/* The simulator's unit (sched-gran > cpu: of several vCPUs, or the idle unit). */
	return XU_VCPU(next)->xs_unit_peer ? XU_VCPU(next)->xs_unit_peer : XU_VCPU(next)->xs_peer;
}

static int xs_adjust(struct xs_ctx *c, struct xs_dom *xd, int weight, int cap)
{
	struct domain *d = (struct domain *)xd;
	struct xen_domctl_scheduler_op op;
	struct xs_saved s;
	int rc;

	memset(&op, 0, sizeof(op));
	op.sched_id = XS_OPS(&c->ops)->sched_id;
	op.cmd = XEN_DOMCTL_SCHEDOP_putinfo;
	op.u.credit.weight = (uint16_t)weight;
	op.u.credit.cap = (uint16_t)cap;
	s = enter(c, 0);
	rc = xs_sched_adjust_dom(&c->ops, d, &op);
	leave(c, s);
	return rc;
}

/*
 * The toolstack's RTDS parameters of one vCPU (xl sched-rtds, libxl's
 * sched_rtds_vcpu_set): putvcpuinfo through the scheduler's adjust hook.
 */
static int xs_put_rt(struct xs_ctx *c, struct xs_dom *xd, int vcpu_id, long long period_us,
		     long long budget_us, bool extratime)
{
	struct domain *d = (struct domain *)xd;
	struct xen_domctl_scheduler_op op;
	struct xen_domctl_schedparam_vcpu one;
	struct xs_saved s;
	int rc;

	memset(&one, 0, sizeof(one));
	one.vcpuid = (uint32_t)vcpu_id;
	one.u.rtds.period = (uint32_t)period_us;
	one.u.rtds.budget = (uint32_t)budget_us;
	one.u.rtds.flags = extratime ? XEN_DOMCTL_SCHEDRT_extra : 0;
	memset(&op, 0, sizeof(op));
	op.sched_id = XS_OPS(&c->ops)->sched_id;
	op.cmd = XEN_DOMCTL_SCHEDOP_putvcpuinfo;
	op.u.v.vcpus.p = &one;
	op.u.v.nr_vcpus = 1;
	s = enter(c, 0);
	rc = xs_sched_adjust_dom(&c->ops, d, &op);
	leave(c, s);
	return rc;
}

/* XEN_SYSCTL_SCHEDOP_putinfo of an ARINC 653 schedule (domains by handle). */
static int xs_put_arinc653(struct xs_ctx *c, int64_t major_frame, int n,
			   const struct xs_a653_entry *entries)
{
	struct xen_sysctl_arinc653_schedule sched;
	struct xen_sysctl_scheduler_op op;
	struct xs_saved s;
	int i, rc;

	if (n < 0 || n > ARINC653_MAX_DOMAINS_PER_SCHEDULE)
		return -EINVAL;
	memset(&sched, 0, sizeof(sched));
	sched.major_frame = (uint64_t)major_frame;
	sched.num_sched_entries = (uint8_t)n;
	for (i = 0; i < n; i++) {
		sched.sched_entries[i].dom_handle[0] = (uint8_t)(entries[i].domid & 0xff);
		sched.sched_entries[i].dom_handle[1] = (uint8_t)(entries[i].domid >> 8);
		sched.sched_entries[i].vcpu_id = (unsigned int)entries[i].vcpu_id;
		sched.sched_entries[i].runtime = (uint64_t)entries[i].runtime;
	}
	memset(&op, 0, sizeof(op));
	op.sched_id = XS_OPS(&c->ops)->sched_id;
	op.cmd = XEN_SYSCTL_SCHEDOP_putinfo;
	op.u.sched_arinc653.schedule.p = &sched;
	s = enter(c, 0);
	rc = xs_sched_adjust_global(&c->ops, &op);
	leave(c, s);
	return rc;
}

static void xs_adjust_affinity(struct xs_ctx *c, struct xs_vcpu *xv, const uint64_t *hard,
			       const uint64_t *soft)
{
	xs_unit *u = unit_of(xv);
	struct xs_saved s = enter(c, (int)XU_CPU(u));
	spinlock_t *lock = XU_LOCK(u);

	set_affinity(c, u, hard, soft);
	XU_UNLOCK(lock, u);
	leave(c, s);
}

static void xs_dump(struct xs_ctx *c, FILE *f)
{
	struct xs_saved s = enter(c, 0);
	int cpu;

	c->dump = f;
	xs_sched_dump_settings(&c->ops);
	/* schedule_dump(): the pCPUs of the pool. */
	for (cpu = 0; cpu < c->h.nr_cpus; cpu++)
#if XS_IFACE == XS_IFACE_VCPU
		if (cpumask_test_cpu(cpu, c->pool.cpu_valid))
#else
		if (cpumask_test_cpu(cpu, c->pool.res_valid))
#endif
			xs_sched_dump_cpu_state(&c->ops, cpu);
	c->dump = NULL;
	leave(c, s);
}

static void xs_vcpu_free(struct xs_ctx *c, struct xs_vcpu *xv)
{
	xs_unit *u = unit_of(xv);
	struct vcpu *v;

	/*
	 * Teardown: the simulator does not destroy domains the way Xen does
	 * (offline, remove, free), so Xen's free_udata would find units
	 * still queued.  Its data is one allocation in all three files.
	 */
	xfree(XU_PRIV(u));
	XU_PRIV(u) = NULL;
	/* The simulator frees its vCPUs next: no more syncing with them. */
	for (v = (struct vcpu *)xv; v; v = v->next_in_list) {
		if (v != (struct vcpu *)xv && (!v->xs_unit_peer || unit_of_vcpu(v) != u))
			break;
		v->xs_peer = NULL;
		v->xs_unit_peer = NULL;
	}
}

static void xs_domain_free(struct xs_ctx *c, struct xs_dom *xd)
{
	struct domain *d = (struct domain *)xd;

	/*
	 * Teardown, as in xs_vcpu_free, but the data is left to the context's
	 * list: it is not always an allocation of its own (arinc653.c up to
	 * 4.12 hands back its scheduler's private data), and the domain's
	 * timers go with the context.
	 */
	d->sched_priv = NULL;
}

static void free_vcpu(struct vcpu *v)
{
	free_cpumask_var(v->cpu_hard_affinity);
	free_cpumask_var(v->cpu_soft_affinity);
	xfree(v);
}

#if XS_IFACE != XS_IFACE_VCPU
static void free_units(struct domain *d)
{
	struct sched_unit *u = d->sched_unit_list, *n;

	for (; u; u = n) {
		n = u->next_in_list;
		free_cpumask_var(u->cpu_hard_affinity);
		free_cpumask_var(u->cpu_soft_affinity);
		xfree(u);
	}
}
#endif

static void xs_ctx_free(struct xs_ctx *c)
{
	struct xs_saved s;
	int i;

	if (!c)
		return;
	s = enter(c, 0);
	/*
	 * Xen takes every pCPU out of the pool before the scheduler goes, and
	 * the last one kills the scheduler's timers (rt.c's deinit asserts
	 * it): the timers still alive are killed here.
	 */
	for (i = 0; i < c->nr_timers; i++)
		if (c->timers[i])
			kill_timer(c->timers[i]);
	/*
	 * The pCPUs' and idle vCPUs' data are not handed to free_pdata and
	 * free_vdata (which would find them still in use): like everything
	 * else Xen's code allocated, they go with the list below.
	 */
	xs_sched_deinit(&c->ops);
#if XS_IFACE != XS_IFACE_VCPU
	free_units(&c->idle_dom);
	for (i = 0; i < c->h.nr_cpus; i++) {
		struct sched_resource *sr = c->res[i];
		int t;

		if (!sr)
			continue;
		/* A resource of several threads is freed once: no thread keeps it. */
		for (t = i; t < c->h.nr_cpus; t++)
			if (c->res[t] == sr)
				c->res[t] = NULL;
		free_cpumask_var(sr->cpus);
		xfree(sr);
	}
#endif
	for (i = 0; i < c->h.nr_cpus; i++) {
		if (c->idle[i])
			free_vcpu(c->idle[i]);
		free_cpumask_var(per_cpu(cpu_sibling_mask, i));
		free_cpumask_var(per_cpu(cpu_core_mask, i));
	}
	for (i = 0; i < c->nr_vcpus; i++) {
		struct vcpu *v = c->vcpus[i];

		if (v->vcpu_id == 0) {
#if XS_IFACE != XS_IFACE_VCPU
			free_units(v->domain);
#endif
			xfree(v->domain->vcpu);
			xfree(v->domain);
		}
	}
	for (i = 0; i < c->nr_vcpus; i++)
		free_vcpu(c->vcpus[i]);
	free_cpumask_var(c->pool.cpu_valid);
#if XS_IFACE != XS_IFACE_VCPU
	free_cpumask_var(c->pool.res_valid);
#endif
	c->nr_vcpus = 0;
	while (c->allocs.next != &c->allocs)
		xfree(c->allocs.next + 1);
	leave(c, s);
	for (i = 0; i < XS_PCPU_NR_IDS; i++)
		free(c->percpu[i]);
	free(c->vcpus);
	free(c->timers);
	free(c->idle);
#if XS_IFACE != XS_IFACE_VCPU
	free(c->res);
#endif
	free(c->cpu_info);
	free(c->tick_suspended);
	free(c->node_masks);
	free(c);
}

/* --- what this tree exports --- */

/* The scheduler files built (XS_HAVE_*, probe-tree.sh): all of a tree's, or one file's. */
#ifdef XS_HAVE_NULL
extern const struct xs_module xs_module_null;
#define XS_MODULE_NULL (&xs_module_null)
#else
#define XS_MODULE_NULL NULL
#endif
#ifdef XS_HAVE_CREDIT
extern const struct xs_module xs_module_credit;
#define XS_MODULE_CREDIT (&xs_module_credit)
#else
#define XS_MODULE_CREDIT NULL
#endif
#ifdef XS_HAVE_CREDIT2
extern const struct xs_module xs_module_credit2;
#define XS_MODULE_CREDIT2 (&xs_module_credit2)
#else
#define XS_MODULE_CREDIT2 NULL
#endif
#ifdef XS_HAVE_RT
extern const struct xs_module xs_module_rt;
#define XS_MODULE_RT (&xs_module_rt)
#else
#define XS_MODULE_RT NULL
#endif
#ifdef XS_HAVE_ARINC653
extern const struct xs_module xs_module_arinc653;
#define XS_MODULE_ARINC653 (&xs_module_arinc653)
#else
#define XS_MODULE_ARINC653 NULL
#endif

const struct xs_tree XS_TREE_SYMBOL = {
	.name = XS_TREE_NAME,
	.version = XS_TREE_VERSION,
	.iface = XS_IFACE == XS_IFACE_VCPU ? "vcpu" : XS_IFACE == XS_IFACE_UNIT ? "unit" : "unit-ops",
	.initial_cpu = XS_INITIAL_CPU,
	.modules = { [XS_NULL] = XS_MODULE_NULL, [XS_CREDIT] = XS_MODULE_CREDIT,
		     [XS_CREDIT2] = XS_MODULE_CREDIT2, [XS_RTDS] = XS_MODULE_RT,
		     [XS_ARINC653] = XS_MODULE_ARINC653 },
	.ctx_new = xs_ctx_new,
	.ctx_free = xs_ctx_free,
	.cpu_add = xs_cpu_add,
	.idle_of = xs_idle_of,
	.domain_new = xs_domain_new,
	.domain_free = xs_domain_free,
	.vcpu_new = xs_vcpu_new,
	.vcpu_free = xs_vcpu_free,
	.insert = xs_insert,
	.remove = xs_remove,
	.wake = xs_wake,
	.sleep = xs_sleep,
	.yield = xs_yield,
	.context_saved = xs_context_saved,
	.pick_resource = xs_pick_resource,
	.migrate = xs_migrate,
	.do_schedule = xs_do_schedule,
	.adjust = xs_adjust,
#ifdef XS_RT_EXTRATIME
	.rt_extratime = true,
#endif
	.put_rt = xs_put_rt,
	.put_arinc653 = xs_put_arinc653,
	.adjust_affinity = xs_adjust_affinity,
	.dump = xs_dump,
};

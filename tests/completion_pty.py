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

    def read(t):
        out, end = b"", time.time() + t
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode(errors="replace")

    read(1.0)
    os.write(fd, ("source '%s'\n" % comp).encode())
    read(1.0)
    bad = 0
    for typed, want in CASES:
        os.write(fd, typed.encode() + b"\t")
        shown = read(2.0)
        # what the terminal shows last: drop the redraw's control sequences
        line = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", shown).split("\r")[-1]
        line = line[2:] if line.startswith("$ ") else line
        if line != want:
            print("completion_pty: typed %r, TAB, shown %r, want %r" % (typed, line, want))
            bad += 1
        os.write(fd, b"\x15")      # ^U: clear the line
        read(0.3)
    os.write(fd, b"exit\n")
    read(0.5)
    sys.exit(1 if bad else 0)


main()

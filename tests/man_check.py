#!/usr/bin/env python3
"""Checks the man pages' contents against the program and the schema, so
that an option or a schema attribute added without documentation fails
make check:
  - every --option that `schedsim --help` prints, and every subcommand,
    appears in schedsim(1);
  - every element of sim/input/scenario.rng has a section "<element>" in
    schedsim-scenario(5), and every attribute the schema allows on that
    element appears in that section as "attribute=".

usage: man_check.py HELP.txt PAGE1.txt SCENARIO.rng PAGE5.txt
(the pages rendered as plain text, without hyphenation)
"""
import re
import sys
import xml.etree.ElementTree as ET

RNG = "{http://relaxng.org/ns/structure/1.0}"


def plain(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return re.sub(r".\x08", "", text)       # overstrike bold and underline


def schema(path):
    """{element: [attributes]} from the grammar, following <ref>s to defines."""
    root = ET.parse(path).getroot()
    defines = {d.get("name"): d for d in root.iter(RNG + "define")}
    out = {}

    def attrs(node, acc, seen):
        for child in node:
            if child.tag == RNG + "element":
                continue                    # its own entry
            if child.tag == RNG + "attribute" and child.get("name"):
                acc.append(child.get("name"))
            elif child.tag == RNG + "ref" and child.get("name") not in seen:
                d = defines[child.get("name")]
                if d.find(RNG + "element") is None:
                    attrs(d, acc, seen | {child.get("name")})
            else:
                attrs(child, acc, seen)

    for el in root.iter(RNG + "element"):
        acc = []
        attrs(el, acc, frozenset())
        names = out.setdefault(el.get("name"), [])
        for a in acc:
            if a not in names:
                names.append(a)
    return out


def main():
    helptext, page1, rng, page5 = sys.argv[1:5]
    bad = []
    man1 = plain(page1)
    for opt in sorted(set(re.findall(r"--[a-z][a-z0-9-]*", open(helptext).read()))):
        if not re.search(re.escape(opt) + r"(?![a-z0-9-])", man1):
            bad.append("schedsim(1) does not describe %s (in --help)" % opt)
    for sub in re.findall(r"schedsim ([a-z]+) [A-Z]", open(helptext).read()):
        if not re.search(r"\b%s\b" % sub, man1):
            bad.append("schedsim(1) does not describe the subcommand %s" % sub)
    man5 = plain(page5)
    # sections: a line "   <element>" starts one, up to the next such line or heading
    sections, current = {}, None
    for line in man5.splitlines():
        m = re.match(r"^ {1,5}<([a-z0-9-]+)>\s*$", line)
        if m:
            current = m.group(1)
            sections[current] = ""
        elif re.match(r"^[A-Z]", line):
            current = None
        elif current:
            sections[current] += line + "\n"
    for el, attributes in schema(rng).items():
        if el not in sections:
            bad.append("schedsim-scenario(5) has no section <%s>" % el)
            continue
        for a in attributes:
            if not re.search(r"(?<![a-z-])%s=" % re.escape(a), sections[el]):
                bad.append("schedsim-scenario(5): <%s> does not describe %s=" % (el, a))
    for b in bad:
        print("man_check: " + b)
    sys.exit(1 if bad else 0)


main()

#!/usr/bin/env python3
"""Checks a schedsim HTML report as a document: well formed (every opened
element closed, in order), self-contained (no script, no reference to any
other file or host), and holding what the report promises: the command
line, the version, the seed, one <pre> box per configuration, the
statistics table with a row per table row, one bar chart per workload
with a figure and one latency chart per row with wake-ups.

usage: html_check.py REPORT.html CONFIGS ROWS BARCHARTS [COMMAND-SUBSTRING]
       html_check.py --page PAGE.html   (another page: --eval's, validate's;
                                         well formed and self-contained only)
"""
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "input", "link", "hr", "col", "source", "wbr", "area",
        "base", "embed", "param", "track"}
SVG_EMPTY_OK = {"rect", "line", "circle", "path"}


class Doc(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.count = [], [], {}
        self.stats_rows, self.in_stats, self.text = 0, 0, []
        self.attrs_seen = []

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        self.attrs_seen += [(tag, k, v or "") for k, v in attrs]
        if tag == "table" and ("class", "stats") in attrs:
            self.in_stats = 1
        elif tag == "tr" and self.in_stats:
            self.stats_rows += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        self.attrs_seen += [(tag, k, v or "") for k, v in attrs]
        if tag not in VOID and tag not in SVG_EMPTY_OK:
            self.errors.append("<%s/> written as an empty element" % tag)

    def handle_endtag(self, tag):
        if tag == "table" and self.in_stats:
            self.in_stats = 0
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def main():
    page = sys.argv[1] == "--page"
    if page:
        path, configs, rows, bars, command = sys.argv[2], 0, 0, 0, None
    else:
        path, configs, rows, bars = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        command = sys.argv[5] if len(sys.argv) > 5 else None
    raw = open(path, encoding="utf-8").read()
    d = Doc()
    d.feed(raw)
    d.close()
    bad = list(d.errors)
    if d.stack:
        bad.append("left open: %s" % d.stack)
    # Self-contained: nothing to run, nothing to fetch.
    if d.count.get("script"):
        bad.append("a <script> element")
    for tag, k, v in d.attrs_seen:
        if k in ("src", "href", "srcset", "data", "action", "poster") or k.startswith("on"):
            bad.append("<%s %s=%r>: a reference or a handler" % (tag, k, v))
    for pat in (r"https?:", r"url\(", r"@import", r"//[a-z0-9.-]+\.[a-z]{2,}/"):
        m = re.search(pat, raw, re.I)
        if m:
            bad.append("a network reference: %r" % raw[max(0, m.start() - 30):m.end() + 30])
    if "Content-Security-Policy" not in raw or "default-src 'none'" not in raw:
        bad.append("no Content-Security-Policy default-src 'none'")
    text = "".join(d.text)
    if page:
        report(path, bad)
        return
    for want in ("schedsim report", "Mailing-list boxes", "Statistics", "mean ± 95% CI",
                 "Seed", "schedsim", "Runs"):
        if want not in text:
            bad.append("no %r in the text" % want)
    if command and command not in text:
        bad.append("the command line %r is not in the report" % command)
    if d.count.get("pre", 0) != configs:
        bad.append("%d <pre> boxes, want %d" % (d.count.get("pre", 0), configs))
    # two header rows, a row per table row, a geomean row when >= 2 rows have figures
    if d.stats_rows not in (2 + rows, 3 + rows):
        bad.append("%d rows in the statistics table, want %d or %d" % (d.stats_rows, 2 + rows, 3 + rows))
    if d.count.get("svg", 0) < bars:
        bad.append("%d charts, want at least %d" % (d.count.get("svg", 0), bars))
    report(path, bad)


def report(path, bad):
    if bad:
        for b in bad:
            print("html_check: %s: %s" % (path, b))
        sys.exit(1)


main()

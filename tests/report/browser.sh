#!/bin/sh
# The HTML report in a real browser: headless Chromium (Debian's chromium
# package) loads the report of a small experiment, its console stays
# silent (no error, no blocked load: the report's Content-Security-Policy
# of default-src 'none' turns any fetch into a console message), the DOM
# it built holds the statistics table and the charts, and a screenshot
# shows them (tests/report/png_check.py counts the bars' and the tables'
# colours).  Two control pages prove the console check can fail: one with
# a script error, one that tries to load an image.  SKIP (77) without
# Chromium; CHROMIUM=path picks the binary.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
# The sanitizer build: its one schedsim command is report.sh's first (which
# also writes the JSON); the rest is Chromium's, not sanitized.
sanitizer_covered_by tests/report/report.sh
here="${srcdir:-.}/tests/report"
browser=${CHROMIUM:-}
for b in chromium chromium-browser google-chrome; do
	[ -n "$browser" ] && break
	command -v "$b" > /dev/null 2>&1 && browser=$b
done
[ -n "$browser" ] || { echo "no chromium: SKIP"; exit 77; }

# browse PAGE OUT [screenshot]: loads file PAGE, writes OUT.log (the console),
# OUT.dom and OUT.png (or only OUT.png).
browse() {
	rm -rf "$tmp/profile"
	kinds="dump-dom screenshot"
	[ $# -gt 2 ] && kinds=screenshot
	for what in $kinds; do
		if [ $what = dump-dom ]; then
			opt=--dump-dom
		else
			opt=--screenshot="$2.png"
		fi
		timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update --disable-sync \
			--no-first-run --user-data-dir="$tmp/profile" --enable-logging=stderr \
			--log-level=0 --window-size=1280,2400 $opt "file://$1" \
			> "$2.$what" 2>> "$2.log" || fail "$browser $opt $1 failed: $(tail -3 "$2.log")"
	done
	[ -f "$2.dump-dom" ] && mv "$2.dump-dom" "$2.dom"
	return 0
}

# A page whose console has something to say is seen as such.
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>
<script>console.error("broken page")</script></body></html>\n' > "$tmp/control1.html"
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src '"'none'"'"><title>t</title></head><body>
<img alt="x" src="picture.png"></body></html>\n' > "$tmp/control2.html"
for c in control1 control2; do
	browse "$tmp/$c.html" "$tmp/$c" screenshot
	grep -q ':CONSOLE' "$tmp/$c.log" || fail "$c: the console check does not see the page's message"
done

run_ok --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on --iterations=2 \
	--jobs=2 --report="$tmp/report.html" > /dev/null
browse "$tmp/report.html" "$tmp/report"
if grep ':CONSOLE' "$tmp/report.log" > "$tmp/console"; then
	fail "the browser's console has messages: $(head -3 "$tmp/console")"
fi
python3 "$here/html_check.py" "$tmp/report.dom" 2 4 2 || fail "the DOM Chromium built"
python3 "$here/png_check.py" "$tmp/report.png" || fail "the screenshot"
# Keep the screenshot for a person to look at.
[ -n "${REPORT_SHOT:-}" ] && cp "$tmp/report.png" "$REPORT_SHOT"
finish

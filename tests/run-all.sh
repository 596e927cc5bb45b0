#!/usr/bin/env bash
# The whole test suite: unit and scenario tests (make check) in this build,
# then make distcheck, which builds the release tarball in a separate
# directory with AddressSanitizer and UndefinedBehaviorSanitizer
# (--enable-sanitizers) and runs every test again there (the statistical
# calibration tests' commands run there once, at 2 iterations, for memory
# errors, and those tests skip: their figures are checked in the first
# run; tests/scenarios/lib.sh says which test runs which).  Where a test
# only repeats the same code on more seeds, the sanitizer build runs fewer
# of them, each test saying why (SCHEDSIM_SANITIZED, lib.sh's sanitized):
# one iteration a cell in examples.sh, validate.sh, modules.sh and
# xen-diff/trees.sh, whose table of the 2017 trees is of make-xen
# alone there (its iperf cells are its JSON experiment's, run for run);
# validate.sh runs there the published figures of each table's and
# column's first row and of the kernbench -j8 row alone (--rows=first,-j8:
# every table, workload, scenario file, column and kind of comparison,
# 97 of the 404 cells of the 2019 preset's figures); examples.sh lists
# the 2016 headline host's eight cells without simulating them (they are
# the default matrix, which scenarios/plots.sh simulates there, 16 runs),
# and the 2019 example's ten kernbench -j8 commands (cells of the 2019
# preset, which validate.sh runs there; examples/*/run's
# "# sanitizer-covered-by:"); scenarios/credit2.sh leaves its 2016
# table's twelve runs to calibration.sh, which makes the same there; 25 random scenarios a pair in xen-diff/random.sh;
# 20 generated scenarios a loop (not 60 and 40) in xen-diff/driver.sh; fewer
# shard counts in shard.sh; plots.sh leaves out its repeat of the --plot
# command without --plot and draws its svg section's chosen run from that
# run's cell alone (2 runs, not the 16 of the matrix it drew in png);
# hw.sh's accounting-identity cells run 1.3 s of iperf's 11; browser.sh
# and completion.sh skip.  The figures, statistics and verdicts of those
# are the plain build's.  Both builds compile Xen's own schedulers and so
# run the differential tests against them: of every tree in
# ../shared/xen-src (or $SCHEDSIM_XEN_TREES) when present, else of Debian's
# source package (tests/xen-source.sh, cached outside the repo) when it
# can be had.
# Ends with one summary line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

xen_flags=
# Xen's trees: ../shared/xen-src (or $SCHEDSIM_XEN_TREES) when present,
# all of them; else the Debian source package's tree (tests/xen-source.sh),
# named after its release (4.17.5), as the differential tests name it.
trees=${SCHEDSIM_XEN_TREES:-$(pwd)/../shared/xen-src}
if ls "$trees"/*/xen/Makefile >/dev/null 2>&1; then
	SCHEDSIM_XEN_TREES=$(cd "$trees" && pwd)
	export SCHEDSIM_XEN_TREES
	xen_flags="--with-xen-trees=$SCHEDSIM_XEN_TREES"
	echo "run-all: both builds compile Xen's schedulers of every tree in $SCHEDSIM_XEN_TREES"
elif xen_src=$(sh tests/xen-source.sh); then
	xen_ver=$(sed -n 's/^export XEN_VERSION *= *\([0-9]*\).*/\1/p; s/^export XEN_SUBVERSION *= *\([0-9]*\).*/.\1/p; s/^export XEN_EXTRAVERSION *?*= *\.\([0-9]*\).*/.\1/p' "$xen_src/xen/Makefile" | tr -d '\n')
	xen_flags="--with-xen-source=${xen_ver:-debian}=$xen_src"
	echo "run-all: both builds compile Xen's schedulers from $xen_src"
else
	echo "run-all: without Xen's source: the differential tests will SKIP"
fi
# The trees the shim builds that ../shared/xen-src does not hold (Xen 4.13.0,
# staging of July 2019), kept apart in ../shared/xen-src-next: neither build
# compiles them (4.13.0 alone would add about 23 CPU-s of compiling to the
# two builds and 15 CPU-s of random pairs to the plain one, about as much
# again to the sanitizer build: doc/xen-shim.md), but both check that the
# shim still accepts them (tests/xen-diff/next.sh, about 2 CPU-s a build).
next=${SCHEDSIM_XEN_TREES_NEXT:-$(pwd)/../shared/xen-src-next}
if ls "$next"/*/xen/Makefile >/dev/null 2>&1; then
	SCHEDSIM_XEN_TREES_NEXT=$(cd "$next" && pwd)
	export SCHEDSIM_XEN_TREES_NEXT
fi

# Both builds compile Xen's schedulers when there are trees: the plain one
# runs the differential tests' full counts (tests/xen-diff/random.sh: 200
# scenarios a pair), the sanitizer build the same tests with a few
# scenarios a pair, for memory errors, at ten times the CPU.  A build this
# script did not configure (./configure of the quick start) is configured
# again with its own options and the trees.
if [ ! -f Makefile ]; then
	{ autoreconf -fi && ./configure $xen_flags; } || exit 2
elif [ -n "$xen_flags" ] && ! grep -qs '^#define HAVE_XEN_SOURCE 1' xen-trees.h; then
	echo "run-all: configuring this build again with $xen_flags"
	eval "./configure $(./config.status --config) \"\$xen_flags\"" || exit 2
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

make -j2 check 2>&1 | tee -a "$log"
check_status=${PIPESTATUS[0]}
make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS="$xen_flags" 2>&1 | tee -a "$log"
dist_status=${PIPESTATUS[0]}

# automake's summaries of both runs ("# PASS:  12" ...), added up.
sum() { awk -v k="# $1:" 'index($0, k) == 1 { n += $NF } END { print n + 0 }' "$log"; }
echo "make check: exit $check_status; make distcheck (sanitizers${xen_flags:+ and Xen schedulers}): exit $dist_status"
echo "tests: $(sum PASS) passed, $(( $(sum FAIL) + $(sum ERROR) + $(sum XPASS) )) failed, $(sum SKIP) skipped"
[ "$check_status" -eq 0 ] && [ "$dist_status" -eq 0 ]

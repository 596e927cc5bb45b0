#!/bin/sh
# make check: fuzz_xentrace's seed corpus, made afresh from this build's
# schedsim (fuzz/xentrace-corpus.sh) in a scratch directory, replayed
# through the harness.
srcdir=${srcdir:-.}
dir=$(mktemp -d "${TMPDIR:-/tmp}/corpus-xentrace.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
sh "$srcdir/fuzz/xentrace-corpus.sh" ./schedsim "$dir" || exit 99
fuzz/replay_xentrace "$dir"

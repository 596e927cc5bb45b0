#!/bin/sh
# man-subst.sh PKGDATADIR BASHCOMPLETIONDIR VERSION < PAGE.in > PAGE
# Makes a man page from doc/*.in: fills in this installation's paths and
# the version.  In a path every '-' becomes roff's \- (a minus, so that the
# path can be copied) and every '/' is followed by \: (a break point that
# prints nothing), so that a long prefix wraps at a '/' instead of making
# groff warn "cannot adjust line" (tests/man.sh renders the pages with a
# long prefix to check it).
set -eu
[ $# -eq 3 ] || { echo "usage: man-subst.sh PKGDATADIR BASHCOMPLETIONDIR VERSION" >&2; exit 2; }
# The text as a sed replacement: \ & | escaped, then the roff escapes.
repl() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
path() { repl "$1" | sed -e 's|-|\\\\-|g' -e 's|/|/\\\\:|g'; }
pkgdatadir=$(path "$1")
bashcompletiondir=$(path "$2")
version=$(repl "$3")
exec sed -e "s|@pkgdatadir[@]|$pkgdatadir|g" -e "s|@bashcompletiondir[@]|$bashcompletiondir|g" \
	-e "s|@VERSION[@]|$version|g"

#!/bin/sh
# Fetches Xen's real source (the Debian source package "xen") into a cache
# outside the repository and prints the path of the unpacked tree.
#
# Tests that need Xen's own code (the xenalyze trace check, the Xen code
# in the simulator) call this instead of fetching on their own, so the
# download happens once per machine.  Interface:
#   stdout  the absolute path of the unpacked tree (exit 0)
#   exit 77 with "SKIP: reason" on stderr when the source cannot be had
#   exit 1  on an unexpected failure
# Cache: $SCHEDSIM_XEN_CACHE, else $XDG_CACHE_HOME/schedsim-xen, else
# /var/tmp/schedsim-xen.  Nothing of Xen is ever written into the repo.
# When run as root and no deb-src entry exists, one is added for the
# Debian mirror the machine already uses (the "deb" entries' URIs).
set -u

skip() { echo "SKIP: $*" >&2; exit 77; }

if [ -n "${SCHEDSIM_XEN_CACHE:-}" ]; then
	cache=$SCHEDSIM_XEN_CACHE
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
	cache=$XDG_CACHE_HOME/schedsim-xen
else
	cache=/var/tmp/schedsim-xen
fi

# A finished fetch leaves the tree's path here.
tree_of_cache() {
	[ -f "$cache/tree" ] || return 1
	t=$(cat "$cache/tree")
	[ -f "$t/tools/xentrace/xenalyze.c" ] || return 1
	echo "$t"
}

if tree_of_cache; then
	exit 0
fi

mkdir -p "$cache" 2>/dev/null || skip "cannot create the cache folder $cache"
command -v apt-get >/dev/null 2>&1 || skip "apt-get not found (not a Debian system)"

# Serialise concurrent callers (parallel make check, other engineers' tests).
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/lock"
	flock 9
	if tree_of_cache; then
		exit 0
	fi
fi

if ! command -v dpkg-source >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || skip "dpkg-source not found (install dpkg-dev)"
	apt-get install -y -q dpkg-dev >&2 || skip "cannot install dpkg-dev"
fi

# A deb-src entry for the mirror the machine uses, added only when missing.
add_deb_src() {
	src=/etc/apt/sources.list.d/schedsim-deb-src.sources
	found=no
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		[ "$f" = "$src" ] && continue
		# deb822 stanzas: rewrite "Types: deb" ones as deb-src.
		if grep -q '^Types:.*\bdeb\b' "$f" && grep -q 'debian' "$f"; then
			awk 'BEGIN { RS = ""; ORS = "\n\n" }
			     /Types:[^\n]*deb([ \n]|$)/ && /debian/ {
				sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >> "$src.tmp"
			found=yes
		fi
	done
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*debian.*\)$/deb-src \1/p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/schedsim-deb-src.list.tmp
		if [ -s /etc/apt/sources.list.d/schedsim-deb-src.list.tmp ]; then
			mv /etc/apt/sources.list.d/schedsim-deb-src.list.tmp \
			   /etc/apt/sources.list.d/schedsim-deb-src.list
			found=yes
		else
			rm -f /etc/apt/sources.list.d/schedsim-deb-src.list.tmp
		fi
	fi
	[ -f "$src.tmp" ] && mv "$src.tmp" "$src"
	[ "$found" = yes ]
}

if ! apt-get source --print-uris -q xen >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || skip "no deb-src entry for the 'xen' source package, and not root to add one"
	if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		add_deb_src || skip "no Debian mirror found in the apt sources to add a deb-src entry for"
	fi
	apt-get update -q >&2 || skip "apt-get update failed (offline?)"
	apt-get source --print-uris -q xen >/dev/null 2>&1 ||
		skip "the apt sources offer no 'xen' source package"
fi

work=$cache/fetch.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
# Newest first; a mirror may lack the newest (security archive), so fall
# back through every version the sources offer.
ok=no
for ver in $(apt-cache showsrc xen 2>/dev/null | sed -n 's/^Version: //p' | sort -r -V) ""; do
	[ -n "$ver" ] && spec="xen=$ver" || spec=xen
	rm -rf "$work"/*
	if (cd "$work" && apt-get source -q "$spec" >&2); then
		ok=yes
		break
	fi
done
if [ "$ok" != yes ]; then
	rm -rf "$work"
	skip "apt-get source xen failed for every version (offline or mirror unreachable)"
fi
dir=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'xen-*' | head -n 1)
if [ -z "$dir" ] || [ ! -f "$dir/tools/xentrace/xenalyze.c" ]; then
	rm -rf "$work"
	echo "xen-source.sh: unpacked source lacks tools/xentrace/xenalyze.c" >&2
	exit 1
fi
name=$(basename "$dir")
rm -rf "$cache/$name"
mv "$dir" "$cache/$name" || exit 1
rm -rf "$work"
echo "$cache/$name" > "$cache/tree"
echo "$cache/$name"

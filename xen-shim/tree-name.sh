#!/bin/sh
# tree-name.sh SRCDIR DIR [TAKEN...]: the name of the Xen tree DIR when
# --with-xen-source gives none (run by configure, m4/xen-source.m4).
#
# A tree's name goes into the scheduler names (xen-credit2@NAME), so it
# may hold only letters, digits, '.', '_' and '-', at most 40 of them.
# The name is the first of these that is such a name and not one of
# TAKEN (the trees named before it):
#   1. DIR's folder name, as it is ("4.17.5", "master-2026-08");
#   2. the tree's Xen version, from xen/Makefile (xen-shim/probe-tree.sh):
#      "4.17.5" for the folder xen-4.17.5+72-g01140da4e8 that
#      `apt-get source xen` unpacks;
#   3. the folder name with every other character made '-' and cut to 40,
#      then with -2, -3 ... until it is free.
# A valid folder name that is taken is not renamed: configure refuses two
# trees of one name, so that a name never depends on the order given.
#
# Prints "NAME HOW" on stdout, HOW being folder, version or folder-cleaned;
# exits 1 with one line on stderr when DIR is not a Xen tree.
set -u
srcdir=${1:?usage: tree-name.sh SRCDIR DIR [TAKEN...]}
dir=${2:?usage: tree-name.sh SRCDIR DIR [TAKEN...]}
shift 2
taken=" $* "

valid() {
	case $1 in
	*[!A-Za-z0-9._-]* | '') return 1 ;;
	esac
	[ "$(printf %s "$1" | wc -c)" -le 40 ]
}
free() {
	case $taken in
	*" $1 "*) return 1 ;;
	esac
	return 0
}

folder=$(basename "$dir")
if valid "$folder"; then
	echo "$folder folder"
	exit 0
fi
probe=$(sh "$srcdir/xen-shim/probe-tree.sh" "$dir") || exit 1
version=$(eval "$probe"; echo "$version")
if valid "$version" && free "$version"; then
	echo "$version version"
	exit 0
fi
clean=$(printf %s "$folder" | tr -c 'A-Za-z0-9._-' '-' | cut -c1-40)
name=$clean
n=2
while ! free "$name"; do
	name=$(printf %s "$clean" | cut -c1-$((39 - ${#n})))-$n
	n=$((n + 1))
done
echo "$name folder-cleaned"

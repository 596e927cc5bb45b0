#!/bin/sh
# A Xen tree the shim cannot build is refused, with the file and what is
# missing (xen-shim/add-tree.sh, which configure runs for every tree).
# The trees are made from the 4.17.5 tree of ../shared/xen-src (or
# $SCHEDSIM_XEN_TREES) as links with a file changed; SKIP (77) without it.
#  - the tree itself passes, and its make rules name its objects;
#  - without credit.c: refused, naming the missing file;
#  - a credit2.c that uses a field the interface lacks: refused with the
#    compiler's first error, naming credit2.c (in the tree) and the field;
#  - the name a tree gets when none is given (xen-shim/tree-name.sh): its
#    folder's name; else, for the folder `apt-get source xen` unpacks
#    (xen-4.17.5+72-g01140da4e8), its Xen version; else, that version being
#    taken, the folder's name made valid, with -2 when that is taken too;
#    not a Xen tree: refused;
#  - a name twice, or a bad NAME=, on configure's command line: checked by
#    configure itself (m4/xen-source.m4), not here.
. "${srcdir:-.}/tests/xen-diff/common.sh"
trees=${SCHEDSIM_XEN_TREES:-$srcdir/../shared/xen-src}
good=$trees/4.17.5
if [ ! -f "$good/xen/common/sched/credit2.c" ]; then
	echo "SKIP: no Xen 4.17.5 tree in $trees (set SCHEDSIM_XEN_TREES)"
	exit 77
fi
good=$(cd "$good" && pwd)
srcdir=$(cd "$srcdir" && pwd)
add() {
	(cd "$tmp/build" && CC=${CC:-cc} sh "$srcdir/xen-shim/add-tree.sh" "$srcdir" "$@")
}
# A tree of links to the real one.
make_tree() {
	mkdir -p "$tmp/$1" && cp -rs "$good/." "$tmp/$1/"
}
mkdir "$tmp/build"

out=$(add 0 ok "$good" 2>&1)
[ $? = 0 ] || fail "the 4.17.5 tree is refused: $out"
echo "$out" | grep -qx "iface='unit'" || fail "4.17.5 is not the unit interface: $out"
grep -qF '$(XS_OUT)/tree0.o: $(XS_OUT)/tree0/glue.o $(XS_OUT)/tree0/xen_null.o $(XS_OUT)/tree0/xen_credit.o $(XS_OUT)/tree0/xen_credit2.o' \
	"$tmp/build/xen-shim/tree0.mk" || fail "tree0.mk lacks the tree's object: $(cat "$tmp/build/xen-shim/tree0.mk")"
[ -L "$tmp/build/xen-shim/tree0/inc/xen-sched/credit2.c" ] || fail "no link to credit2.c"

make_tree nocredit
rm "$tmp/nocredit/xen/common/sched/credit.c"
out=$(add 1 nocredit "$tmp/nocredit" 2>&1)
[ $? = 1 ] || fail "a tree without credit.c is accepted"
[ "$out" = "$tmp/nocredit/xen/common/sched/credit.c: not found (the credit scheduler)" ] ||
	fail "a tree without credit.c: '$out'"

make_tree badfield
rm "$tmp/badfield/xen/common/sched/credit2.c"
sed 's/unit->priv;/unit->private;/' "$good/xen/common/sched/credit2.c" > "$tmp/badfield/xen/common/sched/credit2.c"
grep -q 'unit->private;' "$tmp/badfield/xen/common/sched/credit2.c" || fail "the test's edit did not apply"
out=$(add 2 bad "$tmp/badfield" 2>&1)
[ $? = 1 ] || fail "a tree that does not build is accepted"
echo "$out" | grep -q "^the Xen tree bad ($tmp/badfield) does not build with the shim: $tmp/badfield/xen/common/sched/credit2.c:[0-9]*:[0-9]*: error: .*has no member named .private." ||
	fail "the message does not name credit2.c and the field: '$out'"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "the message is not one line: '$out'"
name() {
	sh "$srcdir/xen-shim/tree-name.sh" "$srcdir" "$@" 2>&1
}
deb="$tmp/xen-4.17.5+72-g01140da4e8"
ln -s "$good" "$deb"
out=$(name "$good") && [ "$out" = "4.17.5 folder" ] || fail "a valid folder's name is not kept: '$out'"
out=$(name "$deb") && [ "$out" = "4.17.5 version" ] || fail "apt-get source's folder is not named by its version: '$out'"
out=$(name "$deb" master 4.17.5) && [ "$out" = "xen-4.17.5-72-g01140da4e8 folder-cleaned" ] ||
	fail "with 4.17.5 taken, not the folder's name made valid: '$out'"
out=$(name "$deb" 4.17.5 xen-4.17.5-72-g01140da4e8) && [ "$out" = "xen-4.17.5-72-g01140da4e8-2 folder-cleaned" ] ||
	fail "with both taken, not -2: '$out'"
long=$tmp/$(printf '%045d+' 0)
ln -s "$good" "$long"
out=$(name "$long" 4.17.5) && [ "$out" = "$(printf '%040d' 0) folder-cleaned" ] ||
	fail "a long folder's name is not cut to 40: '$out'"
mkdir "$tmp/notxen+1"
out=$(name "$tmp/notxen+1")
[ $? = 1 ] && [ "$out" = "$tmp/notxen+1/xen/Makefile: not found (not a Xen source tree)" ] ||
	fail "a folder that is no Xen tree: '$out'"
finish

#!/bin/sh
# add-tree.sh SRCDIR INDEX NAME DIR [FILE]: prepares the Xen tree DIR,
# named NAME, as tree number INDEX of the build in the current directory
# (run by configure, m4/xen-source.m4, once per tree; $CC is the
# compiler).  With FILE, the tree of one scheduler file given instead of
# DIR's own (schedsim-xen-module builds it into a module; DIR gives the
# headers): see probe-tree.sh.
#
#  1. xen-shim/probe-tree.sh: Xen's version, the interface, the scheduler
#     files, the differences the shim must know (see there);
#  2. xen-shim/treeINDEX/inc/: links to the Xen headers used as they are
#     (xen/NAME.h) and to the scheduler files (xen-sched/credit2.c ...),
#     so that neither DIR/xen/include nor its public/ is ever on the
#     include path;
#  3. glue.c and each scheduler's wrapper compiled once, syntax only: a
#     tree the shim cannot build is refused now, with the compiler's first
#     error (it names the file and line and what is missing);
#  4. xen-shim/treeINDEX.mk: the make rules of the tree's objects and of
#     $(XS_OUT)/treeINDEX.o (XS_OUT: xen-shim; XS_CC: the compiler with
#     xen-shim/shim.mk's XS_CFLAGS), every symbol but its struct xs_tree
#     made local.
#
# Prints shell assignments for configure (version, iface, iface_era,
# modules, has_null, has_credit, has_credit2, has_runqueue,
# has_tick_suspend, has_rt, has_arinc653, and entry: the tree's
# T(INDEX, NAME, version, has_...) of XEN_SHIM_TREES, xen-shim/registry.h);
# exits 1 with one line on stderr when DIR (or FILE) is refused.
set -u
srcdir=${1:?usage: add-tree.sh SRCDIR INDEX NAME DIR [FILE]}
n=${2:?} name=${3:?} dir=${4:?}
file=${5:-}
CC=${CC:-cc}
t=xen-shim/tree$n
inc=$t/inc

probe=$(sh "$srcdir/xen-shim/probe-tree.sh" "$dir" ${file:+"$file"}) || exit 1
eval "$probe"
# has M: 1 if the scheduler file M is built.
has() {
	case " $modules " in *" $1 "*) echo 1 ;; *) echo 0 ;; esac
}
has_runqueue=0
case " $cflags " in *" -DXS_CREDIT2_RUNQUEUE "*) has_runqueue=1 ;; esac
has_tick_suspend=0
case " $cflags " in *" -DXS_CREDIT_TICK_SUSPEND "*) has_tick_suspend=1 ;; esac

rm -rf "$t" "$t.mk"
mkdir -p "$inc/xen" "$inc/xen-sched" || exit 1
for h in $headers; do
	ln -s "$dir/xen/include/xen/$h.h" "$inc/xen/$h.h" || exit 1
done
# The scheduler files include <xen/sched-if.h> up to 4.13 (where it is
# already of the sched_unit interface), "private.h" after; the shim's
# glue.c includes xen-sched/private.h for the sched_unit interface.
if [ "$private" = xen/include/xen/sched-if.h ]; then
	ln -s "$dir/$private" "$inc/xen/sched-if.h" || exit 1
fi
if [ "$iface" != vcpu ]; then
	ln -s "$dir/$private" "$inc/xen-sched/private.h" || exit 1
fi
files=glue
for m in $modules; do
	eval "src=\$src_$m"
	ln -s "$src" "$inc/xen-sched/$m.c" || exit 1
	files="$files xen_$m"
done

# The flags as make will see them ($(srcdir) in the rules), and as now.
defs="$cflags -DXS_TREE_SYMBOL=xs_tree_$n -DXS_TREE_NAME='\"$name\"' -DXS_TREE_VERSION='\"$version\"'"
err=$t/check.err
for f in $files; do
	if ! eval "$CC -std=gnu11 -fsyntax-only -I\"\$srcdir/xen-shim/include\" -I$inc -I\"\$srcdir\" $defs \"\$srcdir/xen-shim/\$f.c\"" \
		> /dev/null 2> "$err"; then
		why=$(grep -m 1 'error' "$err" || head -n 1 "$err")
		# The links stand for the tree's own files: name those.
		map="s|[^ ]*$inc/xen/sched-if.h|$dir/$private|; s|[^ ]*$inc/xen-sched/private.h|$dir/$private|"
		for m in $modules; do
			eval "src=\$src_$m"
			map="$map; s|[^ ]*$inc/xen-sched/$m.c|$src|"
		done
		why=$(printf '%s' "$why" | sed "$map; s|[^ ]*$inc/xen/|$dir/xen/include/xen/|")
		if [ -n "$file" ]; then
			echo "$file does not build with the shim (the Xen tree $dir: Xen $version, interface $iface, Xen $iface_era): $why" >&2
		else
			echo "the Xen tree $name ($dir) does not build with the shim: $why" >&2
		fi
		exit 1
	fi
done
rm -f "$err"

# Objects go under $(XS_OUT) (xen-shim; make fuzz builds them again
# with clang under fuzz/obj/xs).
objs=
for f in $files; do
	objs="$objs \$(XS_OUT)/tree$n/$f.o"
done
{
	echo "# $name: $dir${file:+ with $file} (Xen $version, interface $iface)"
	echo "XS_CPPFLAGS_$n = -I\$(srcdir)/xen-shim/include -I$inc -I\$(srcdir) $defs"
	for f in $files; do
		echo "\$(XS_OUT)/tree$n/$f.o: \$(srcdir)/xen-shim/$f.c"
		echo "	@mkdir -p \$(@D)"
		echo "	\$(AM_V_CC)\$(XS_CC) \$(XS_CPPFLAGS_$n) -MMD -MP -c -o \$@ \$(srcdir)/xen-shim/$f.c"
		echo "-include \$(XS_OUT)/tree$n/$f.d"
	done
	echo "\$(XS_OUT)/tree$n.o:$objs"
	echo "	\$(AM_V_GEN)\$(CC) -r -nostdlib -o \$@.tmp$objs && \\"
	echo "	\$(OBJCOPY) --keep-global-symbol=xs_tree_$n \$@.tmp \$@ && rm -f \$@.tmp"
} > "$t.mk" || exit 1

echo "version='$version'"
echo "iface='$iface'"
echo "iface_era='$iface_era'"
echo "modules='$modules'"
echo "has_null=$(has null)"
echo "has_credit=$(has credit)"
echo "has_credit2=$(has credit2)"
echo "has_runqueue=$has_runqueue"
echo "has_tick_suspend=$has_tick_suspend"
echo "has_rt=$(has rt)"
echo "has_arinc653=$(has arinc653)"
echo "entry='T($n, \"$name\", \"$version\", $(has null), $(has credit), $(has credit2), $has_runqueue, $has_tick_suspend, $(has rt), $(has arinc653))'"

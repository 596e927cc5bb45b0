#!/bin/sh
# probe-tree.sh DIR [FILE]: what the shim needs to know about the Xen tree
# DIR before building its schedulers (run by configure, once per tree,
# through add-tree.sh).  With FILE, one scheduler file instead of the
# tree's own (schedsim-xen-module: a patched credit2.c): the tree gives
# the headers, the version and the interface, FILE the only module,
# whichever of the five its ops table says it is (sched_credit2_def ...);
# FILE must be of the tree's interface, and what the shim reads from a
# scheduler file is read from FILE.
#
# Prints shell assignments on stdout:
#   version    Xen's version from xen/Makefile ("4.17.5", "4.10-unstable")
#   iface      the scheduler interface (see xen-shim/iface.h):
#                vcpu      up to 4.12: xen/include/xen/sched-if.h, xen/common/sched_*.c
#                unit      4.13 to 4.22: struct sched_unit, in xen/include/xen/sched-if.h
#                          and xen/common/sched_*.c (4.13), xen/common/sched/private.h
#                          and xen/common/sched/*.c (4.14 on)
#                unit-ops  from 2026: private.h with a separate struct sched_ops
#   iface_era  the Xen releases of that interface ("4.13 to 4.22")
#   modules    the scheduler files it has, of null, credit, credit2, rt,
#              arinc653 (with FILE: FILE's alone)
#   src_null, src_credit, src_credit2, src_rt, src_arinc653   their paths
#   headers    Xen headers of DIR used as they are (xen/include/xen/NAME.h)
#   private    the interface header, inside DIR
#   cflags     -D flags of the differences below that the shim must know
#              at compile time
# Exits 1 with one line on stderr naming the file and what is missing
# when DIR is not a tree the shim can build.
#
# Differences known across the trees of 2015 to 2026, each with the flag
# it sets:
#   XS_IFACE=1|2|3             the interface, as above
#   XS_HAVE_NULL, XS_HAVE_CREDIT, XS_HAVE_CREDIT2, XS_HAVE_RT, XS_HAVE_ARINC653
#                              the scheduler files built (modules)
#   XS_HAVE_INIT_PDATA         sched-if.h has init_pdata (2016 on)
#   XS_HAVE_SWITCH_SCHED       sched-if.h has switch_sched (2016 on)
#   XS_SWITCH_SCHED_LOCK       switch_sched returns the pCPU's new lock, which
#                              the core sets (2019-07-staging; the 2017 trees'
#                              switch_sched set it itself)
#   XS_HAVE_INIT_DOMAIN        sched-if.h has init_domain (the 2015 to 2017
#                              trees; without it, as in 2019-07-staging, the
#                              core's sched_init_domain calls alloc_domdata)
#   XS_HAVE_ADJUST_AFFINITY    sched-if.h has adjust_affinity (4.11 on; for the
#                              sched_unit interface private.h's wrapper calls it)
#   XS_UNIT_SCHED_IF           the sched_unit interface in xen/include/xen/sched-if.h
#                              and xen/common/sched_*.c (4.13: no scheduler::cpupool,
#                              no cpupool::sched_gran, which 4.14 added)
#   XS_BITMAP_UINT             bitmap.h counts bits in unsigned int (2024 on)
#   XS_CREDIT2_OWN_NR_SIBLINGS credit2.c defines cpu_nr_siblings() (4.22 on)
#   XS_CREDIT2_RUNQUEUE        credit2.c has credit2_runqueue= (opt_runqueue_str, 2016 on)
#   XS_CREDIT_MIGR_DELAY=VAR   credit.c's migration delay: vcpu_migration_delay
#                              (us, up to 4.10) or vcpu_migration_delay_us
#   XS_CREDIT_TICK_SUSPEND     credit.c has tick_suspend/tick_resume, the
#                              idle driver's hooks (up to 969f58bde2, 2019)
#   XS_RT_EXTRATIME            rt.c has the extratime flag (463b958317, 4.10)
#   XS_INITIAL_CPU=0|1|2       where a new domain's vCPU 0 starts (sim's enum
#                              initial_cpu_rule): 2 domctl.c's
#                              default_vcpu0_location (until d5438accce, 2016),
#                              1 its cpumask_any(online) (until 8d3c326f67,
#                              4.13), 0 sched_select_initial_cpu's first pCPU
#
# rt.c is built only in its event-driven form (a replenishment timer,
# 0709d59545, March 2016) with per-vCPU parameters (putvcpuinfo, 2016).
# Before, rt_schedule ran in quanta of at most 1 ms and gave an idle pCPU
# a slice of 0 ns (MIN(its budget 0, 1 ms)): Xen reschedules such a pCPU
# at once, again and again, spinning as long as it idles, which a
# simulation whose time does not pass inside the scheduler cannot run.
set -u
dir=${1:?usage: probe-tree.sh DIR [FILE]}
file=${2:-}

# fail PATH WHY: PATH inside DIR, or absolute; with FILE, what the tree is
# (ctx, once known).
ctx=
fail() {
	case $1 in
	/*) echo "$1: $2$ctx" >&2 ;;
	*) echo "$dir/$1: $2$ctx" >&2 ;;
	esac
	exit 1
}
need() {
	[ -f "$dir/$1" ] || fail "$1" "not found ($2)"
}

need xen/Makefile "not a Xen source tree"
major=$(sed -n 's/^export XEN_VERSION *= *\([0-9]*\).*/\1/p' "$dir/xen/Makefile")
minor=$(sed -n 's/^export XEN_SUBVERSION *= *\([0-9]*\).*/\1/p' "$dir/xen/Makefile")
extra=$(sed -n 's/^export XEN_EXTRAVERSION *?*= *\([^$ ]*\).*/\1/p' "$dir/xen/Makefile")
[ -n "$major" ] && [ -n "$minor" ] || fail xen/Makefile "no XEN_VERSION / XEN_SUBVERSION"
version=$major.$minor$extra

cflags=
if [ -f "$dir/xen/common/sched/private.h" ]; then
	private=xen/common/sched/private.h
	src=xen/common/sched/
	if grep -q '^struct sched_ops *{' "$dir/$private"; then
		iface=unit-ops iface_era="2026 on"
		cflags="-DXS_IFACE=3"
	else
		iface=unit iface_era="4.13 to 4.22"
		cflags="-DXS_IFACE=2"
	fi
	grep -q '^struct sched_resource *{' "$dir/$private" ||
		fail "$private" "no struct sched_resource (the shim knows the interface of 4.13 on)"
elif [ -f "$dir/xen/include/xen/sched-if.h" ] &&
     grep -q '^struct sched_resource *{' "$dir/xen/include/xen/sched-if.h"; then
	# 4.13: the sched_unit interface, its files not yet moved into sched/.
	private=xen/include/xen/sched-if.h
	src=xen/common/sched_
	iface=unit iface_era="4.13 to 4.22"
	cflags="-DXS_IFACE=2 -DXS_UNIT_SCHED_IF"
elif [ -f "$dir/xen/include/xen/sched-if.h" ]; then
	private=xen/include/xen/sched-if.h
	src=xen/common/sched_
	iface=vcpu iface_era="4.5 to 4.12"
	cflags="-DXS_IFACE=1"
	grep -q 'struct task_slice' "$dir/$private" ||
		fail "$private" "no struct task_slice (the shim knows the interface of 4.5 to 4.12)"
	grep -q '(\*init_pdata)' "$dir/$private" && cflags="$cflags -DXS_HAVE_INIT_PDATA"
	grep -q '(\*switch_sched)' "$dir/$private" && cflags="$cflags -DXS_HAVE_SWITCH_SCHED"
	grep -q 'spinlock_t \* *(\*switch_sched)' "$dir/$private" &&
		cflags="$cflags -DXS_SWITCH_SCHED_LOCK"
	grep -q '(\*init_domain)' "$dir/$private" && cflags="$cflags -DXS_HAVE_INIT_DOMAIN"
	grep -q '(\*adjust_affinity)' "$dir/$private" && cflags="$cflags -DXS_HAVE_ADJUST_AFFINITY"
else
	fail xen/common/sched/private.h "not found, nor xen/include/xen/sched-if.h (the scheduler interface of 4.13 on, or of 4.12 and before)"
fi

headers=
for h in list cpumask bitmap kernel err nodemask; do
	need "xen/include/xen/$h.h" "a header the shim uses as it is"
	headers="$headers $h"
done
# From 2023 on kernel.h and bitmap.h include macros.h.
[ -f "$dir/xen/include/xen/macros.h" ] && headers="$headers macros"
headers=${headers# }

grep -q '__bitmap_empty(const unsigned long \*bitmap, unsigned int' "$dir/xen/include/xen/bitmap.h" &&
	cflags="$cflags -DXS_BITMAP_UINT"

modules=
src_null= src_credit= src_credit2= src_rt= src_arinc653=
[ -z "$file" ] || ctx=" (the Xen tree $dir: Xen $version, interface $iface, Xen $iface_era)"
# def_of M: the name in scheduler file M's ops table (sched_rtds_def in rt.c).
def_of() {
	if [ "$1" = rt ]; then echo rtds; else echo "$1"; fi
}
if [ -n "$file" ]; then
	[ -f "$file" ] && [ -r "$file" ] || fail "$file" "cannot read it"
	defs=$(grep -o 'sched_[a-z0-9]*_def *=' "$file" | sed 's/ *=$//' | sort -u)
	for m in null credit credit2 rt arinc653; do
		[ "$defs" = "sched_$(def_of $m)_def" ] && modules=$m
	done
	[ -n "$modules" ] || fail "$file" "not a Xen scheduler file (it defines none of sched_null_def, sched_credit_def, sched_credit2_def, sched_rtds_def and sched_arinc653_def, or several)"
	eval "src_$modules=\$file"
	# struct sched_unit is the interface of 4.13 on; before it, struct vcpu.
	if grep -q 'struct sched_unit' "$file"; then
		[ "$iface" != vcpu ] || fail "$file" "a scheduler file of the sched_unit interface (Xen 4.13 on), not of the tree's: give the tree it comes from, --xen-tree=DIR"
	else
		[ "$iface" = vcpu ] || fail "$file" "a scheduler file of the vcpu interface (Xen 4.12 and before: no struct sched_unit), not of the tree's: give the tree it comes from, --xen-tree=DIR"
	fi
else
	for m in null credit credit2 rt arinc653; do
		f=$src$m.c
		if [ ! -f "$dir/$f" ]; then
			case $m in null|rt|arinc653) continue ;; esac   # null arrived in 2017
			fail "$f" "not found (the $m scheduler)"
		fi
		grep -q "sched_$(def_of $m)_def *=" "$dir/$f" || fail "$f" "no sched_$(def_of $m)_def (its ops table)"
		modules="$modules $m"
		eval "src_$m=\$dir/\$f"
	done
	modules=${modules# }
fi

# What the shim must know of the scheduler files it builds.
if [ -n "$src_credit2" ]; then
	grep -q '^static [a-z ]*cpu_nr_siblings(unsigned' "$src_credit2" &&
		cflags="$cflags -DXS_CREDIT2_OWN_NR_SIBLINGS"
	grep -q 'opt_runqueue_str' "$src_credit2" && cflags="$cflags -DXS_CREDIT2_RUNQUEUE"
	grep -q 'opt_migrate_resist' "$src_credit2" ||
		fail "$src_credit2" "no opt_migrate_resist (sched_credit2_migrate_resist=)"
fi
if [ -n "$src_credit" ]; then
	grep -q 'sched_credit_tslice_ms' "$src_credit" ||
		fail "$src_credit" "no sched_credit_tslice_ms"
	if grep -q 'vcpu_migration_delay_us' "$src_credit"; then
		cflags="$cflags -DXS_CREDIT_MIGR_DELAY=vcpu_migration_delay_us"
	elif grep -q 'vcpu_migration_delay' "$src_credit"; then
		cflags="$cflags -DXS_CREDIT_MIGR_DELAY=vcpu_migration_delay"
	else
		fail "$src_credit" "no vcpu_migration_delay"
	fi
	grep -q '\.tick_suspend *=' "$src_credit" && cflags="$cflags -DXS_CREDIT_TICK_SUSPEND"
fi
if [ -n "$src_rt" ]; then
	if grep -q 'repl_timer' "$src_rt" && grep -q 'XEN_DOMCTL_SCHEDOP_putvcpuinfo' "$src_rt"; then
		grep -q 'XEN_DOMCTL_SCHEDRT_extra' "$src_rt" && cflags="$cflags -DXS_RT_EXTRATIME"
	elif [ -n "$file" ]; then
		fail "$file" "an rt.c before the event-driven RTDS (0709d59545, March 2016) with per-vCPU parameters: the shim does not build it (it reschedules an idle pCPU without end)"
	else
		src_rt=
		modules=$(echo " $modules " | sed 's/ rt / /; s/^ //; s/ $//')
	fi
fi
for m in $modules; do
	cflags="$cflags -DXS_HAVE_$(echo "$m" | tr a-z A-Z)"
done

if [ -f "$dir/xen/common/domctl.c" ] && grep -q 'default_vcpu0_location' "$dir/xen/common/domctl.c"; then
	cflags="$cflags -DXS_INITIAL_CPU=2"
elif [ -f "$dir/xen/common/domctl.c" ] && grep -q 'cpumask_any(online)' "$dir/xen/common/domctl.c"; then
	cflags="$cflags -DXS_INITIAL_CPU=1"
elif grep -q 'sched_select_initial_cpu' "$dir/${src}core.c" "$dir/xen/common/schedule.c" 2>/dev/null; then
	cflags="$cflags -DXS_INITIAL_CPU=0"
else
	fail xen/common/domctl.c "no vCPU 0 placement the shim knows (default_vcpu0_location, cpumask_any(online), sched_select_initial_cpu)"
fi

echo "version='$version'"
echo "iface='$iface'"
echo "iface_era='$iface_era'"
echo "modules='$modules'"
echo "src_null='$src_null'"
echo "src_credit='$src_credit'"
echo "src_credit2='$src_credit2'"
echo "src_rt='$src_rt'"
echo "src_arinc653='$src_arinc653'"
echo "private='$private'"
echo "headers='$headers'"
echo "cflags='$cflags'"

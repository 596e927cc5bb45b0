# Differential tests of a model against Xen's own code (xen-shim/): sourced
# by null.sh, credit2.sh, credit1.sh with MODEL and XEN set to two
# --sched specs (XEN names its tree: xen-credit2@4.17.5).  Every scenario in tests/xen-diff/scenarios is run under
# both through xen-diff; a table row says "identical" or where the
# decisions first diverge; the details follow the table.  Exit 0 when all
# are identical, 1 otherwise, 77 (SKIP) when schedsim was built without
# Xen's code.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
XEN_DIFF=${XEN_DIFF:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff}
dir=$srcdir/tests/xen-diff/scenarios

if ! "$SCHEDSIM" --list-schedulers 2>/dev/null | grep -q "^${XEN%%:*} "; then
	# No fetching from here: make check must not download.  .ci/run does
	# ./configure --with-xen-source="$(tests/xen-source.sh)".
	echo "SKIP: schedsim was built without that Xen tree's scheduler code (no ${XEN%%:*});" \
		"configure --with-xen-source=${XEN#*@}=DIR (DIR: ../shared/xen-src/${XEN#*@}, or from tests/xen-source.sh)"
	exit 77
fi

fails=0
details=$(mktemp)
trap 'rm -f "$details"' EXIT
printf '%-22s %s\n' scenario "$MODEL vs $XEN"
for f in "$dir"/*.xml; do
	name=$(basename "$f" .xml)
	out=$("$XEN_DIFF" ${XEN_DIFF_OPTS:-} "$f" "$MODEL" "$XEN" 2>&1)
	rc=$?
	case $rc in
	0) result=identical ;;
	1) result=$(echo "$out" | sed -n 's/^decisions: //p' | head -1)
	   [ "$result" = "${result#identical}" ] || result="same decisions, $(echo "$out" | sed -n 's/^run times: //p')"
	   fails=$((fails + 1)) ;;
	*) result="error (exit $rc)"; fails=$((fails + 1)) ;;
	esac
	printf '%-22s %s\n' "$name" "$result"
	if [ $rc != 0 ]; then
		{ echo "=== $name: $MODEL vs $XEN"; echo "$out"; } >>"$details"
	fi
done
cat "$details"
[ $fails = 0 ]

#!/bin/sh
# Runs every row of tests/bad-inputs/table through ./schedsim and checks
# exit status 2, an empty stdout and exactly the expected line on stderr.
# The input files (scenarios, the xl configs and CPU maps they name) are
# copied into a scratch directory, together with a
# generated huge.xml (just over the 16 MiB limit, too big to keep in git),
# so that every path in a message is the short name written in the table.
srcdir=${srcdir:-.}
here=$(cd "$srcdir/tests/bad-inputs" && pwd)
schedsim=$(pwd)/schedsim
work=$(mktemp -d "${TMPDIR:-/tmp}/bad-inputs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cp "$here"/*.xml "$here"/*.cfg "$here"/*.lscpu "$here"/*.xl-info "$here"/*.series "$here"/*.csv "$work"/ || exit 99
head -c 17000000 /dev/zero | tr '\0' ' ' > "$work/huge.xml" || exit 99
cd "$work" || exit 99

tab=$(printf '\t')
rows=0 failed=0
while IFS="$tab" read -r args expected; do
	case $args in '#'*|'') continue ;; esac
	rows=$((rows + 1))
	# shellcheck disable=SC2086  # arguments are split on spaces on purpose
	$schedsim $args > out 2> err < /dev/null
	status=$?
	got=$(cat err)
	lines=$(wc -l < err)
	# An expected line ending in '*' is a prefix (lists that grow with the
	# build, e.g. the xen-* schedulers of --with-xen-source).
	case $expected in
	*'*') prefix=${expected%'*'}; [ "${got#"$prefix"}" != "$got" ] && same=1 || same=0 ;;
	*) [ "$got" = "$expected" ] && same=1 || same=0 ;;
	esac
	if [ "$status" -ne 2 ] || [ -s out ] || [ "$lines" -ne 1 ] || [ "$same" -ne 1 ]; then
		failed=$((failed + 1))
		echo "FAIL: schedsim $args"
		echo "  status $status (want 2), stdout $(wc -c < out) bytes (want 0), stderr $lines lines (want 1)"
		echo "  want: $expected"
		echo "  got:  $got"
	fi
done < "$here/table"
echo "$rows bad inputs, $failed failed"
[ "$rows" -ge 30 ] && [ "$failed" -eq 0 ]

#!/bin/sh
# The schema in the repository checks files by itself (xmllint), as the
# README promises: good scenarios pass, structurally wrong ones fail.
# Counts (one host, one affinity, at least one domain) are the loader's
# job: the schema avoids <interleave>, which libxml2 checks in quadratic time.
# Skipped (77) when xmllint is not installed.
command -v xmllint >/dev/null 2>&1 || exit 77
srcdir=${srcdir:-.}
rng=$srcdir/sim/input/scenario.rng
data=$srcdir/tests/data/scenarios
status=0
for f in full.xml minimal.xml; do
	if ! xmllint --noout --nonet --relaxng "$rng" "$data/$f" 2>/dev/null; then
		echo "FAIL: $f should match the schema"
		status=1
	fi
done
for f in unknown-element.xml unknown-element-domain.xml unknown-attr-host.xml \
	 unknown-attr-domain.xml missing-name.xml name-space.xml vcpus-text.xml \
	 vcpus-negative.xml duration-unit.xml duration-negative.xml seed-negative.xml \
	 vcpu-no-id.xml workload-no-type.xml phase-no-run.xml phase-bad-dist.xml \
	 workload-unknown-child.xml workload-ns-attr.xml text.xml wrong-root.xml; do
	if xmllint --noout --nonet --relaxng "$rng" "$data/$f" 2>/dev/null; then
		echo "FAIL: $f should not match the schema"
		status=1
	fi
done
exit $status

#!/bin/sh
# Differential test: our null model against Xen's own code (see lib.sh).
MODEL=null
XEN=xen-null@4.17.5
. "${srcdir:-.}/tests/xen-diff/lib.sh"

#!/bin/sh
# Differential test: our credit1 model against Xen's own code (see lib.sh).
MODEL=credit1:era=4.17
XEN=xen-credit@4.17.5
. "${srcdir:-.}/tests/xen-diff/lib.sh"

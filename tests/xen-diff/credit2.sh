#!/bin/sh
# Differential test: our credit2 model against Xen's own code (see lib.sh).
MODEL=credit2:era=4.17
XEN=xen-credit2@4.17.5
. "${srcdir:-.}/tests/xen-diff/lib.sh"

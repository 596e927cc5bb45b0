# Builds one of Xen's scheduler files into a scheduler module (run by
# schedsim-xen-module, in a work folder where xen-shim/add-tree.sh has
# prepared tree 0 of that one file: xen-shim/tree0.mk, and where the
# script wrote xen-trees.h: XEN_SHIM_TREES of the file; and config.h:
# XS_EXPORT_OPS, the ops table the module exports, and XS_MODULE_FILE,
# _TREE and _IFACE for its summary).
#
#   make -f $(pkgdatadir)/xen-shim/module.mk srcdir=$(pkgdatadir) \
#        SCHEDSIM_CFLAGS="$(pkg-config --cflags schedsim)" [CC=cc] [CFLAGS=-O2]
#
# The tree's objects are the rules of a tree built into schedsim (one
# place: add-tree.sh), compiled position-independent; adapter.c is
# schedsim's side of the shim as it is built in, compiled against the
# installed headers (schedulers/module.h).  Only the loader's two symbols
# stay visible (module.map): Xen's globals and the shim's stay inside.
include $(srcdir)/xen-shim/shim.mk
CC = cc
CFLAGS = -O2 -g
OBJCOPY = objcopy
XS_OUT = xen-shim
XS_CC = $(CC) $(CFLAGS) $(XS_CFLAGS) -fPIC

module.so: $(XS_OUT)/tree0.o $(XS_OUT)/adapter.o $(srcdir)/xen-shim/module.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=$(srcdir)/xen-shim/module.map \
		-o $@ $(XS_OUT)/tree0.o $(XS_OUT)/adapter.o

$(XS_OUT)/adapter.o: $(srcdir)/xen-shim/adapter.c config.h xen-trees.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=c11 -D_DEFAULT_SOURCE -fPIC -I. $(SCHEDSIM_CFLAGS) -I$(srcdir) \
		-c -o $@ $(srcdir)/xen-shim/adapter.c

include $(XS_OUT)/tree0.mk

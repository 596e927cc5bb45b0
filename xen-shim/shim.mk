# The compiler flags of Xen's side of the shim (glue.c and the scheduler
# files it includes), for every build of it: a tree built into schedsim
# (xen-shim/trees.mk, written by configure), make fuzz, and a scheduler
# file built into a module (xen-shim/module.mk, schedsim-xen-module).
#
# -fwrapv: Xen is built without it, but its int credits of before 2020
# overflow and rely on gcc's wrapping (2017's credit2.c tickle_score,
# t2c_update, the reset's multiplier), which is undefined in C and aborts
# a sanitizer build; -fwrapv makes the wrap the defined behaviour the
# model follows.
XS_CFLAGS = -std=gnu11 -Wall -fwrapv

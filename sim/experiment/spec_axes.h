/*
 * Parameter axes inside a scheduler spec: each {a,b,...} group stands for
 * its values in turn, and a spec expands to the cross product of its
 * groups, every combination its own configuration labelled by its text:
 *
 *   credit2:ratelimit_us={0,500}:runqueue={core,socket}
 *     -> credit2:ratelimit_us=0:runqueue=core
 *        credit2:ratelimit_us=0:runqueue=socket
 *        credit2:ratelimit_us=500:runqueue=core
 *        credit2:ratelimit_us=500:runqueue=socket
 *
 * The last group varies fastest (as an odometer), so configurations that
 * differ in one parameter sit next to each other in the tables.
 */
#ifndef SCHEDSIM_SPEC_AXES_H
#define SCHEDSIM_SPEC_AXES_H

#include "sim/err.h"

/* At most this many configurations from one --sched option. */
#define SPEC_AXES_MAX 4096

/*
 * Replaces the list (*items, *n), allocated strings in an allocated array,
 * by its expansion; -1 with a one-line error naming the spec otherwise
 * (the list is left as it was).
 */
int spec_axes_expand(char ***items, int *n, struct err *e);

#endif

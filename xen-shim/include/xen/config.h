/* Xen config.h (up to 2018): nothing the scheduler files need beyond the stubs. */
#include <xen/compiler.h>

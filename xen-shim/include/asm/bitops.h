/* Xen's asm/bitops.h: all of it is in the stub xen/bitops.h. */
#include <xen/bitops.h>

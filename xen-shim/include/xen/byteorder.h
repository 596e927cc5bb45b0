/* Xen byteorder.h (master): what it gives is in the stubs already. */
#include <xen/lib.h>

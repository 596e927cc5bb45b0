/* Xen bug.h (2023 on): BUG, ASSERT and friends are in the stub lib.h. */
#include <xen/lib.h>
#include <xen/kernel.h>

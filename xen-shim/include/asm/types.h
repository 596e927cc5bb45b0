#include <xen/types.h>

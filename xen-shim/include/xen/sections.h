/* Xen sections.h (2024 on): the section attributes are in the stub compiler.h. */
#include <xen/compiler.h>

/* Xen public/sysctl.h (up to 2017 the files include it): in the stub sched.h. */
#include <xen/sched.h>

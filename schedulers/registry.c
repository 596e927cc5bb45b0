/* The registered schedulers: add a module's ops table here. */
#include <string.h>

#include "schedulers/sched.h"

extern const struct sched_ops null_ops;
extern const struct sched_ops credit1_ops;
extern const struct sched_ops credit2_ops;
extern const struct sched_ops rtds_ops;
extern const struct sched_ops arinc653_ops;
/* ./configure --with-xen-source: Xen's own code of each tree (xen-shim/) */
#include "xen-shim/registry.h"

static const struct sched_ops *const registry[] = {
	&null_ops,
	&credit1_ops,
	&credit2_ops,
	&rtds_ops,
	&arinc653_ops,
	XEN_SHIM_OPS
	NULL
};

const struct sched_ops *const *sched_all(void)
{
	return registry;
}

const struct sched_ops *sched_find(const char *name)
{
	int i;

	for (i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0 ||
		    (registry[i]->alias && strcmp(registry[i]->alias, name) == 0))
			return registry[i];
	return NULL;
}

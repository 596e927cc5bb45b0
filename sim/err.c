#include "sim/err.h"

#include <stdio.h>
#include <string.h>

int err_vset(struct err *e, const char *fmt, va_list ap)
{
	if (e)
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	return -1;
}

int err_set(struct err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char prefix[256], old[sizeof(e->msg)];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof(old));
	snprintf(e->msg, sizeof(e->msg), "%s: %s", prefix, old);
	return -1;
}

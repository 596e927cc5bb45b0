#include "sim/err.h"

#include <stdio.h>
#include <string.h>

/*
 * Messages are one line: a control character quoted from the input (a
 * line break in an attribute value, say) is shown as '?'.
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int err_vset(struct err *e, const char *fmt, va_list ap)
{
	if (e) {
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		one_line(e->msg);
	}
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
	if (snprintf(e->msg, sizeof(e->msg), "%s: %s", prefix, old) >= (int)sizeof(e->msg))
		e->msg[sizeof(e->msg) - 2] = '~';   /* cut short: say so */
	one_line(e->msg);
	return -1;
}

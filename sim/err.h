/*
 * Error reporting without global state: a function that can fail takes a
 * struct err and fills it with one line ("file:line: problem") before it
 * returns -1 (or NULL).  The CLI prints the line and exits with status 2.
 */
#ifndef SCHEDSIM_ERR_H
#define SCHEDSIM_ERR_H

#include <stdarg.h>

struct err {
	char msg[1024];
};

/* Sets e->msg (if e is not NULL) and returns -1. */
int err_set(struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int err_vset(struct err *e, const char *fmt, va_list ap);
/* Prepends "prefix: " to an error already set. */
int err_prefix(struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

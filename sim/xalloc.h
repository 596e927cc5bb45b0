/* Allocation that aborts on exhaustion: a simulator cannot go on without memory. */
#ifndef SCHEDSIM_XALLOC_H
#define SCHEDSIM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);

#endif

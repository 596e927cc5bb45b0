#include "sim/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
	if (!p) {
		fputs("schedsim: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		check(NULL);
	size_t bytes = nmemb * size;

	return check(realloc(p, bytes ? bytes : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

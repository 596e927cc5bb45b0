/*
 * Shared by the libFuzzer harnesses (fuzz/fuzz_*.c) and the plain-C corpus
 * replayer (fuzz/replay.c).  Each harness is one LLVMFuzzerTestOneInput();
 * clang links it with libFuzzer for `make fuzz`, and the normal compiler
 * links the very same function with replay.c so that `make check` feeds
 * it every file of the seed corpus.  A harness reports a problem by
 * aborting, which both libFuzzer and the test driver see as a failure.
 */
#ifndef SCHEDSIM_FUZZ_H
#define SCHEDSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Every rejected input must say why, on one line.  Known and reported
 * (fuzz/known-bugs/README.md): the parsers quote the offending text as is,
 * so a value with a line break in it gives a message with one.  A harness
 * passes echo = true when its input could carry such a value; the break
 * is then tolerated (unless FUZZ_STRICT_ONE_LINE is defined) so that the
 * fuzzers keep looking for other problems.
 */
static inline void fuzz_check_error(const struct err *e, const char *what, int echo)
{
	int broken = strpbrk(e->msg, "\n\r") != NULL;

#ifndef FUZZ_STRICT_ONE_LINE
	if (echo)
		broken = 0;
#endif
	if (!e->msg[0] || broken) {
		fprintf(stderr, "%s: error message empty or not one line: '%s'\n",
			what, e->msg);
		abort();
	}
}

static inline int fuzz_has_break(const char *s)
{
	return strpbrk(s, "\n\r") != NULL;
}

/* The input as a C string (the parsers take text). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif

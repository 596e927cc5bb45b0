/*
 * Content digests: FNV-1a 64 over bytes, and over a whole file as the 16
 * hex digits that results carry to name what they were made from (a
 * scenario file, a scheduler module), so that merge can refuse parts made
 * from other files.
 */
#ifndef SCHEDSIM_DIGEST_H
#define SCHEDSIM_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define DIGEST_SEED 0xcbf29ce484222325ull
#define DIGEST_HEX 17   /* 16 hex digits and the NUL */

/* h moved on over n bytes at p (start from DIGEST_SEED). */
uint64_t digest_bytes(uint64_t h, const void *p, size_t n);
/* The digest of path's contents into out; -1 when it cannot be read. */
int digest_file(const char *path, char out[DIGEST_HEX]);

#endif

/* FNV-1a 64 digests of bytes and of files (digest.h). */
#include "sim/digest.h"

#include <stdio.h>

uint64_t digest_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t k = 0; k < n; k++) {
		h ^= c[k];
		h *= 0x100000001b3ull;
	}
	return h;
}

int digest_file(const char *path, char out[DIGEST_HEX])
{
	uint64_t h = DIGEST_SEED;
	char buf[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		h = digest_bytes(h, buf, n);
	fclose(f);
	snprintf(out, DIGEST_HEX, "%016llx", (unsigned long long)h);
	return 0;
}

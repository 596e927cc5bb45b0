/*
 * Replays a fuzz corpus through one harness without libFuzzer, so that
 * `make check` (built with the normal compiler, optionally with
 * --enable-sanitizers) keeps every seed and every crash ever found as a
 * regression test.  Arguments are files or directories; with none, the
 * corpus directory compiled in as FUZZ_CORPUS.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"

struct replay {
	int files;
	int failed;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_file(struct replay *r, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
		r->failed++;
		return;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	r->files++;
}

/* Files in name order, so a failure always shows up at the same place. */
static void replay_dir(struct replay *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, path[4096];
	int n = 0, i;

	if (!d) {
		fprintf(stderr, "replay: cannot open %s: %s\n", dir, strerror(errno));
		r->failed++;
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, sizeof(*names) * (size_t)(n + 1));
		if (!names || !(names[n] = strdup(de->d_name)))
			abort();
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		replay_file(r, path);
		free(names[i]);
	}
	free(names);
}

static void replay_path(struct replay *r, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		replay_dir(r, path);
	else
		replay_file(r, path);
}

/*
 * A harness that cannot run in this build (fuzz_xen_diff without the
 * Xen trees it compares against) says why here: the replay is skipped.
 */
__attribute__((weak)) const char *fuzz_replay_skip(void);

int main(int argc, char **argv)
{
	struct replay r = { 0, 0 };
	const char *skip = fuzz_replay_skip ? fuzz_replay_skip() : NULL;
	int i;

	if (skip) {
		printf("SKIP: %s\n", skip);
		return 77;
	}
	if (argc < 2)
		replay_path(&r, FUZZ_CORPUS);
	for (i = 1; i < argc; i++)
		replay_path(&r, argv[i]);
	printf("replayed %d inputs\n", r.files);
	if (r.failed || r.files == 0)
		return 1;
	return 0;
}

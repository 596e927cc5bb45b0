/* Whole small text files for the parsers of users' files (see textfile.h). */
#include "sim/input/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/xalloc.h"

int textfile_read(const char *path, char **out, size_t *len, struct err *e)
{
	return textfile_read_max(path, TEXTFILE_MAX, out, len, e);
}

int textfile_read_max(const char *path, size_t max, char **out, size_t *len, struct err *e)
{
	size_t cap = 4096, n = 0;
	struct stat st;
	char *buf;
	int fd;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return err_set(e, "%s: is a directory", path);
	}
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > max)
				break;
			cap *= 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err_set(e, "%s: cannot read: %s", path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		if (max == TEXTFILE_MAX)
			err_set(e, "%s: too large (more than %d MiB; such files are a few KiB)", path,
				TEXTFILE_MAX >> 20);
		else
			err_set(e, "%s: too large (more than %zu MiB)", path, max >> 20);
		goto fail;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		size_t at = strlen(buf);
		int line = 1;

		for (size_t i = 0; i < at; i++)
			line += buf[i] == '\n';
		err_set(e, "%s:%d: NUL byte (not a text file)", path, line);
		goto fail;
	}
	close(fd);
	*out = buf;
	*len = n;
	return 0;
fail:
	close(fd);
	free(buf);
	return -1;
}

char *textfile_relative(const char *base, const char *path)
{
	const char *slash = base ? strrchr(base, '/') : NULL;
	size_t dir;
	char *s;

	if (path[0] == '/' || !slash)
		return xstrdup(path);
	dir = (size_t)(slash - base) + 1;
	s = xmalloc(dir + strlen(path) + 1);
	memcpy(s, base, dir);
	strcpy(s + dir, path);
	return s;
}

/*
 * Reading a whole text file a user names (an xl domain configuration, the
 * output of lscpu -p or xl info -n): bounded in size, refused when it is
 * a directory or holds a NUL byte, so that the parsers behind it work on
 * one NUL-terminated string and every failure is one line naming the file.
 */
#ifndef SCHEDSIM_TEXTFILE_H
#define SCHEDSIM_TEXTFILE_H

#include <stddef.h>

#include "sim/err.h"

/* Files read this way are limited to this size (they are small by nature). */
#define TEXTFILE_MAX (4 << 20)

/*
 * Reads path into a new NUL-terminated buffer (*out, free() it) of *len
 * bytes; -1 with e set ("PATH: cannot open: ...", "PATH:LINE: NUL byte").
 */
int textfile_read(const char *path, char **out, size_t *len, struct err *e);
/* The same for files that may be larger (traces): at most max bytes. */
int textfile_read_max(const char *path, size_t max, char **out, size_t *len, struct err *e);

/*
 * path as seen from the directory of 'base' (a file name): path itself
 * when it is absolute or base has no directory part.  Returns a new string.
 */
char *textfile_relative(const char *base, const char *path);

#endif

/*
 * Expanding {a,b,...} groups of scheduler specs (see spec_axes.h).
 *
 * A spec is cut into pieces: literal text, and groups holding their
 * values.  The combinations are then counted like an odometer over the
 * groups; each one is the pieces joined with one value of every group.
 */
#include "sim/experiment/spec_axes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

struct piece {
	char **vals;      /* a literal is a group of one */
	int n;
};

struct pieces {
	struct piece *p;
	int n;
};

static void piece_add(struct pieces *ps, const char *s, size_t len, bool group)
{
	struct piece *p;
	size_t start = 0;

	ps->p = xreallocarray(ps->p, (size_t)ps->n + 1, sizeof(*ps->p));
	p = &ps->p[ps->n++];
	p->vals = NULL;
	p->n = 0;
	for (size_t k = 0; k <= len; k++)
		if (k == len || (group && s[k] == ',')) {
			p->vals = xreallocarray(p->vals, (size_t)p->n + 1, sizeof(*p->vals));
			p->vals[p->n] = xmalloc(k - start + 1);
			memcpy(p->vals[p->n], s + start, k - start);
			p->vals[p->n][k - start] = '\0';
			p->n++;
			start = k + 1;
		}
}

static void pieces_free(struct pieces *ps)
{
	for (int i = 0; i < ps->n; i++) {
		for (int k = 0; k < ps->p[i].n; k++)
			free(ps->p[i].vals[k]);
		free(ps->p[i].vals);
	}
	free(ps->p);
}

static int cut(const char *spec, struct pieces *ps, struct err *e)
{
	const char *s = spec;

	while (*s) {
		const char *open = strpbrk(s, "{}"), *close;

		if (!open) {
			piece_add(ps, s, strlen(s), false);
			break;
		}
		if (*open == '}')
			return err_set(e, "'%s': '}' without '{'", spec);
		close = strpbrk(open + 1, "{}");
		if (!close || *close == '{')
			return err_set(e, "'%s': '{' without '}' (groups do not nest)", spec);
		if (open > s)
			piece_add(ps, s, (size_t)(open - s), false);
		piece_add(ps, open + 1, (size_t)(close - open - 1), true);
		for (int k = 0; k < ps->p[ps->n - 1].n; k++)
			if (!ps->p[ps->n - 1].vals[k][0])
				return err_set(e, "'%s': empty value in {%.*s}", spec,
					       (int)(close - open - 1), open + 1);
		s = close + 1;
	}
	return 0;
}

/* Appends the combinations of one spec to (*out, *nout). */
static int expand_one(const char *spec, char ***out, int *nout, struct err *e)
{
	struct pieces ps = { NULL, 0 };
	long long count = 1;
	int *pos;

	if (cut(spec, &ps, e)) {
		pieces_free(&ps);
		return -1;
	}
	for (int i = 0; i < ps.n; i++)
		if ((count *= ps.p[i].n) + *nout > SPEC_AXES_MAX) {
			pieces_free(&ps);
			return err_set(e, "'%s': more than %d configurations", spec, SPEC_AXES_MAX);
		}
	pos = xcalloc((size_t)ps.n + 1, sizeof(*pos));
	for (long long c = 0; c < count; c++) {
		size_t len = 1;
		char *t;

		for (int i = 0; i < ps.n; i++)
			len += strlen(ps.p[i].vals[pos[i]]);
		t = xmalloc(len);
		t[0] = '\0';
		for (int i = 0; i < ps.n; i++)
			strcat(t, ps.p[i].vals[pos[i]]);
		*out = xreallocarray(*out, (size_t)*nout + 1, sizeof(**out));
		(*out)[(*nout)++] = t;
		for (int i = ps.n - 1; i >= 0; i--) {     /* the odometer */
			if (++pos[i] < ps.p[i].n)
				break;
			pos[i] = 0;
		}
	}
	free(pos);
	pieces_free(&ps);
	return 0;
}

int spec_axes_expand(char ***items, int *n, struct err *e)
{
	char **out = NULL;
	int nout = 0;

	for (int i = 0; i < *n; i++)
		if (expand_one((*items)[i], &out, &nout, e)) {
			for (int k = 0; k < nout; k++)
				free(out[k]);
			free(out);
			return -1;
		}
	for (int i = 0; i < *n; i++)
		free((*items)[i]);
	free(*items);
	*items = out;
	*n = nout;
	return 0;
}

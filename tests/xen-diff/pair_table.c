/* The table of model-versus-Xen pairs (pair_table.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/loader.h"
#include "schedulers/sched.h"
#include "sim/params.h"
#include "sim/xalloc.h"
#include "tests/xen-diff/pair_table.h"
#include "tests/xen-diff/scengen.h"

int pair_flags_parse(const char *s, unsigned *flags, char *why, size_t len)
{
	char buf[128], *tok, *save = NULL;

	*flags = 0;
	if (strcmp(s, "-") == 0)
		return 0;
	if (strlen(s) >= sizeof(buf)) {
		snprintf(why, len, "flags too long");
		return -1;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "nocaps") == 0)
			*flags |= SCENGEN_NO_CAPS;
		else if (strcmp(tok, "nosoft") == 0)
			*flags |= SCENGEN_NO_SOFT;
		else if (strcmp(tok, "nohard") == 0)
			*flags |= SCENGEN_NO_HARD;
		else if (strcmp(tok, "rt") == 0)
			*flags |= SCENGEN_RT;
		else if (strcmp(tok, "noextra") == 0)
			*flags |= SCENGEN_NO_EXTRA | SCENGEN_RT;
		else if (strcmp(tok, "arinc653") == 0)
			*flags |= SCENGEN_ARINC653;
		else if (strcmp(tok, "pools") == 0)
			*flags |= SCENGEN_POOLS;
		else if (strcmp(tok, "units") == 0)
			*flags |= SCENGEN_UNITS;
		else {
			snprintf(why, len, "unknown generator flag '%s' (nocaps, nosoft, nohard, rt, "
				 "noextra, arinc653, pools, units, or -)", tok);
			return -1;
		}
	}
	/* Which of two pools an <arinc653> is for is not what these pairs test. */
	if ((*flags & SCENGEN_POOLS) && (*flags & SCENGEN_ARINC653)) {
		snprintf(why, len, "generator flags pools and arinc653 do not go together");
		return -1;
	}
	return 0;
}

/*
 * 1: name is a scheduler of this build, or with mods a module's file
 * (--sched=./x.so), loaded now; 0: neither; -1: a module that does not
 * load, with the loader's line in e.
 */
static int known(const char *name, struct sched_modules *mods, struct err *e)
{
	if (mods && sched_name_is_file(name, strlen(name)))
		return sched_modules_load(mods, name, e) ? 1 : -1;
	return sched_find(name) != NULL;
}

/* Checks that both specs name schedulers of this build; sets p->skip if not. */
static int resolve(struct pair *p, struct sched_modules *mods, const char *where, struct err *e)
{
	struct sched_spec s;
	int k;

	if (sched_spec_parse(p->model, &s, e) < 0)
		return err_prefix(e, "%s", where);
	k = known(s.name, mods, e);
	sched_spec_free(&s);
	if (k < 0)
		return err_prefix(e, "%s", where);
	if (!k)
		return err_set(e, "%s: unknown model '%s'", where, p->model);
	if (sched_spec_parse(p->xen, &s, e) < 0)
		return err_prefix(e, "%s", where);
	k = known(s.name, mods, e);
	if (k < 0) {
		sched_spec_free(&s);
		return err_prefix(e, "%s", where);
	}
	if (!k) {
		const struct sched_ops *const *all = sched_all();
		const char *at = strchr(s.name, '@');
		int i;

		/* The tree is built but lacks that file (null before 2017), or is not built. */
		p->skip = "tree not built";
		for (i = 0; at && all[i]; i++) {
			const char *t = strchr(all[i]->name, '@');

			if (t && strcmp(t, at) == 0)
				p->skip = "the tree has no such scheduler";
		}
	}
	sched_spec_free(&s);
	return 0;
}

int pairs_load(const char *path, struct pair **out, int *n, struct err *e)
{
	FILE *f = fopen(path, "r");
	char line[1024], where[300];
	int lineno = 0, cap = 0;

	if (!f)
		return err_set(e, "%s: %s", path, strerror(errno));
	*out = NULL;
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		char model[PAIR_SPEC_MAX], xen[PAIR_SPEC_MAX], tree[64], need[32], flags[128], extra[8];
		char why[200];
		struct pair *p;
		int k;

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			err_set(e, "%s: line too long", where);
			goto fail;
		}
		line[strcspn(line, "#\n")] = '\0';
		flags[0] = '\0';
		k = sscanf(line, "%255s %255s %63s %31s %127s %7s", model, xen, tree, need, flags, extra);
		if (k <= 0)
			continue;
		if (k < 4 || k > 5) {
			err_set(e, "%s: want MODEL XEN TREE MIN%% [FLAGS], got %d field(s)", where, k);
			goto fail;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = xreallocarray(*out, (size_t)cap, sizeof(**out));
		}
		p = &(*out)[*n];
		memset(p, 0, sizeof(*p));
		p->line = lineno;
		snprintf(p->model, sizeof(p->model), "%s", model);
		{
			/* XEN may carry parameters: xen-credit2:ratelimit_us=0 -> xen-credit2@T:... */
			const char *colon = strchr(xen, ':');
			int base = colon ? (int)(colon - xen) : (int)strlen(xen);

			snprintf(p->xen, sizeof(p->xen), "%.*s@%s%s", base, xen, tree, colon ? colon : "");
		}
		{
			char *end;

			p->need = strtod(need, &end);
			if (end == need || (*end && strcmp(end, "%") != 0) || p->need < 0 || p->need > 100) {
				err_set(e, "%s: MIN%% '%s' is not a percentage (0 to 100)", where, need);
				goto fail;
			}
		}
		if (pair_flags_parse(k == 5 ? flags : "-", &p->flags, why, sizeof(why)) < 0) {
			err_set(e, "%s: %s", where, why);
			goto fail;
		}
		if (resolve(p, NULL, where, e) < 0)
			goto fail;
		(*n)++;
	}
	fclose(f);
	if (*n)
		return 0;
	err_set(e, "%s: no pairs", path);
	free(*out);
	*out = NULL;
	return -1;

fail:
	/* Nothing of a table with an error is kept. */
	fclose(f);
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

const char *pair_flags_format(unsigned flags, char *buf, size_t len)
{
	static const struct { unsigned flag; const char *name; } names[] = {
		{ SCENGEN_NO_CAPS, "nocaps" }, { SCENGEN_NO_SOFT, "nosoft" },
		{ SCENGEN_NO_HARD, "nohard" }, { SCENGEN_NO_EXTRA, "noextra" },
		{ SCENGEN_ARINC653, "arinc653" }, { SCENGEN_POOLS, "pools" }, { SCENGEN_UNITS, "units" },
	};
	size_t n = 0;
	size_t i;

	buf[0] = '\0';
	/* noextra implies rt: "rt" is written only without it. */
	if ((flags & SCENGEN_RT) && !(flags & SCENGEN_NO_EXTRA))
		n += (size_t)snprintf(buf, len, "rt");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].flag)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "," : "",
					      names[i].name);
	return buf;
}

int pair_parse(const char *text, struct pair *p, struct sched_modules *mods, struct err *e)
{
	const char *c1 = strchr(text, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	char why[200];
	size_t xlen;

	memset(p, 0, sizeof(*p));
	if (!c1 || c1 == text || !c1[1] || (size_t)(c1 - text) >= sizeof(p->model))
		return err_set(e, "pair '%s': want MODEL,XEN[,FLAGS]", text);
	xlen = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
	if (xlen == 0 || xlen >= sizeof(p->xen))
		return err_set(e, "pair '%s': want MODEL,XEN[,FLAGS]", text);
	snprintf(p->model, sizeof(p->model), "%.*s", (int)(c1 - text), text);
	snprintf(p->xen, sizeof(p->xen), "%.*s", (int)xlen, c1 + 1);
	p->need = 100;
	if (c2 && pair_flags_parse(c2 + 1, &p->flags, why, sizeof(why)) < 0)
		return err_set(e, "pair '%s': %s", text, why);
	return resolve(p, mods, "pair", e);
}

/*
 * The module loader (loader.h): dlopen of a scheduler module, the checks
 * that it is one this schedsim can run (schedulers/module.h: the ABI
 * version first, then the sizes of the shared structures, then an ops
 * table the core can call), and the names --sched resolves through it.
 */
#include "schedulers/loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schedulers/module.h"
#include "schedulers/sched.h"
#include "sim/xalloc.h"

void sched_modules_init(struct sched_modules *m, const char *search)
{
	memset(m, 0, sizeof(*m));
	m->search = search && *search ? xstrdup(search) : NULL;
}

void sched_modules_free(struct sched_modules *m)
{
	for (int i = 0; i < m->n; i++) {
		if (m->m[i].handle)
			dlclose(m->m[i].handle);
		free(m->m[i].name);
		free(m->m[i].path);
	}
	free(m->m);
	free(m->search);
	memset(m, 0, sizeof(*m));
}

const struct sched_module *sched_modules_get(const struct sched_modules *m, const char *name)
{
	for (int i = 0; m && i < m->n; i++)
		if (!strcmp(m->m[i].name, name))
			return &m->m[i];
	return NULL;
}

/* The bytes a parameter of type t takes in the config struct (sim/params.h). */
static size_t param_size(enum param_type t)
{
	switch (t) {
	case PARAM_INT: case PARAM_SIZE: return sizeof(long long);
	case PARAM_BOOL: return sizeof(bool);
	case PARAM_ENUM: return sizeof(int);
	case PARAM_DURATION: return sizeof(stime_t);
	case PARAM_DOUBLE: return sizeof(double);
	case PARAM_STRING: return PARAM_STRING_MAX;
	}
	return (size_t)-1;
}

/* What the core needs of an ops table: a name, the hooks it calls unasked, parameters inside the config. */
static int check_ops(const struct sched_ops *ops, struct err *e)
{
	static const char *const hooks[] = { "alloc_udata", "wake", "sleep", "do_schedule",
					     "pick_resource" };
	const void *set[] = { (const void *)ops->alloc_udata, (const void *)ops->wake,
			      (const void *)ops->sleep, (const void *)ops->do_schedule,
			      (const void *)ops->pick_resource };
	const struct param_def *d;

	if (!ops->name || !ops->name[0] || strlen(ops->name) >= 64 || !ops->summary)
		return err_set(e, "its ops table has no name (under 64 characters) or no summary");
	for (size_t k = 0; k < sizeof(hooks) / sizeof(hooks[0]); k++)
		if (!set[k])
			return err_set(e, "its ops table has no %s, which the core calls", hooks[k]);
	for (d = ops->params; d && d->name; d++)
		if (param_size(d->type) == (size_t)-1 ||
		    d->offset + param_size(d->type) > ops->config_size)
			return err_set(e, "parameter %s lies outside its config_size (%zu bytes)",
				       d->name, ops->config_size);
	return 0;
}

static int check_sizes(const struct schedsim_module *mod, struct err *e)
{
	static const char *const what[] = { "struct sched_ops", "struct scheduler", "struct sim",
					    "struct vcpu", "struct domain", "struct pcpu",
					    "struct cpupool", "struct param_def" };
	const size_t here[] = { SCHEDSIM_MODULE_SIZES };
	const size_t there[] = { mod->sched_ops_size, mod->scheduler_size, mod->sim_size,
				 mod->vcpu_size, mod->domain_size, mod->pcpu_size,
				 mod->cpupool_size, mod->param_def_size };

	for (size_t k = 0; k < sizeof(here) / sizeof(here[0]); k++)
		if (here[k] != there[k])
			return err_set(e, "built against other schedsim headers (%s is %zu bytes "
				       "there, %zu here): rebuild it with this schedsim's "
				       "(pkg-config --cflags schedsim)", what[k], there[k], here[k]);
	return 0;
}

/* dlerror()'s text without the file's name it starts with. */
static const char *dl_reason(const char *path)
{
	const char *why = dlerror();
	size_t n = strlen(path);

	if (!why)
		return "unknown error";
	if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2))
		why += n + 2;
	return why;
}

/* Opens path and checks it (the reasons as in loader.h); -1 with e set. */
static int open_module(const char *path, struct sched_module *out, struct err *e)
{
	const struct schedsim_module *mod;
	const unsigned *abi;
	struct stat st;
	const char *why;

	if (stat(path, &st) < 0)
		return err_set(e, "cannot read it (%s)", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return err_set(e, "not a module (not a file)");
	if (digest_file(path, out->digest) < 0)
		return err_set(e, "cannot read it (%s)", strerror(errno));
	out->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!out->handle) {
		why = dl_reason(path);
		if (strstr(why, "undefined symbol"))
			return err_set(e, "missing symbol: it needs %s, which this schedsim does "
				       "not have (built against another schedsim?)", why);
		return err_set(e, "not a module (%s)", why);
	}
	abi = dlsym(out->handle, "schedsim_module_abi");
	if (!abi)
		return err_set(e, "not a schedsim module (no symbol schedsim_module_abi: end "
			       "it with SCHEDSIM_MODULE(ops), schedulers/module.h)");
	if (*abi != SCHEDSIM_MODULE_ABI)
		return err_set(e, "module ABI version %u, this schedsim loads version %u: "
			       "rebuild it with this schedsim's headers (pkg-config --cflags "
			       "schedsim)", *abi, SCHEDSIM_MODULE_ABI);
	mod = dlsym(out->handle, "schedsim_module");
	if (!mod)
		return err_set(e, "missing symbol schedsim_module (end it with "
			       "SCHEDSIM_MODULE(ops), schedulers/module.h)");
	if (check_sizes(mod, e) < 0)
		return -1;
	if (!mod->ops)
		return err_set(e, "its schedsim_module has no ops table");
	if (check_ops(mod->ops, e) < 0)
		return -1;
	out->ops = mod->ops;
	return 0;
}

/* Loads path as name; the message names the module. */
static const struct sched_ops *load(struct sched_modules *m, const char *name,
				    const char *path, struct err *e)
{
	struct sched_module mod = { 0 };
	/* dlopen searches the library path for a name without '/': say where */
	char *file = xmalloc(strlen(path) + 3);

	sprintf(file, "%s%s", strchr(path, '/') ? "" : "./", path);
	if (open_module(file, &mod, e) < 0) {
		if (mod.handle)
			dlclose(mod.handle);
		free(file);
		return err_prefix(e, "scheduler module %s", path), NULL;
	}
	mod.name = xstrdup(name);
	mod.path = file;
	m->m = xreallocarray(m->m, (size_t)m->n + 1, sizeof(*m->m));
	m->m[m->n++] = mod;
	return mod.ops;
}

/* The next directory of the search path, from *at on (NULL after the last); *at moves past it. */
static char *next_dir(const char **at)
{
	while (*at && **at) {
		size_t n = strcspn(*at, ":");
		char *dir = xmalloc(n + 1);

		memcpy(dir, *at, n);
		dir[n] = '\0';
		*at += n + ((*at)[n] == ':');
		if (n)
			return dir;
		free(dir);
	}
	return NULL;
}

/* DIR/NAME.so of the first directory of the search path that has it, or NULL. */
static char *search(const struct sched_modules *m, const char *name)
{
	const char *at = m->search;
	char *dir;

	while ((dir = next_dir(&at))) {
		char *path = xmalloc(strlen(dir) + strlen(name) + 5);
		struct stat st;

		sprintf(path, "%s/%s.so", dir, name);
		free(dir);
		if (stat(path, &st) == 0)
			return path;
		free(path);
	}
	return NULL;
}

const struct sched_ops *sched_modules_load(struct sched_modules *m, const char *name,
					   struct err *e)
{
	const struct sched_module *had = sched_modules_get(m, name);
	const struct sched_ops *ops;
	char *path;

	if (had)
		return had->ops;
	if (sched_name_is_file(name, strlen(name)))
		return load(m, name, name, e);
	if ((ops = sched_find(name)))
		return ops;
	path = search(m, name);
	if (path) {
		ops = load(m, name, path, e);
		free(path);
		return ops;
	}
	ops = sched_lookup(name, e);
	if (m->search)
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg),
			 "; no %s.so in SCHEDSIM_MODULE_PATH (%s)", name, m->search);
	return ops;
}

struct scheduler *sched_modules_create(const void *ctx, struct sim *s, struct cpupool *pool,
				       const struct sched_spec *spec, struct err *e)
{
	const struct sched_module *mod = sched_modules_get(ctx, spec->name);
	const struct sched_ops *ops = mod ? mod->ops : sched_lookup(spec->name, e);

	return ops ? sched_create(ops, s, pool, spec, e) : NULL;
}

static int is_module_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".so");
}

/* The NAME.so files of one directory of the search path, in name order. */
static void list_dir(struct sched_modules *m, const char *dir, FILE *f)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, is_module_file, alphasort);

	for (int k = 0; k < n; k++) {
		char name[256], *path = xmalloc(strlen(dir) + strlen(ents[k]->d_name) + 2);
		struct err e = { "" };
		const struct sched_ops *ops;

		sprintf(path, "%s/%s", dir, ents[k]->d_name);
		snprintf(name, sizeof(name), "%.*s", (int)strlen(ents[k]->d_name) - 3,
			 ents[k]->d_name);
		if (sched_find(name))
			err_set(&e, "the built-in scheduler %s has that name", name);
		ops = sched_modules_get(m, name) || e.msg[0] ? NULL : load(m, name, path, &e);
		if (ops)
			sched_describe(f, name, ops, path);
		else if (e.msg[0])
			fprintf(f, "%s - not loaded: %s\n", name, e.msg);
		free(path);
		free(ents[k]);
	}
	if (n > 0)
		free(ents);
}

void sched_modules_list(struct sched_modules *m, FILE *f)
{
	const struct sched_ops *const *all = sched_all();
	const char *at = m->search;
	int loaded = m->n;
	char *dir;

	for (int i = 0; all[i]; i++)
		sched_describe(f, NULL, all[i], NULL);
	for (int i = 0; i < loaded; i++)
		sched_describe(f, m->m[i].name, m->m[i].ops, m->m[i].path);
	while ((dir = next_dir(&at))) {
		list_dir(m, dir, f);
		free(dir);
	}
	sched_list_notes(f);
}

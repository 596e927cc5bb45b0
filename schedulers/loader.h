/*
 * The module loader: scheduler names as --sched and a <pool sched=...>
 * give them, resolved to ops tables.  A name is a built-in scheduler
 * (schedulers/registry.c), or a scheduler module loaded with dlopen
 * (schedulers/module.h, doc/modules.md): a file when the name holds a '/'
 * or ends in ".so" (--sched=./mysched.so), else NAME.so in a directory of
 * the search path (SCHEDSIM_MODULE_PATH) when no built-in scheduler has
 * that name.
 *
 * Nothing here is global: the CLI fills one struct sched_modules before
 * any run and passes it down (struct run_options), and the machine is
 * built with its factory, sched_modules_create, which finds a module only
 * among those loaded.  Worker processes are forked after the loading and
 * share it; a process of another shard loads the same files from its own
 * --sched, and each file's digest goes into the parts so that merge
 * refuses parts of other builds of a module.
 */
#ifndef SCHEDSIM_LOADER_H
#define SCHEDSIM_LOADER_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/digest.h"
#include "sim/engine/scheduler.h"
#include "sim/err.h"

struct sched_module {
	char *name;               /* as the spec names it: "./rr.so", "rr" */
	char *path;               /* the file loaded */
	char digest[DIGEST_HEX];  /* of the file's bytes (sim/digest.h) */
	void *handle;
	const struct sched_ops *ops;
};

struct sched_modules {
	char *search;             /* directories, ':' between them; NULL: none */
	struct sched_module *m;
	int n;
};

/* An empty set that finds NAME.so in the directories of search (may be NULL). */
void sched_modules_init(struct sched_modules *m, const char *search);
/* Unloads every module: after every machine built with them is destroyed. */
void sched_modules_free(struct sched_modules *m);

/*
 * The ops of name: a built-in scheduler, a module loaded before under
 * that name, or the module it names, loaded now.  NULL with one line in e
 * naming the module and what is wrong (not a module, another ABI version,
 * a missing symbol, an ops table the core cannot use), or the valid names.
 */
const struct sched_ops *sched_modules_load(struct sched_modules *m, const char *name,
					   struct err *e);
/* The module loaded under name, or NULL (a built-in or unknown name). */
const struct sched_module *sched_modules_get(const struct sched_modules *m, const char *name);
/*
 * The factory for cpupools_build (sim/engine/scheduler.h): ctx is a const
 * struct sched_modules * (NULL: built-in schedulers only); nothing is
 * loaded here.
 */
struct scheduler *sched_modules_create(const void *ctx, struct sim *s, struct cpupool *pool,
				       const struct sched_spec *spec, struct err *e);
/*
 * --list-schedulers: the built-in schedulers, the modules loaded, then
 * every NAME.so of the search path (loaded to be described; one that
 * cannot be is listed with what is wrong).
 */
void sched_modules_list(struct sched_modules *m, FILE *f);

#endif

/*
 * Reading a scenario: the XML loader (sim/input/scenario_xml.c), which
 * validates a file against the RelaxNG schema compiled into the binary and
 * then checks its meaning, and the embedded default scenario
 * (sim/input/scenario_default.c).  What they fill is the plain struct of
 * sim/engine/scenario.h; errors name the file and line.
 */
#ifndef SCHEDSIM_SCENARIO_LOAD_H
#define SCHEDSIM_SCENARIO_LOAD_H

#include "sim/engine/scenario.h"
#include "sim/err.h"

/* Loads and validates an XML scenario (RelaxNG schema, then semantics). */
int scenario_load_file(const char *path, struct scenario *sc, struct err *e);
int scenario_load_memory(const char *xml, int len, const char *name,
			 struct scenario *sc, struct err *e);
/*
 * The schema compiled once, for a program that loads many scenarios (the
 * random differential runs): each load above compiles it anew, which
 * costs more than parsing and validating a small scenario.
 * scenario_load_memory_with(NULL, ...) is scenario_load_memory.
 */
struct scenario_schema;
struct scenario_schema *scenario_schema_new(struct err *e);
void scenario_schema_free(struct scenario_schema *schema);
int scenario_load_memory_with(const struct scenario_schema *schema, const char *xml, int len,
			      const char *name, struct scenario *sc, struct err *e);
/* The embedded default scenario (16 pCPUs: 2 sockets x 4 cores x 2 threads). */
int scenario_load_default(struct scenario *sc, struct err *e);
extern const char scenario_default_xml[];
/* sim/input/scenario.rng, embedded at build time (sim/input/embed-text.sh). */
extern const char scenario_schema_rng[];

#endif

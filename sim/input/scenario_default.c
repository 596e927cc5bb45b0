/*
 * The scenario that runs without --scenario, so that the README's first
 * command shows a real result: a 16-pCPU host (2 sockets x 4 cores x 2
 * threads, one NUMA node per socket), dom0 with a light interactive load on
 * every pCPU and a guest that wants all the CPU it can get.  dom0 holds the
 * host's memory and xl autoballoons, as Xen and xl do by default (no
 * dom0_mem=, like the 2016 host's default 16 dom0 vCPUs; doc/validation.md,
 * "The guest's memory after autoballooning").  It goes through
 * the same loader and schema as a user's file: one format, one set of checks.
 */
#include "sim/input/scenario_load.h"

#include <string.h>

const char scenario_default_xml[] =
	"<scenario duration=\"10s\" seed=\"1\">\n"
	"  <host sockets=\"2\" cores-per-socket=\"4\" threads-per-core=\"2\" nodes=\"2\"\n"
	"        autoballoon=\"on\"/>\n"
	"  <domain name=\"dom0\" vcpus=\"16\">\n"
	"    <workload type=\"phases\"><phase run=\"200us\" sleep=\"5ms\"/></workload>\n"
	"  </domain>\n"
	"  <domain name=\"guest\" vcpus=\"8\">\n"
	"    <workload type=\"cpu-hog\"/>\n"
	"  </domain>\n"
	"</scenario>\n";

int scenario_load_default(struct scenario *sc, struct err *e)
{
	return scenario_load_memory(scenario_default_xml, (int)strlen(scenario_default_xml),
				    "<default>", sc, e);
}

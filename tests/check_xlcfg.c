/*
 * xl domain configuration files (sim/input/xlcfg.c): xl's syntax as
 * docs/man/xl.cfg.5.pod.in and tools/libs/util/libxlu_cfg_{l.l,y.y}
 * define it (comments, ';', both quotes and their escapes, lists that
 * span lines, +=, numbers as strtol reads them), the keys that matter to
 * scheduling mapped onto a domain, the cpu lists of xl.cfg(5)'s own
 * examples evaluated on the host those examples describe, and bad input.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/engine/cpumask.h"
#include "sim/engine/topology.h"
#include "sim/input/scenario_load.h"
#include "sim/input/xlcfg.h"

#define DATA TESTS_SRCDIR "/data/xl/"

static void domain_defaults(struct domain_spec *d)
{
	memset(d, 0, sizeof(*d));
	d->vcpus = 1;
	d->weight = 256;
	d->line = 1;
}

/* Parses and applies text to d (defaults first); the message, or NULL on success. */
static const char *apply(const char *text, struct domain_spec *d)
{
	static struct err e;
	struct xlcfg c;
	int rc;

	memset(&e, 0, sizeof(e));
	domain_defaults(d);
	if (xlcfg_parse(text, strlen(text), "g.cfg", &c, &e) < 0)
		return e.msg;
	rc = xlcfg_domain(&c, "g.cfg", d, &e);
	xlcfg_free(&c);
	return rc < 0 ? e.msg : NULL;
}

static const char *apply_error(const char *text)
{
	struct domain_spec d;
	const char *msg = apply(text, &d);

	scenario_free_domain(&d);
	return msg ? msg : "(accepted)";
}

START_TEST(syntax_of_xl_cfg)
{
	static const char text[] =
		"# xl.cfg(5): KEY=VALUE pairs, separated by newlines or ';'\n"
		"name=\"h0\"; type='hvm'\n"
		"\n"
		"kernel = \"/boot/vmlinuz\"   # a comment after a value\n"
		"extra = 'console=hvc0 \\'quoted\\' \\\\ end'\n"
		"disk = [ 'phy:/dev/vg/h0,xvda,w',\n"
		"         # a comment inside a list\n"
		"         'file:/srv/h0.iso,hdc:cdrom,r',\n"
		"       ]\n"
		"vif = []\n"
		"nested = [ 1, [ 2, \"3\" ], [] ]\n"
		"memory = 512\n"
		"memory = 1024\n"          /* a later setting replaces an earlier one */
		"extra += \" more\"\n"
		"disk += [ 'phy:/dev/vg/h0b,xvdb,w' ]\n"
		"maxmem=0x800;vcpus=010\n" /* strtol base 0: hex, and octal 010 = 8 */
		"on_crash = \"restart\"";   /* the last setting needs no newline */
	struct err e = { "" };
	struct xlcfg c;
	const struct xlcfg_setting *s;

	ck_assert_msg(xlcfg_parse(text, strlen(text), "h0.cfg", &c, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(xlcfg_get(&c, "name")->value.s, "h0");
	ck_assert_str_eq(xlcfg_get(&c, "type")->value.s, "hvm");
	ck_assert_int_eq(xlcfg_get(&c, "type")->line, 2);
	ck_assert_str_eq(xlcfg_get(&c, "extra")->value.s, "console=hvc0 'quoted' \\ end more");
	s = xlcfg_get(&c, "disk");
	ck_assert_int_eq(s->value.type, XLCFG_LIST);
	ck_assert_int_eq(s->value.n, 3);
	ck_assert_str_eq(s->value.items[1].s, "file:/srv/h0.iso,hdc:cdrom,r");
	ck_assert_int_eq(s->value.items[1].line, 8);
	ck_assert_str_eq(s->value.items[2].s, "phy:/dev/vg/h0b,xvdb,w");
	ck_assert_int_eq(xlcfg_get(&c, "vif")->value.n, 0);
	s = xlcfg_get(&c, "nested");
	ck_assert_int_eq(s->value.n, 3);
	ck_assert_int_eq(s->value.items[1].type, XLCFG_LIST);
	ck_assert_str_eq(s->value.items[1].items[1].s, "3");
	ck_assert_str_eq(xlcfg_get(&c, "memory")->value.s, "1024");
	ck_assert_int_eq(xlcfg_get(&c, "memory")->line, 13);
	ck_assert_str_eq(xlcfg_get(&c, "on_crash")->value.s, "restart");
	ck_assert_ptr_null(xlcfg_get(&c, "pool"));
	xlcfg_free(&c);
}
END_TEST

START_TEST(scheduling_keys)
{
	struct domain_spec d;
	const char *msg = apply("name = \"web01\"\n"
				"type = \"pvh\"\n"
				"vcpus = 4\n"
				"maxvcpus = 8\n"
				"cpu_weight = 512\n"
				"cap = 150\n"
				"memory = 2048\n"
				"pool = \"Pool-0\"\n"
				"cpus = \"0-3,^1\"\n"
				"cpus_soft = \"nodes:0\"\n"
				"weight = 9\n"        /* not an xl key: ignored, as xl ignores it */
				"vif = [ 'bridge=xenbr0' ]\n", &d);

	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_str_eq(d.name, "web01");
	ck_assert_int_eq(d.line, 1);
	ck_assert_int_eq(d.vcpus, 4);
	ck_assert_int_eq(d.weight, 512);
	ck_assert_int_eq(d.cap, 150);
	ck_assert_int_eq(d.memory_mb, 2048);
	ck_assert_str_eq(d.hard, "0-3,^1");
	ck_assert_str_eq(d.soft, "nodes:0");
	ck_assert_int_eq(d.affinity_line, 9);
	ck_assert_str_eq(d.affinity_source, "g.cfg");
	ck_assert_int_eq(d.nvcpu_over, 0);
	ck_assert_str_eq(d.pool, "");        /* Pool-0, the default pool */
	scenario_free_domain(&d);

	/* pool= names the domain's cpupool, as xl create puts it there. */
	msg = apply("name='b'\npool='batch'\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_str_eq(d.pool, "batch");
	scenario_free_domain(&d);

	/* Nothing but a name: xl's defaults (1 vCPU, weight 256, no cap, no affinity). */
	msg = apply("name='a'\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_int_eq(d.vcpus, 1);
	ck_assert_int_eq(d.weight, 256);
	ck_assert_int_eq(d.cap, 0);
	ck_assert_int_eq(d.memory_mb, 0);
	ck_assert_ptr_null(d.hard);
	ck_assert_ptr_null(d.affinity_source);
	scenario_free_domain(&d);

	/* RTDS: period in microseconds, extratime a boolean (libxl's sched_params). */
	msg = apply("name='a'\nperiod=20000\nextratime=0\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert(d.rt.period == MSEC(20));
	ck_assert_int_eq(d.rt.budget, 0);
	ck_assert_int_eq(d.rt.extratime, RT_EXTRATIME_OFF);
	scenario_free_domain(&d);
	ck_assert_str_eq(apply_error("name='a'\nperiod=5\n"),
			 "g.cfg:2: period: 5 is out of range 10..4294967295");

	/* vcpus=0 is 1, as xl makes it; a quoted number is a number too. */
	msg = apply("name='a'\nvcpus=0\ncpu_weight=\"0x100\"\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_int_eq(d.vcpus, 1);
	ck_assert_int_eq(d.weight, 256);
	scenario_free_domain(&d);
}
END_TEST

START_TEST(per_vcpu_lists)
{
	/* xl.cfg(5): vCPU 0 on CPU 2, vCPU 1 on 3-8 but 5; vCPUs past the list keep all. */
	struct domain_spec d;
	const char *msg = apply("name='a'\nvcpus=3\n"
				"cpus = [\"2\", \"3-8,^5\"]\n"
				"cpus_soft = [ \"all\",\n"
				"              \"nodes:1\",\n"
				"              \"^4,6\" ]\n", &d);

	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_ptr_null(d.hard);
	ck_assert_ptr_null(d.soft);
	ck_assert_int_eq(d.nvcpu_over, 3);
	ck_assert_int_eq(d.vcpu_over[0].id, 0);
	ck_assert_str_eq(d.vcpu_over[0].hard, "2");
	ck_assert_str_eq(d.vcpu_over[0].soft, "all");
	ck_assert_str_eq(d.vcpu_over[1].hard, "3-8,^5");
	ck_assert_str_eq(d.vcpu_over[1].soft, "nodes:1");
	ck_assert_int_eq(d.vcpu_over[1].line, 3);
	ck_assert_int_eq(d.vcpu_over[2].id, 2);
	ck_assert_ptr_null(d.vcpu_over[2].hard);
	ck_assert_str_eq(d.vcpu_over[2].soft, "6");   /* xl starts from none: ^4 removes nothing */
	ck_assert_int_eq(d.vcpu_over[2].line, 6);
	scenario_free_domain(&d);

	/* Entries for offline vCPUs (vcpus..maxvcpus-1) and past maxvcpus are not used. */
	msg = apply("name='a'\nvcpus=1\nmaxvcpus=2\ncpus=['1','2','3']\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_int_eq(d.nvcpu_over, 1);
	ck_assert_str_eq(d.vcpu_over[0].hard, "1");
	scenario_free_domain(&d);
	/* An empty list pins nothing: the affinity is not the file's. */
	msg = apply("name='a'\ncpus=[]\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	ck_assert_int_eq(d.nvcpu_over, 0);
	ck_assert_ptr_null(d.affinity_source);
	scenario_free_domain(&d);
	/* An entry past maxvcpus is not even checked, as xl never looks at it. */
	msg = apply("name='a'\ncpus=['1','junk']\n", &d);
	ck_assert_msg(msg == NULL, "%s", msg);
	scenario_free_domain(&d);
}
END_TEST

/*
 * xl.cfg(5)'s examples, on the host they describe ("if CPUs 0-3 belong to
 * node 0, CPUs 4-7 to node 1, CPUs 8-11 to node 2 and CPUs 12-15 to node
 * 3"), with the results the page gives.
 */
START_TEST(documented_cpu_lists)
{
	static const struct { const char *list, *want; } ex[] = {
		{ "all", "0-15" },
		{ "0-3,5,^1", "0,2-3,5" },
		{ "all,^7", "0-6,8-15" },
		{ "nodes:0-3,^node:2", "0-7,12-15" },
		{ "1,node:1,^6", "1,4-5,7" },
		{ "all,^node:1", "0-3,8-15" },
		{ "all,^5-8", "0-4,9-15" },
		{ "node:0,node:2,^9-11,18-20", NULL },   /* 18-20: not CPUs of this host */
		{ "node:0,node:2,^9-11", "0-3,8" },
		{ "nodes:all", "0-15" },
	};
	struct topology t;
	struct cpumask *m;
	struct err e;
	char buf[64], cfg[128];

	ck_assert_int_eq(topology_init(&t, 4, 2, 2, 4, &e), 0);
	m = cpumask_alloc(16);
	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct domain_spec d;
		const char *msg;

		snprintf(cfg, sizeof(cfg), "name='a'\ncpus=\"%s\"\n", ex[i].list);
		msg = apply(cfg, &d);
		ck_assert_msg(msg == NULL, "%s: %s", ex[i].list, msg);
		if (ex[i].want) {
			ck_assert_msg(cpulist_parse(&t, d.hard, m, &e) == 0, "%s: %s", ex[i].list, e.msg);
			ck_assert_msg(!strcmp(cpumask_format(m, buf, sizeof(buf)), ex[i].want),
				      "%s gave %s, not %s", ex[i].list, buf, ex[i].want);
		} else {
			ck_assert_int_eq(cpulist_parse(&t, d.hard, m, &e), -1);
			ck_assert_msg(strstr(e.msg, "pCPU 20 out of range") != NULL, "%s", e.msg);
		}
		scenario_free_domain(&d);
	}
	cpumask_free(m);
	topology_free(&t);
}
END_TEST

START_TEST(file_on_disk)
{
	/* tests/data/xl/web.cfg: an xl config as a user keeps one. */
	struct domain_spec d;
	struct err e = { "" };

	domain_defaults(&d);
	ck_assert_msg(xlcfg_load(DATA "web.cfg", &d, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(d.name, "web");
	ck_assert_int_eq(d.vcpus, 4);
	ck_assert_int_eq(d.weight, 512);
	ck_assert_int_eq(d.memory_mb, 4096);
	ck_assert_str_eq(d.soft, "nodes:1");
	ck_assert_str_eq(d.affinity_source, DATA "web.cfg");
	scenario_free_domain(&d);
}
END_TEST

START_TEST(syntax_errors)
{
	ck_assert_str_eq(apply_error("name = \n"),
			 "g.cfg:1: syntax error near the end of the line: expected a value (a number, "
			 "a \"string\" or a [list])");
	ck_assert_str_eq(apply_error("name \"a\"\n"),
			 "g.cfg:1: syntax error near '\"a\"': expected '=' or '+=' after the key");
	ck_assert_str_eq(apply_error("name='a' vcpus=2\n"),
			 "g.cfg:1: syntax error near 'vcpus': expected the end of the setting (a "
			 "newline or ';')");
	ck_assert_str_eq(apply_error("Name='a'\n"),
			 "g.cfg:1: lexical error near 'N': keys are lowercase in xl's syntax");
	ck_assert_str_eq(apply_error("name='a'\nmemory = 512 * 2\n"),
			 "g.cfg:2: lexical error near '*'");
	ck_assert_str_eq(apply_error("name='a'\nmemory = -1\n"),
			 "g.cfg:2: lexical error near '-' (an xl config is not Python: values are "
			 "numbers, quoted strings or [lists])");
	ck_assert_str_eq(apply_error("name='a\n"),
			 "g.cfg:1: string not closed on its line (a ' is missing)");
	ck_assert_str_eq(apply_error("name='a\\\nb'\n"),
			 "g.cfg:1: backslash at the end of a line inside a string (xl strings do not "
			 "continue on the next line)");
	ck_assert_str_eq(apply_error("name='\\x41'\n"),
			 "g.cfg:1: numeric escape '\\x' in a string: xl does not decode these; write "
			 "the character itself");
	ck_assert_str_eq(apply_error("name='\\q'\n"),
			 "g.cfg:1: invalid character after backslash in a string: '\\q'");
	ck_assert_str_eq(apply_error("name='a'\r\n"),
			 "g.cfg:1: carriage return (a DOS line ending?): xl's syntax takes plain "
			 "newlines");
	ck_assert_str_eq(apply_error("cpus = [ '1' '2' ]\n"),
			 "g.cfg:1: syntax error near ''2'': expected ',' or ']' in a list");
	ck_assert_str_eq(apply_error("cpus = [ '1',\n"),
			 "g.cfg:2: syntax error near the end of the file: expected a value (a number, "
			 "a \"string\" or a [list])");
	ck_assert_str_eq(apply_error("= 2\n"),
			 "g.cfg:1: syntax error near '=': expected a setting (key = value)");
	ck_assert_str_eq(apply_error("x=[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]\n"),
			 "g.cfg:1: lists nested more than 16 deep");
	ck_assert_str_eq(apply_error("name='a'\nname += ['b']\n"),
			 "g.cfg:2: name += : cannot add a [list] to a \"string\" (line 1)");
}
END_TEST

START_TEST(bad_values)
{
	ck_assert_str_eq(apply_error("name='a b'\n"),
			 "g.cfg:1: name: 'a b' is not a name schedsim takes (1 to 63 letters, digits, "
			 "'_', '-', '.')");
	ck_assert_str_eq(apply_error("name=['a']\n"),
			 "g.cfg:1: name: a list, but it takes a single value");
	ck_assert_str_eq(apply_error("name='a'\nvcpus='four'\n"),
			 "g.cfg:2: vcpus: 'four' is not a number");
	ck_assert_str_eq(apply_error("name='a'\nvcpus=08\n"),
			 "g.cfg:2: vcpus: '08' is not a number");
	ck_assert_str_eq(apply_error("name='a'\nvcpus=5000\n"),
			 "g.cfg:2: vcpus: 5000 is more than 4096");
	ck_assert_str_eq(apply_error("name='a'\nvcpus=4\nmaxvcpus=2\n"),
			 "g.cfg:3: maxvcpus=2 is less than vcpus=4 (xl refuses it too)");
	ck_assert_str_eq(apply_error("name='a'\ncpu_weight=0\n"),
			 "g.cfg:2: cpu_weight: 0 is out of range 1..65535");
	ck_assert_str_eq(apply_error("name='a'\nvcpus=2\ncap=201\n"),
			 "g.cfg:3: cap: 201 is out of range 0..200");
	ck_assert_str_eq(apply_error("name='a'\nmemory=1\nmemory+=2\n"),
			 "g.cfg:3: memory: += does not apply to numbers");
	ck_assert_str_eq(apply_error("name='a'\npool='batch pool'\n"),
			 "g.cfg:2: pool: 'batch pool' is not a pool name schedsim takes (1 to 63 "
			 "letters, digits, '_', '-', '.')");
	ck_assert_str_eq(apply_error("name='a'\ntype='kvm'\n"),
			 "g.cfg:2: type: 'kvm' is not a domain type (valid: pv, pvh, hvm)");
	ck_assert_str_eq(apply_error("name='a'\ntype='pvh'\nbuilder='hvm'\n"),
			 "g.cfg:3: builder=\"hvm\" contradicts type=\"pvh\" (line 2)");
	ck_assert_str_eq(apply_error("name='a'\ncpus='^2'\n"),
			 "g.cfg:2: cpus: \"^2\" selects no pCPU (an xl cpu list starts from none: "
			 "\"all\" is every pCPU, a leading '^' removes from nothing)");
	ck_assert_str_eq(apply_error("name='a'\ncpus=''\n"),
			 "g.cfg:2: cpus: \"\" selects no pCPU (an xl cpu list starts from none: "
			 "\"all\" is every pCPU, a leading '^' removes from nothing)");
	ck_assert_str_eq(apply_error("name='a'\ncpus_soft='all,^all'\n"),
			 "g.cfg:2: cpus_soft: '^all': xl cannot combine '^' and 'all'");
	ck_assert_str_eq(apply_error("name='a'\ncpus='0-3,x'\n"),
			 "g.cfg:2: cpus: malformed cpu list item 'x' in \"0-3,x\" (xl's forms: all, 3, "
			 "0-3, nodes:0, ^2)");
	ck_assert_str_eq(apply_error("name='a'\nvcpus=2\ncpus=['1', ['2']]\n"),
			 "g.cfg:3: cpus: item 1 is a list; each item is the cpu list of one vCPU "
			 "(\"2\", \"3-5\")");
	ck_assert_str_eq(apply_error("name='a'\ncpus=['4-2']\n"),
			 "g.cfg:2: cpus: malformed cpu list item '4-2' in \"4-2\" (xl's forms: all, "
			 "3, 0-3, nodes:0, ^2)");
}
END_TEST

START_TEST(hostile_files)
{
	struct err e = { "" };
	struct domain_spec d;

	domain_defaults(&d);
	ck_assert_int_eq(xlcfg_load(DATA "nul.cfg", &d, &e), -1);
	ck_assert_str_eq(e.msg, DATA "nul.cfg:2: NUL byte (not a text file)");
	ck_assert_int_eq(xlcfg_load(TESTS_SRCDIR "/data", &d, &e), -1);
	ck_assert_str_eq(e.msg, TESTS_SRCDIR "/data: is a directory");
	ck_assert_int_eq(xlcfg_load("/nonexistent.cfg", &d, &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent.cfg: cannot open: No such file or directory");
	scenario_free_domain(&d);
}
END_TEST

START_TEST(add_domain_to_scenario)
{
	struct scenario sc;
	struct err e = { "" };

	ck_assert_int_eq(scenario_load_default(&sc, &e), 0);
	ck_assert_int_eq(sc.ndoms, 2);
	/* With the embedded scenario the first --domain replaces its guest. */
	ck_assert_msg(xlcfg_add_domain(&sc, DATA "web.cfg", true, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.ndoms, 2);
	ck_assert_str_eq(sc.doms[0].name, "dom0");
	ck_assert_str_eq(sc.doms[1].name, "web");
	ck_assert_int_eq(sc.doms[1].nworkloads, 0);
	ck_assert_int_eq(xlcfg_add_domain(&sc, DATA "web.cfg", false, &e), -1);
	ck_assert_str_eq(e.msg, DATA "web.cfg:3: a domain named 'web' is already in the "
			 "scenario");
	ck_assert_int_eq(xlcfg_add_domain(&sc, DATA "rt-short.cfg", false, &e), -1);
	ck_assert_str_eq(e.msg, DATA "rt-short.cfg:2: period (with RTDS's default budget, xl.cfg "
			 "having no budget key): budget 4ms is more than the period 2ms (RTDS needs "
			 "budget <= period)");
	ck_assert_int_eq(xlcfg_add_domain(&sc, DATA "noname.cfg", false, &e), -1);
	ck_assert_str_eq(e.msg, DATA "noname.cfg:1: no name= (xl requires a domain's name)");
	ck_assert_int_eq(sc.ndoms, 2);
	scenario_free(&sc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xlcfg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, syntax_of_xl_cfg);
	tcase_add_test(tc, scheduling_keys);
	tcase_add_test(tc, per_vcpu_lists);
	tcase_add_test(tc, documented_cpu_lists);
	tcase_add_test(tc, file_on_disk);
	tcase_add_test(tc, syntax_errors);
	tcase_add_test(tc, bad_values);
	tcase_add_test(tc, hostile_files);
	tcase_add_test(tc, add_domain_to_scenario);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}

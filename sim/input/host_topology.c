/*
 * Reading a host's CPU map from lscpu -p or xl info -n (see host_topology.h).
 *
 * Both parsers turn the text into rows (CPU, core, socket, node, line),
 * and one check then makes sure the rows describe a host schedsim can
 * simulate: each CPU once, no CPU missing below the highest one, the
 * threads of a core on one node.  Every message names file:line.
 */
#include "sim/input/host_topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/input/textfile.h"
#include "sim/xalloc.h"

struct row {
	int cpu, core, socket, node;
	int line;
};

struct rows {
	struct row *v;
	int n;
	const char *name;
	struct err *e;
};

static int fail(struct rows *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct rows *r, int line, const char *fmt, ...)
{
	char msg[sizeof(r->e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(r->e, "%s:%d: %s", r->name, line, msg);
}

static void add_row(struct rows *r, int cpu, int core, int socket, int node, int line)
{
	if ((r->n & (r->n - 1)) == 0)     /* grow at powers of two */
		r->v = xreallocarray(r->v, r->n ? 2 * (size_t)r->n : 1, sizeof(*r->v));
	r->v[r->n++] = (struct row){ cpu, core, socket, node, line };
}

const char *host_topology_kind(enum host_topology_format f)
{
	return f == HOST_TOPOLOGY_LSCPU ? "lscpu" : "xl-info";
}

/* A decimal id of at most 'max' - 1 from s[0..len-1]; -1 when it is not one. */
static long parse_id(const char *s, size_t len, long max)
{
	long v = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v >= max)
			return -1;
	}
	return v;
}

/* The next line of text: [*start, *end) without the '\n'; false at the end. */
static bool next_line(const char **p, const char *stop, const char **start, const char **end)
{
	const char *nl;

	if (*p >= stop)
		return false;
	*start = *p;
	nl = memchr(*p, '\n', (size_t)(stop - *p));
	*end = nl ? nl : stop;
	*p = nl ? nl + 1 : stop;
	return true;
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* ------------------------------------------------------------ lscpu -p */

#define LSCPU_MAX_COLS 64

struct field {
	const char *s;
	size_t len;
};

/* Splits [s, e) at commas into at most LSCPU_MAX_COLS trimmed fields; -1 if more. */
static int split_commas(const char *s, const char *e, struct field *f)
{
	int n = 0;

	for (;;) {
		const char *c = memchr(s, ',', (size_t)(e - s)), *fe = c ? c : e, *fs = s;

		if (n == LSCPU_MAX_COLS)
			return -1;
		trim(&fs, &fe);
		f[n].s = fs;
		f[n].len = (size_t)(fe - fs);
		n++;
		if (!c)
			return n;
		s = c + 1;
	}
}

static bool field_is(const struct field *f, const char *name)
{
	return f->len == strlen(name) && strncasecmp(f->s, name, f->len) == 0;
}

static int parse_lscpu(struct rows *r, const char *text, size_t len)
{
	enum { CPU, CORE, SOCKET, NODE, ONLINE, NCOLS };
	static const char *const names[NCOLS] = { "CPU", "Core", "Socket", "Node", "Online" };
	struct field f[LSCPU_MAX_COLS];
	int col[NCOLS], ncols = 0, header_line = 0, line = 0, nodes_given = -1;
	const char *p = text, *stop = text + len, *s, *e;

	while (next_line(&p, stop, &s, &e)) {
		int n;

		line++;
		trim(&s, &e);
		if (s == e)
			continue;
		if (*s == '#') {
			int c;

			if (r->n)          /* comments after the data say nothing of it */
				continue;
			n = split_commas(s + 1, e, f);
			for (c = 0; c >= 0 && c < n; c++)
				if (field_is(&f[c], "CPU"))
					break;
			if (n < 0 || c == n)
				continue;  /* prose above the header */
			header_line = line;
			ncols = n;
			for (int k = 0; k < NCOLS; k++) {
				col[k] = -1;
				for (c = 0; c < n; c++)
					if (field_is(&f[c], names[k]))
						col[k] = c;
			}
			for (int k = CPU; k <= SOCKET; k++)
				if (col[k] < 0)
					return fail(r, line, "the lscpu header has no %s column "
						    "(write it with lscpu -p or lscpu -p=CPU,CORE,SOCKET,NODE)",
						    names[k]);
			continue;
		}
		if (!header_line && !isdigit((unsigned char)*s))
			return fail(r, line, "not the output of lscpu -p: '%.*s' (lscpu -p prints a "
				    "'# CPU,Core,Socket,Node...' header, then one line per CPU)",
				    (int)(e - s > 40 ? 40 : e - s), s);
		if (!header_line)
			return fail(r, line, "a CPU line before the column header (lscpu -p starts "
				    "with '# CPU,Core,Socket,Node...')");
		n = split_commas(s, e, f);
		if (n != ncols)
			return fail(r, line, "%d fields, but the header (line %d) names %d",
				    n < 0 ? LSCPU_MAX_COLS + 1 : n, header_line, ncols);
		long v[NCOLS];

		for (int k = 0; k < NCOLS; k++) {
			if (col[k] < 0 || k == ONLINE)
				continue;
			v[k] = parse_id(f[col[k]].s, f[col[k]].len,
					k == CPU ? TOPOLOGY_MAX_CPUS : k == NODE ? TOPOLOGY_MAX_NODES :
					TOPOLOGY_MAX_ID);
			if (k == NODE && f[col[k]].len == 0) {
				v[k] = -2;     /* no NUMA: the kernel gives no node */
				continue;
			}
			if (v[k] < 0) {
				if (k == CPU)
					return fail(r, line, "CPU '%.*s' is not a CPU number (0..%d)",
						    (int)f[col[k]].len, f[col[k]].s,
						    TOPOLOGY_MAX_CPUS - 1);
				if (f[col[k]].len == 0 || (f[col[k]].len == 1 && f[col[k]].s[0] == '-'))
					return fail(r, line, "CPU %ld has no %s id (an offline CPU? "
						    "schedsim needs every CPU online)", v[CPU],
						    names[k]);
				return fail(r, line, "CPU %ld: %s '%.*s' is not an id (0..%d)", v[CPU],
					    names[k], (int)f[col[k]].len, f[col[k]].s,
					    (k == NODE ? TOPOLOGY_MAX_NODES : TOPOLOGY_MAX_ID) - 1);
			}
		}
		if (col[ONLINE] >= 0 && f[col[ONLINE]].len == 1 &&
		    toupper((unsigned char)f[col[ONLINE]].s[0]) == 'N')
			return fail(r, line, "CPU %ld is offline (schedsim needs every CPU online)",
				    v[CPU]);
		if (col[NODE] < 0)
			v[NODE] = -2;
		if (nodes_given >= 0 && nodes_given != (v[NODE] != -2))
			return fail(r, line, "CPU %ld %s, but the CPUs above %s", v[CPU],
				    v[NODE] != -2 ? "has a node" : "has no node",
				    nodes_given ? "have" : "have none");
		nodes_given = v[NODE] != -2;
		add_row(r, (int)v[CPU], (int)v[CORE], (int)v[SOCKET],
			v[NODE] == -2 ? 0 : (int)v[NODE], line);
	}
	if (!header_line)
		return fail(r, line ? line : 1, "no lscpu column header ('# CPU,Core,Socket,Node...'): "
			    "not the output of lscpu -p");
	if (!r->n)
		return fail(r, line, "no CPU lines after the header (line %d)", header_line);
	return 0;
}

/* ----------------------------------------------------------- xl info -n */

/* Matches a word at *s (after blanks); advances past it. */
static bool word(const char **s, const char *e, const char *w)
{
	size_t n = strlen(w);

	while (*s < e && (**s == ' ' || **s == '\t'))
		(*s)++;
	if ((size_t)(e - *s) < n || strncmp(*s, w, n) != 0)
		return false;
	*s += n;
	return true;
}

/* A number after blanks, or -1. */
static long number(const char **s, const char *e, long max)
{
	const char *start;

	while (*s < e && (**s == ' ' || **s == '\t'))
		(*s)++;
	start = *s;
	while (*s < e && isdigit((unsigned char)**s))
		(*s)++;
	return parse_id(start, (size_t)(*s - start), max);
}

static int parse_xl_info(struct rows *r, const char *text, size_t len)
{
	const char *p = text, *stop = text + len, *s, *e;
	int line = 0, header_line = 0;

	while (next_line(&p, stop, &s, &e)) {
		const char *q = s;

		line++;
		if (!header_line) {
			if (word(&q, e, "cpu:") && word(&q, e, "core") && word(&q, e, "socket") &&
			    word(&q, e, "node"))
				header_line = line;
			continue;
		}
		long cpu, core, socket, node;

		cpu = number(&q, e, TOPOLOGY_MAX_CPUS);
		if (cpu < 0 || q >= e || *q != ':') {
			trim(&s, &e);
			/* The table ends at the next section ("device topology :", "numa_info"). */
			if (s == e || !isdigit((unsigned char)*s))
				break;
			return fail(r, line, "not a cpu_topology row ('CPU: CORE SOCKET NODE', "
				    "as xl info -n prints them): '%.*s'", (int)(e - s > 60 ? 60 : e - s), s);
		}
		q++;
		core = number(&q, e, TOPOLOGY_MAX_ID);
		socket = number(&q, e, TOPOLOGY_MAX_ID);
		node = number(&q, e, TOPOLOGY_MAX_NODES);
		while (q < e && isspace((unsigned char)*q))
			q++;
		if (core < 0 || socket < 0 || node < 0 || q != e) {
			trim(&s, &e);
			return fail(r, line, "CPU %ld: expected three ids (core socket node, nodes "
				    "below %d) after '%ld:': '%.*s'", cpu, TOPOLOGY_MAX_NODES, cpu,
				    (int)(e - s > 60 ? 60 : e - s), s);
		}
		add_row(r, (int)cpu, (int)core, (int)socket, (int)node, line);
	}
	if (!header_line)
		return fail(r, 1, "no cpu_topology table ('cpu: core socket node'): write the "
			    "file with xl info -n");
	if (!r->n)
		return fail(r, header_line, "the cpu_topology table has no rows");
	return 0;
}

/* -------------------------------------------------------- the checks */

static int cmp_cpu(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int cmp_core(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return cmp_cpu(a, b);
}

static int check_rows(struct rows *r)
{
	struct row *v = r->v;
	int n = r->n;

	qsort(v, (size_t)n, sizeof(*v), cmp_cpu);
	for (int i = 0; i < n; i++) {
		if (i && v[i].cpu == v[i - 1].cpu)
			return fail(r, v[i].line > v[i - 1].line ? v[i].line : v[i - 1].line,
				    "CPU %d is listed twice (lines %d and %d)", v[i].cpu,
				    v[i - 1].line < v[i].line ? v[i - 1].line : v[i].line,
				    v[i - 1].line < v[i].line ? v[i].line : v[i - 1].line);
		if (v[i].cpu != i)
			return fail(r, v[i].line, "CPU %d is listed but CPU %d is not: schedsim "
				    "numbers pCPUs 0..N-1 and needs every one (offline CPUs?)",
				    v[i].cpu, i);
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_core);
	for (int i = 1; i < n; i++)
		if (v[i].socket == v[i - 1].socket && v[i].core == v[i - 1].core &&
		    v[i].node != v[i - 1].node)
			return fail(r, v[i].line, "CPU %d is a thread of core %d of socket %d like "
				    "CPU %d (line %d), but on node %d, not %d", v[i].cpu, v[i].core,
				    v[i].socket, v[i - 1].cpu, v[i - 1].line, v[i].node, v[i - 1].node);
	qsort(v, (size_t)n, sizeof(*v), cmp_cpu);
	return 0;
}

int host_topology_parse(const char *text, size_t len, const char *name,
			enum host_topology_format f, struct topology_cpu **cpus, int *ncpus,
			struct err *e)
{
	struct rows r = { NULL, 0, name, e };
	const char *cr = memchr(text, '\r', len);
	int rc;

	*cpus = NULL;
	*ncpus = 0;
	if (len == 0)
		return err_set(e, "%s:1: empty file", name);
	if (cr) {
		int line = 1;

		for (const char *q = text; q < cr; q++)
			line += *q == '\n';
		return err_set(e, "%s:%d: carriage return (a DOS line ending?): the tools write "
			       "plain newlines", name, line);
	}
	rc = f == HOST_TOPOLOGY_LSCPU ? parse_lscpu(&r, text, len) : parse_xl_info(&r, text, len);
	if (rc == 0)
		rc = check_rows(&r);
	if (rc == 0) {
		*cpus = xcalloc((size_t)r.n, sizeof(**cpus));
		for (int i = 0; i < r.n; i++)
			(*cpus)[i] = (struct topology_cpu){ r.v[i].socket, r.v[i].core, r.v[i].node };
		*ncpus = r.n;
	}
	free(r.v);
	return rc;
}

int host_topology_load(struct host_spec *h, enum host_topology_format f, const char *path,
		       struct err *e)
{
	struct topology_cpu *cpus;
	struct topology t;
	char *text, src[sizeof("xl-info:")];
	size_t len, n;
	int ncpus, rc;

	if (textfile_read(path, &text, &len, e) < 0)
		return -1;
	rc = host_topology_parse(text, len, path, f, &cpus, &ncpus, e);
	free(text);
	if (rc < 0)
		return -1;
	/* The rows passed the checks above; this builds the summary counts. */
	if (topology_init_map(&t, cpus, ncpus, e) < 0) {
		free(cpus);
		return err_prefix(e, "%s", path);
	}
	free(h->cpu_map);
	free(h->map_source);
	h->cpu_map = cpus;
	h->ncpus_map = ncpus;
	snprintf(src, sizeof(src), "%s:", host_topology_kind(f));
	n = strlen(src) + strlen(path) + 1;
	h->map_source = xmalloc(n);
	snprintf(h->map_source, n, "%s%s", src, path);
	h->sockets = t.nr_sockets;
	h->cores_per_socket = t.cores_per_socket;
	h->threads_per_core = t.threads_per_core;
	h->nodes = t.nr_nodes;
	topology_free(&t);
	return 0;
}

bool host_topology_option_is_map(const char *arg)
{
	return arg[strcspn(arg, ":=")] == ':';
}

int host_topology_option(struct host_spec *h, const char *arg, struct err *e)
{
	static const enum host_topology_format kinds[] = { HOST_TOPOLOGY_LSCPU,
							   HOST_TOPOLOGY_XL_INFO };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *k = host_topology_kind(kinds[i]);
		size_t n = strlen(k);

		if (strncmp(arg, k, n) == 0 && arg[n] == ':') {
			if (!arg[n + 1])
				return err_set(e, "--host=%s needs a file (--host=%s:FILE)", arg, k);
			if (host_topology_load(h, kinds[i], arg + n + 1, e) < 0)
				return err_prefix(e, "--host");
			return 0;
		}
	}
	return err_set(e, "--host: '%s' is not lscpu:FILE or xl-info:FILE (the output of "
		       "lscpu -p or xl info -n)", arg);
}

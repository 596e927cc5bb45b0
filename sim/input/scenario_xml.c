/*
 * The scenario loader: XML text in, struct scenario out, or one line
 * "FILE:LINE: problem".
 *
 * Three gates, in this order:
 *  1. libxml2 parses the text with a parser context of our own.  Errors go
 *     to a structured handler on that context (and, for the few libxml2
 *     errors raised without a context, to a per-thread handler installed
 *     only for the duration of the load), never to stderr.  A DOCTYPE stops
 *     the parser on the spot: scenario files need no DTD, and refusing one
 *     before its internal subset is read defuses entity bombs and external
 *     entities without relying on libxml2's limits.  The network is off.
 *  2. A walk over the tree fills the struct and checks what only code can
 *     (ranges, duplicates) together with the structure, so that a user
 *     reads "unknown attribute 'sockts' on <host> (valid: ...)" rather than
 *     the schema validator's "Element host failed to validate attributes".
 *  3. The RelaxNG schema (sim/input/scenario.rng, embedded) has the last word, so
 *     the schema users check their files with by xmllint and the loader can
 *     never disagree in the loader's favour.
 * cpu lists stay text: they need the topology, and sim/experiment/build.c parses them.
 */
#include "sim/input/scenario_load.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "schedulers/rtds.h"
#include "sim/engine/hw.h"
#include "sim/input/host_topology.h"
#include "sim/input/textfile.h"
#include "sim/input/utiltrace.h"
#include "sim/input/xentrace_read.h"
#include "sim/input/xlcfg.h"
#include "sim/xalloc.h"

#define MAX_HOST_VALUE 65536
#define MAX_DURATION SEC(1000000)     /* about 11.6 days of simulated time */
#define MAX_HOST_DELAY SEC(1)
#define NAME_CHARS "letters, digits, '_', '-', '.'"

struct loader {
	const char *name;          /* file name for messages */
	struct err *e;
	bool failed;               /* e holds the first error */
	xmlParserCtxtPtr ctxt;     /* set while libxml2 parses */
	/*
	 * Parser errors wait here until the parse ends: when input runs out,
	 * libxml2's first complaint ("attributes construct error") says less
	 * than its last ("Premature end of data in tag domain line 3").
	 */
	char xml_msg[400];
	long xml_line;
	bool xml_at_eof, xml_end_seen;
	struct scenario *sc;
	int total_vcpus;
	char pool_names[400];      /* "p1, p2", for messages */
	/* the last xentrace file read, kept for the next domain that replays it */
	struct xentrace_host trace;
	char *trace_path;
	double trace_khz;
	const struct scenario_schema *schema;  /* compiled beforehand, or NULL */
};

/* The embedded schema, compiled once for many loads (scenario_load.h). */
struct scenario_schema {
	xmlRelaxNGPtr rng;
};

/* ---- errors ---- */

static int fail(struct loader *l, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct loader *l, long line, const char *fmt, ...)
{
	char msg[sizeof(l->e->msg)];
	va_list ap;

	if (l->failed)
		return -1;
	l->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(l->e, "%s:%ld: %s", l->name, line > 0 ? line : 1, msg);
}

/* libxml2 messages may span lines ("...\nBytes: 0xFF"); ours are one line. */
static void one_line(char *dst, size_t len, const char *src)
{
	size_t n = 0;
	bool space = false;

	for (; *src && n + 1 < len; src++) {
		if (isspace((unsigned char)*src)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < len)
			dst[n++] = ' ';
		space = false;
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

static long line_of(const xmlNode *n);

/* Keeps the parser error worth showing: the first, or the end-of-data one. */
static void keep_parser_error(struct loader *l, const xmlError *err, long line,
			      const char *msg)
{
	const xmlParserInput *in = l->ctxt->input;

	if (!l->xml_msg[0]) {
		l->xml_at_eof = in && in->cur && in->end && in->cur >= in->end;
	} else {
		if (!l->xml_at_eof || l->xml_end_seen || err->code != XML_ERR_TAG_NOT_FINISHED)
			return;
		l->xml_end_seen = true;
	}
	snprintf(l->xml_msg, sizeof(l->xml_msg), "%s", msg[0] ? msg : "malformed XML");
	l->xml_line = line;
}

static void record(struct loader *l, const xmlError *err, const char *what)
{
	char msg[360], full[sizeof(((struct loader *)0)->xml_msg)];
	long line = err->line;

	if (l->failed || err->level < XML_ERR_ERROR)
		return;
	/* the parser's own line is exact; the validator's is 16 bits */
	if (err->node && (!l->ctxt || line <= 0))
		line = line_of((const xmlNode *)err->node);
	if (line <= 0 && l->ctxt && l->ctxt->input)
		line = l->ctxt->input->line;
	one_line(msg, sizeof(msg), err->message ? err->message : "unknown XML error");
	snprintf(full, sizeof(full), "%s%s", what, msg);
	if (l->ctxt)
		keep_parser_error(l, err, line, full);
	else
		fail(l, line, "%s", full);
}

/* Parser errors: data is the parser context's userData, the context itself. */
static void parser_error(void *data, xmlErrorPtr err)
{
	xmlParserCtxtPtr c = data;

	record(c->_private, err, "");
}

/* Errors raised without a context (encoding conversion, I/O). */
static void stray_error(void *data, xmlErrorPtr err)
{
	record(data, err, "");
}

static void schema_error(void *data, xmlErrorPtr err)
{
	record(data, err, "does not match the schema: ");
}

static void silent(void *data, const char *fmt, ...)
{
}

/* SAX hook for <!DOCTYPE ...>: refuse before any declaration is read. */
static void no_doctype(void *data, const xmlChar *name, const xmlChar *external_id,
		       const xmlChar *system_id)
{
	xmlParserCtxtPtr c = data;

	fail(c->_private, c->input ? c->input->line : 1,
	     "DOCTYPE not allowed (scenario files take no DTD and no entities)");
	xmlStopParser(c);
}

/*
 * The line of the '<' that opens the start tag being reported (libxml2
 * gives the line where the tag ends, a different one when its attributes
 * span lines).  Attribute values hold no raw '<', so the first one back is
 * the tag's.
 */
static long tag_line(const xmlParserInput *in)
{
	long line = in->line;

	for (const xmlChar *p = in->cur; p > in->base;) {
		if (*--p == '<')
			return line;
		if (*p == '\n')
			line--;
	}
	return in->line;
}

/*
 * libxml2 keeps element lines in 16 bits; past line 65535 its answer is a
 * guess from the neighbours.  Elements keep their exact line in _private.
 */
static void start_element(void *data, const xmlChar *localname, const xmlChar *prefix,
			  const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
			  int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr c = data;

	xmlSAX2StartElementNs(data, localname, prefix, uri, nb_namespaces, namespaces,
			      nb_attributes, nb_defaulted, attributes);
	if (c->node && c->input)
		c->node->_private = (void *)(intptr_t)tag_line(c->input);
}

/* ---- tree helpers ---- */

static long line_of(const xmlNode *n)
{
	long line;

	if (n->type == XML_ELEMENT_NODE && n->_private)
		return (long)(intptr_t)n->_private;
	line = xmlGetLineNo(n);
	return line > 0 ? line : 1;
}

static bool is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !n->ns && xmlStrEqual(n->name, BAD_CAST name);
}

/* Every attribute of n must be in the NULL-terminated list 'valid'. */
static int check_attrs(struct loader *l, const xmlNode *n, const char *const *valid)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		char list[400] = "";
		size_t len = 0;
		int i;

		for (i = 0; valid[i]; i++)
			if (!a->ns && xmlStrEqual(a->name, BAD_CAST valid[i]))
				break;
		if (valid[i])
			continue;
		for (i = 0; valid[i] && len < sizeof(list); i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						i ? ", " : "", valid[i]);
		return fail(l, line_of(n), "unknown attribute '%s%s%s' on <%s> (valid: %s)",
			    a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "",
			    a->ns && a->ns->prefix ? ":" : "", (const char *)a->name,
			    (const char *)n->name, list);
	}
	return 0;
}

/* The value of attribute 'name' (no namespace), to free with xmlFree, or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetNoNsProp(n, BAD_CAST name);
}

static int attr_int(struct loader *l, const xmlNode *n, const char *name,
		    long long min, long long max, int *out)
{
	char *v = attr(n, name);
	struct err e;
	long long x;
	int ret = 0;

	if (!v)
		return 0;
	if (parse_int(v, min, max, &x, &e) < 0)
		ret = fail(l, line_of(n), "<%s> %s: %s", (const char *)n->name, name, e.msg);
	else
		*out = (int)x;
	xmlFree(v);
	return ret;
}

static int attr_duration(struct loader *l, const xmlNode *n, const char *name,
			 stime_t min, stime_t max, stime_t *out)
{
	char *v = attr(n, name), a[32], b[32];
	struct err e;
	stime_t t;
	int ret = 0;

	if (!v)
		return 0;
	if (parse_duration(v, &t, &e) < 0)
		ret = fail(l, line_of(n), "<%s> %s: %s", (const char *)n->name, name, e.msg);
	else if (t < min || t > max)
		ret = fail(l, line_of(n), "<%s> %s: '%s' is out of range %s..%s",
			   (const char *)n->name, name, v, format_duration(min, a, sizeof(a)),
			   format_duration(max, b, sizeof(b)));
	else
		*out = t;
	xmlFree(v);
	return ret;
}

static int attr_dist(struct loader *l, const xmlNode *n, const char *name, struct dist *d)
{
	char *v = attr(n, name);
	struct err e;
	int ret = 0;

	if (!v)
		return 0;
	if (dist_parse(v, d, &e) < 0)
		ret = fail(l, line_of(n), "<%s> %s: %s", (const char *)n->name, name, e.msg);
	xmlFree(v);
	return ret;
}

static int attr_extratime(struct loader *l, const xmlNode *n, enum rt_extratime *out)
{
	char *v = attr(n, "extratime");
	struct err e;
	bool on;
	int ret = 0;

	if (!v)
		return 0;
	/* parse_bool's words, in lower case as the schema has them */
	if (strspn(v, "abcdefghijklmnopqrstuvwxyz01") != strlen(v) || parse_bool(v, &on, &e) < 0)
		ret = fail(l, line_of(n), "<%s> extratime: '%s' is not on|off|yes|no|true|false|1|0",
			   (const char *)n->name, v);
	else
		*out = on ? RT_EXTRATIME_ON : RT_EXTRATIME_OFF;
	xmlFree(v);
	return ret;
}

/* <domain type="pv|pvh|hvm|native">: over an xl file's type=, as xl create's KEY=VALUE. */
static int attr_domain_type(struct loader *l, const xmlNode *n, enum domain_type *out)
{
	char *v = attr(n, "type");
	int ret = 0;

	if (!v)
		return 0;
	if (domain_type_parse(v, out) < 0)
		ret = fail(l, line_of(n), "<domain> type: '%s' is not a domain type (valid: pv, pvh, "
			   "hvm, native)", v);
	xmlFree(v);
	return ret;
}

/* kernel=, llc=: the guest kernel's placement era and the cache topology it sees. */
static int attr_guest_kernel(struct loader *l, const xmlNode *n, struct domain_spec *d)
{
	char *k = attr(n, "kernel"), *c = attr(n, "llc");
	int ret = 0;

	if (k && guest_kernel_parse(k, &d->kernel) < 0)
		ret = fail(l, line_of(n), "<domain> kernel: '%s' is not a guest kernel era "
			   "(valid: 4.4, 5.1)", k);
	else if (c && guest_llc_parse(c, &d->llc) < 0)
		ret = fail(l, line_of(n), "<domain> llc: '%s' is not a guest cache topology "
			   "(valid: shared, vcpu)", c);
	xmlFree(k);
	xmlFree(c);
	return ret;
}

/* period=, budget=, extratime=: RTDS's parameters of a domain or a vCPU. */
static int attr_rt(struct loader *l, const xmlNode *n, struct rt_params *rt)
{
	if (attr_duration(l, n, "period", RTDS_MIN_PERIOD, RTDS_MAX_PARAM, &rt->period) < 0 ||
	    attr_duration(l, n, "budget", RTDS_MIN_BUDGET, RTDS_MAX_PARAM, &rt->budget) < 0 ||
	    attr_extratime(l, n, &rt->extratime) < 0)
		return -1;
	return 0;
}

/* A name as domains and workload types take: 1..max-1 of NAME_CHARS. */
static int attr_name(struct loader *l, const xmlNode *n, const char *name, char *out,
		     size_t size)
{
	char *v = attr(n, name);
	size_t len;
	int ret = 0;

	if (!v)
		return fail(l, line_of(n), "<%s> is missing the required attribute '%s'",
			    (const char *)n->name, name);
	len = strlen(v);
	for (size_t i = 0; i < len && ret == 0; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("_-.", v[i]))
			ret = -1;
	if (len == 0 || len >= size || ret < 0)
		ret = fail(l, line_of(n), "<%s> %s: '%s' is not a valid name (1 to %zu %s)",
			   (const char *)n->name, name, v, size - 1, NAME_CHARS);
	else
		memcpy(out, v, len + 1);
	xmlFree(v);
	return ret;
}

/* pool="NAME" (optional): "Pool-0" is stored as "", the default. */
static int attr_pool(struct loader *l, const xmlNode *n, char *out, size_t size)
{
	char *v = attr(n, "pool");

	if (!v)
		return 0;
	xmlFree(v);
	if (attr_name(l, n, "pool", out, size) < 0)
		return -1;
	if (strcmp(out, "Pool-0") == 0)
		out[0] = '\0';
	return 0;
}

static char *attr_dup(const xmlNode *n, const char *name)
{
	char *v = attr(n, name), *s;

	if (!v)
		return NULL;
	s = xstrdup(v);
	xmlFree(v);
	return s;
}

/*
 * Checks a child node that is not one of its parent's elements: comments
 * and blank text are fine, anything else is an error.
 */
static int stray_child(struct loader *l, const xmlNode *parent, const xmlNode *c,
		       const char *valid)
{
	switch (c->type) {
	case XML_COMMENT_NODE:
	case XML_PI_NODE:
		return 0;
	case XML_TEXT_NODE:
	case XML_CDATA_SECTION_NODE:
		for (const xmlChar *p = c->content; p && *p; p++)
			if (!isspace(*p))
				return fail(l, line_of(c), "unexpected text in <%s>",
					    (const char *)parent->name);
		return 0;
	case XML_ELEMENT_NODE:
		if (c->ns)
			return fail(l, line_of(c), "unknown element <%s:%s> in <%s> (scenario elements have no namespace)",
				    c->ns->prefix ? (const char *)c->ns->prefix : "",
				    (const char *)c->name, (const char *)parent->name);
		if (*valid)
			return fail(l, line_of(c), "unknown element <%s> in <%s> (valid: %s)",
				    (const char *)c->name, (const char *)parent->name, valid);
		return fail(l, line_of(c), "unexpected element <%s> in <%s> (it takes no children)",
			    (const char *)c->name, (const char *)parent->name);
	default:
		return fail(l, line_of(c), "unexpected content in <%s>",
			    (const char *)parent->name);
	}
}

static int no_children(struct loader *l, const xmlNode *n)
{
	for (const xmlNode *c = n->children; c; c = c->next)
		if (stray_child(l, n, c, "") < 0)
			return -1;
	return 0;
}

/* ---- elements ---- */

static int load_phase(struct loader *l, const xmlNode *n, struct workload_spec *w)
{
	static const char *const valid[] = { "run", "sleep", NULL };
	struct phase_spec *p;
	char *run;

	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0)
		return -1;
	run = attr(n, "run");
	if (!run)
		return fail(l, line_of(n), "<phase> is missing the required attribute 'run'");
	xmlFree(run);
	w->phases = xreallocarray(w->phases, (size_t)w->nphases + 1, sizeof(*w->phases));
	p = &w->phases[w->nphases++];
	memset(p, 0, sizeof(*p));
	p->run.kind = p->sleep.kind = DIST_CONST;
	p->line = (int)line_of(n);
	if (attr_dist(l, n, "run", &p->run) < 0 || attr_dist(l, n, "sleep", &p->sleep) < 0)
		return -1;
	return 0;
}

/*
 * A xentrace workload's demand (file=, domain=, cpu_khz=): the trace is read
 * once for all the domains that replay it one after the other.  Values that
 * do not parse are left to the module's parameter check.
 */
static int xentrace_file(struct loader *l, struct workload_spec *w, const char *file)
{
	const char *dom_text = kvlist_get(&w->params, "domain");
	const char *khz_text = kvlist_get(&w->params, "cpu_khz");
	long long domid;
	double khz = 0;
	char *path, *end = NULL;
	struct err e;

	if (!dom_text || parse_int(dom_text, 0, XENTRACE_DOMID_LIMIT - 1, &domid, &e) < 0)
		return 0;
	if (khz_text) {
		khz = strtod(khz_text, &end);
		if (end == khz_text || *end || !(khz >= 0))
			return 0;
	}
	path = textfile_relative(l->name, file);
	if (!l->trace_path || strcmp(l->trace_path, path) || l->trace_khz != khz) {
		xentrace_host_free(&l->trace);
		free(l->trace_path);
		l->trace_path = NULL;
		if (xentrace_load(path, khz, &l->trace, &e) < 0) {
			free(path);
			return fail(l, w->line, "<workload type=\"xentrace\">: %s", e.msg);
		}
		l->trace_path = path;
		l->trace_khz = khz;
		for (int i = 0; i < l->trace.nwarn; i++)
			fprintf(stderr, "schedsim: warning: %s\n", l->trace.warn[i]);
	} else {
		free(path);
	}
	if (xentrace_copy_domain(&l->trace, (int)domid, file, &w->replay, &e) < 0)
		return fail(l, w->line, "<workload type=\"xentrace\">: %s", e.msg);
	return 0;
}

/*
 * The files a workload replays, read here with the scenario so that their
 * errors name the file and line: a utilisation trace (file=, format=, vm=;
 * the module checks the parameters' values again as it sets up), a
 * xentrace (xentrace_file).
 */
static int workload_files(struct loader *l, struct workload_spec *w)
{
	const char *file = kvlist_get(&w->params, "file");
	const char *fmt_text = kvlist_get(&w->params, "format");
	int fmt = fmt_text ? utiltrace_format_parse(fmt_text) : UTILTRACE_AUTO;
	struct err e;
	char *path;
	int rc;

	if (!file || !file[0])
		return 0;
	if (!strcmp(w->type, "xentrace"))
		return xentrace_file(l, w, file);
	if (strcmp(w->type, "utilisation") != 0 || fmt < 0)
		return 0;
	path = textfile_relative(l->name, file);
	rc = utiltrace_load(path, (enum utiltrace_format)fmt, kvlist_get(&w->params, "vm"),
			    &w->util, &e);
	free(path);
	if (rc < 0)
		return fail(l, w->line, "<workload type=\"utilisation\">: %s", e.msg);
	return 0;
}

static int load_workload(struct loader *l, const xmlNode *n, struct domain_spec *d)
{
	struct workload_spec *w;

	d->workloads = xreallocarray(d->workloads, (size_t)d->nworkloads + 1,
				     sizeof(*d->workloads));
	w = &d->workloads[d->nworkloads++];
	memset(w, 0, sizeof(*w));
	w->line = (int)line_of(n);
	if (attr_name(l, n, "type", w->type, sizeof(w->type)) < 0)
		return -1;
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		char *v;

		if (a->ns)
			return fail(l, w->line, "unknown attribute '%s:%s' on <workload> (parameters have no namespace)",
				    a->ns->prefix ? (const char *)a->ns->prefix : "",
				    (const char *)a->name);
		if (xmlStrEqual(a->name, BAD_CAST "type"))
			continue;
		if (w->params.n == SCENARIO_MAX_WORKLOAD_PARAMS)
			return fail(l, w->line, "more than %d parameters on <workload>",
				    SCENARIO_MAX_WORKLOAD_PARAMS);
		v = attr(n, (const char *)a->name);
		kvlist_add(&w->params, (const char *)a->name, v ? v : "", w->line);
		xmlFree(v);
	}
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "phase")) {
			if (load_phase(l, c, w) < 0)
				return -1;
		} else if (stray_child(l, n, c, "phase") < 0) {
			return -1;
		}
	}
	return workload_files(l, w);
}

static int load_affinity(struct loader *l, const xmlNode *n, struct domain_spec *d)
{
	static const char *const valid[] = { "hard", "soft", NULL };

	if (d->affinity_line)
		return fail(l, line_of(n), "second <affinity> in domain '%s' (the first is at line %d)",
			    d->name, d->affinity_line);
	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0)
		return -1;
	d->affinity_line = (int)line_of(n);
	d->hard = attr_dup(n, "hard");
	d->soft = attr_dup(n, "soft");
	return 0;
}

/* seen[id] is the line of the first <vcpu> with that id, 0 if none yet. */
static int load_vcpu(struct loader *l, const xmlNode *n, struct domain_spec *d, int *seen)
{
	static const char *const valid[] = { "id", "hard", "soft", "period", "budget",
					     "extratime", NULL };
	struct vcpu_spec *v;
	char *id;
	int line = (int)line_of(n);

	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0)
		return -1;
	id = attr(n, "id");
	if (!id)
		return fail(l, line, "<vcpu> is missing the required attribute 'id'");
	xmlFree(id);
	d->vcpu_over = xreallocarray(d->vcpu_over, (size_t)d->nvcpu_over + 1,
				     sizeof(*d->vcpu_over));
	v = &d->vcpu_over[d->nvcpu_over++];
	memset(v, 0, sizeof(*v));
	v->line = line;
	if (attr_int(l, n, "id", 0, d->vcpus - 1, &v->id) < 0)
		return -1;
	if (seen[v->id])
		return fail(l, line, "duplicate <vcpu id=\"%d\"> in domain '%s' (the first is at line %d)",
			    v->id, d->name, seen[v->id]);
	seen[v->id] = line;
	v->hard = attr_dup(n, "hard");
	v->soft = attr_dup(n, "soft");
	return attr_rt(l, n, &v->rt);
}

/*
 * <domain xl="FILE">: the domain as the xl configuration file FILE
 * describes it (sim/input/xlcfg.h), FILE relative to the scenario file.  The
 * element's own attributes then override the file's keys, as settings
 * given to `xl create FILE KEY=VALUE` do.
 */
static int domain_xl(struct loader *l, const xmlNode *n, struct domain_spec *d,
		     char **file)
{
	char *v = attr(n, "xl"), *path;
	struct err e;
	int ret = 0, line = d->line;

	*file = NULL;
	if (!v)
		return 0;
	if (!v[0]) {
		xmlFree(v);
		return fail(l, d->line, "<domain> xl: empty file name");
	}
	path = textfile_relative(l->name, v);
	xmlFree(v);
	if (xlcfg_load(path, d, &e) < 0)
		ret = fail(l, line, "<domain> xl: %s", e.msg);
	d->line = line;          /* the domain's line is the element's */
	*file = path;
	return ret;
}

static int domain_attrs(struct loader *l, const xmlNode *n, struct domain_spec *d)
{
	static const char *const valid[] = { "name", "xl", "vcpus", "weight", "cap", "memory",
					     "numa-nodes", "period", "budget", "extratime", "pool",
					     "type", "kernel", "llc", NULL };
	struct domain_spec *other;
	char *xl = NULL;
	int ret;

	if (check_attrs(l, n, valid) < 0)
		return -1;
	ret = domain_xl(l, n, d, &xl);
	if (ret == 0 && (!xl || xmlHasProp(n, BAD_CAST "name")))
		ret = attr_name(l, n, "name", d->name, sizeof(d->name));
	if (ret == 0)
		ret = attr_pool(l, n, d->pool, sizeof(d->pool));
	if (ret == 0)
		ret = attr_domain_type(l, n, &d->type);
	if (ret == 0)
		ret = attr_guest_kernel(l, n, d);
	if (ret == 0 && !d->name[0])
		ret = fail(l, d->line, "<domain xl=\"%s\"> has no name: the file gives no name= "
			   "and the element no name attribute", xl);
	free(xl);
	if (ret < 0)
		return -1;
	other = scenario_domain(l->sc, d->name);
	if (other != d)
		return fail(l, d->line, "duplicate domain name '%s' (the first is at line %d)",
			    d->name, other->line);
	if (attr_int(l, n, "vcpus", 1, SCENARIO_MAX_VCPUS, &d->vcpus) < 0 ||
	    attr_int(l, n, "weight", 1, 65535, &d->weight) < 0 ||
	    /* xl's memory=, MiB */
	    attr_int(l, n, "memory", 1, SCENARIO_MAX_MEMORY_MB, &d->memory_mb) < 0)
		return -1;
	/* Like xl: a cap is a percentage of one pCPU, 100 per vCPU at most. */
	if (attr_int(l, n, "cap", 0, 100LL * d->vcpus, &d->cap) < 0 ||
	    attr_rt(l, n, &d->rt) < 0)
		return -1;
	if (d->cap > 100 * d->vcpus)     /* the file's cap, over the element's vcpus */
		return fail(l, d->line, "<domain> cap %d is more than 100 per vCPU (%d vCPUs)",
			    d->cap, d->vcpus);
	/* The nodes holding the memory are checked against the host later. */
	d->numa_nodes = attr_dup(n, "numa-nodes");
	l->total_vcpus += d->vcpus;
	if (l->total_vcpus > SCENARIO_MAX_TOTAL_VCPUS)
		return fail(l, d->line, "more than %d vCPUs in all domains",
			    SCENARIO_MAX_TOTAL_VCPUS);
	return 0;
}

/*
 * Each vCPU's period and budget, its own over the domain's over RTDS's
 * defaults, must pass Xen's putvcpuinfo checks: each <vcpu> that sets
 * one of them at its line, and the domain's pair at the domain's line if
 * some vCPU takes both from it.
 */
static int check_rt(struct loader *l, const struct domain_spec *d)
{
	stime_t period = d->rt.period ? d->rt.period : RTDS_DEFAULT_PERIOD;
	stime_t budget = d->rt.budget ? d->rt.budget : RTDS_DEFAULT_BUDGET;
	int own = 0;
	struct err e;

	for (int i = 0; i < d->nvcpu_over; i++) {
		const struct vcpu_spec *v = &d->vcpu_over[i];

		if (!v->rt.period && !v->rt.budget)
			continue;
		own++;
		if (rtds_check_params(v->rt.period ? v->rt.period : period,
				      v->rt.budget ? v->rt.budget : budget, &e) < 0)
			return fail(l, v->line, "<vcpu id=\"%d\"> of domain '%s': %s", v->id,
				    d->name, e.msg);
	}
	if (own < d->vcpus && rtds_check_params(period, budget, &e) < 0)
		return fail(l, d->line, "<domain name=\"%s\">: %s", d->name, e.msg);
	return 0;
}

static int load_domain(struct loader *l, const xmlNode *n)
{
	struct scenario *sc = l->sc;
	struct domain_spec *d;
	int *seen, ret = 0, xl_affinity;

	if (sc->ndoms == SCENARIO_MAX_DOMAINS)
		return fail(l, line_of(n), "more than %d domains", SCENARIO_MAX_DOMAINS);
	d = scenario_domain_add(sc);
	d->vcpus = 1;
	d->weight = 256;
	d->cap = 0;
	d->line = (int)line_of(n);
	if (domain_attrs(l, n, d) < 0)
		return -1;
	/* The line of the xl file's cpus=/cpus_soft=, when it has them. */
	xl_affinity = d->affinity_source ? d->affinity_line : 0;
	seen = xcalloc((size_t)d->vcpus, sizeof(*seen));
	for (const xmlNode *c = n->children; c && ret == 0; c = c->next) {
		if ((is(c, "affinity") || is(c, "vcpu")) && xl_affinity)
			ret = fail(l, line_of(c), "<%s> in a domain whose xl file sets its affinity "
				   "(%s:%d): give the affinity in one place", (const char *)c->name,
				   d->affinity_source, xl_affinity);
		else if (is(c, "affinity"))
			ret = load_affinity(l, c, d);
		else if (is(c, "vcpu"))
			ret = load_vcpu(l, c, d, seen);
		else if (is(c, "workload"))
			ret = load_workload(l, c, d);
		else
			ret = stray_child(l, n, c, "affinity, vcpu, workload");
	}
	free(seen);
	return ret < 0 ? -1 : check_rt(l, d);
}

static int load_minor_frame(struct loader *l, const xmlNode *n, struct arinc653_spec *a)
{
	static const char *const valid[] = { "domain", "vcpu", "runtime", NULL };
	struct minor_frame_spec *f;
	char *runtime;

	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0)
		return -1;
	if (a->nframes == SCENARIO_MAX_MINOR_FRAMES)
		return fail(l, line_of(n), "more than %d <minor-frame> in <arinc653> (Xen's "
			    "ARINC653_MAX_DOMAINS_PER_SCHEDULE)", SCENARIO_MAX_MINOR_FRAMES);
	a->frames = xreallocarray(a->frames, (size_t)a->nframes + 1, sizeof(*a->frames));
	f = &a->frames[a->nframes++];
	memset(f, 0, sizeof(*f));
	f->line = (int)line_of(n);
	if (attr_name(l, n, "domain", f->domain, sizeof(f->domain)) < 0 ||
	    attr_int(l, n, "vcpu", 0, SCENARIO_MAX_VCPUS - 1, &f->vcpu) < 0)
		return -1;
	runtime = attr(n, "runtime");
	if (!runtime)
		return fail(l, f->line, "<minor-frame> is missing the required attribute 'runtime'");
	xmlFree(runtime);
	return attr_duration(l, n, "runtime", 1, MAX_DURATION, &f->runtime);
}

/* <arinc653 major-frame=".."> with its <minor-frame> children, in order. */
static int load_arinc653(struct loader *l, const xmlNode *n)
{
	static const char *const valid[] = { "major-frame", "pool", NULL };
	struct arinc653_spec *a = &l->sc->arinc653;
	stime_t total = 0;
	char t[32], m[32];

	if (a->line)
		return fail(l, line_of(n), "second <arinc653> (the first is at line %d)", a->line);
	a->line = (int)line_of(n);
	if (check_attrs(l, n, valid) < 0 || attr_pool(l, n, a->pool, sizeof(a->pool)) < 0 ||
	    attr_duration(l, n, "major-frame", 1, MAX_DURATION, &a->major_frame) < 0)
		return -1;
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "minor-frame")) {
			if (load_minor_frame(l, c, a) < 0)
				return -1;
		} else if (stray_child(l, n, c, "minor-frame") < 0) {
			return -1;
		}
	}
	if (a->nframes == 0)
		return fail(l, a->line, "<arinc653> has no <minor-frame> (the schedule needs 1 to %d)",
			    SCENARIO_MAX_MINOR_FRAMES);
	for (int i = 0; i < a->nframes; i++)
		total += a->frames[i].runtime;
	if (a->major_frame && total > a->major_frame)
		return fail(l, a->line, "<arinc653> minor frames add up to %s, more than the "
			    "major frame %s", format_duration(total, t, sizeof(t)),
			    format_duration(a->major_frame, m, sizeof(m)));
	if (total > MAX_DURATION)
		return fail(l, a->line, "<arinc653> minor frames add up to more than %s",
			    format_duration(MAX_DURATION, m, sizeof(m)));
	return 0;
}

/*
 * <pool name=".." cpus=".." sched="..">: a cpupool besides Pool-0 (its cpu
 * list needs the topology: sim/engine/cpupool.c checks it).
 */
static int load_pool(struct loader *l, const xmlNode *n)
{
	static const char *const valid[] = { "name", "cpus", "sched", NULL };
	struct scenario *sc = l->sc;
	struct pool_spec *p, *other;

	if (sc->npools == SCENARIO_MAX_POOLS)
		return fail(l, line_of(n), "more than %d <pool>s", SCENARIO_MAX_POOLS);
	sc->pools = xreallocarray(sc->pools, (size_t)sc->npools + 1, sizeof(*sc->pools));
	p = &sc->pools[sc->npools++];
	memset(p, 0, sizeof(*p));
	p->line = (int)line_of(n);
	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0 ||
	    attr_name(l, n, "name", p->name, sizeof(p->name)) < 0)
		return -1;
	if (strcmp(p->name, "Pool-0") == 0)
		return fail(l, p->line, "<pool> name 'Pool-0' is taken: Pool-0 holds the pCPUs no "
			    "<pool> takes");
	other = scenario_pool(sc, p->name);
	if (other != p)
		return fail(l, p->line, "duplicate pool name '%s' (the first is at line %d)",
			    p->name, other->line);
	p->cpus = attr_dup(n, "cpus");
	p->sched = attr_dup(n, "sched");
	if (!p->cpus)
		return fail(l, p->line, "<pool> is missing the required attribute 'cpus'");
	return 0;
}

/* Once every pool is known: each domain's pool and the schedule's exist. */
static int check_pools(struct loader *l)
{
	struct scenario *sc = l->sc;

	for (int i = 0; i < sc->ndoms; i++)
		if (sc->doms[i].pool[0] && !scenario_pool(sc, sc->doms[i].pool))
			return fail(l, sc->doms[i].line, "domain '%s' is in pool '%s', which the "
				    "scenario does not have (valid: Pool-0%s%s)", sc->doms[i].name,
				    sc->doms[i].pool, sc->npools ? ", " : "", l->pool_names);
	if (sc->arinc653.pool[0] && !scenario_pool(sc, sc->arinc653.pool))
		return fail(l, sc->arinc653.line, "<arinc653> is for pool '%s', which the scenario "
			    "does not have (valid: Pool-0%s%s)", sc->arinc653.pool,
			    sc->npools ? ", " : "", l->pool_names);
	return 0;
}

/* Once every domain is known: each minor frame names one of their vCPUs. */
static int check_arinc653(struct loader *l)
{
	const struct arinc653_spec *a = &l->sc->arinc653;

	for (int i = 0; i < a->nframes; i++) {
		const struct minor_frame_spec *f = &a->frames[i];
		const struct domain_spec *d = scenario_domain(l->sc, f->domain);

		if (!d)
			return fail(l, f->line, "<minor-frame> names domain '%s', which the scenario "
				    "does not have", f->domain);
		if (f->vcpu >= d->vcpus)
			return fail(l, f->line, "<minor-frame> names vcpu %d of domain '%s', which "
				    "has %d vCPU%s", f->vcpu, f->domain, d->vcpus,
				    d->vcpus == 1 ? "" : "s");
	}
	return 0;
}

/*
 * <host lscpu="FILE"> or <host xl-info="FILE">: the machine's own CPU map
 * (sim/input/host_topology.h), FILE relative to the scenario file; it replaces
 * the shape attributes, which may then not be given.
 */
static int load_host_map(struct loader *l, const xmlNode *n, struct host_spec *h)
{
	static const char *const shape[] = { "sockets", "cores-per-socket", "threads-per-core",
					     "nodes", NULL };
	static const enum host_topology_format kinds[] = { HOST_TOPOLOGY_LSCPU,
							   HOST_TOPOLOGY_XL_INFO };
	const char *kind = NULL;
	char *file = NULL;
	int ret = 0;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char *v = attr(n, host_topology_kind(kinds[i]));
		struct err e;
		char *path;

		if (!v)
			continue;
		if (kind) {
			xmlFree(v);
			xmlFree(file);
			return fail(l, h->line, "<host> takes lscpu or xl-info, not both");
		}
		kind = host_topology_kind(kinds[i]);
		for (int k = 0; shape[k]; k++)
			if (xmlHasProp(n, BAD_CAST shape[k])) {
				xmlFree(v);
				return fail(l, h->line, "<host> %s: the CPU map gives the topology; "
					    "'%s' cannot be given with it", kind, shape[k]);
			}
		path = textfile_relative(l->name, v);
		if (!v[0])
			ret = fail(l, h->line, "<host> %s: empty file name", kind);
		else if (host_topology_load(h, kinds[i], path, &e) < 0)
			ret = fail(l, h->line, "<host> %s: %s", kind, e.msg);
		free(path);
		file = v;
		if (ret < 0)
			break;
	}
	xmlFree(file);
	return ret;
}

/*
 * The hardware attributes of <host> (sim/engine/hw.h owns their table): each is
 * checked on its own as it is read, then the set (the C-state table).
 */
static int host_hw_attrs(struct loader *l, const xmlNode *n, struct host_spec *h)
{
	struct hw_config c;
	struct err e;
	int line = h->line;

	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const struct param_def *d = params_find(hw_host_params, (const char *)a->name);
		char *v;
		int rc;

		if (!d || a->ns)
			continue;
		v = attr(n, d->name);
		memset(&c, 0, sizeof(c));
		rc = param_set(d, &c, v ? v : "", &e);
		if (rc == 0)
			kvlist_add(&h->hw, d->name, v ? v : "", h->line);
		xmlFree(v);
		if (rc < 0)
			return fail(l, h->line, "<host> %s: %s", d->name, e.msg);
	}
	if (hw_config_init(&c, &h->hw, &line, &e) < 0)
		return fail(l, h->line, "<host> %s", e.msg);
	return 0;
}

static int load_host(struct loader *l, const xmlNode *n)
{
	static const char *const topology[] = { "sockets", "cores-per-socket", "threads-per-core",
						"nodes", "lscpu", "xl-info", "ipi-latency",
						"context-switch" };
	enum { NTOPO = sizeof(topology) / sizeof(topology[0]) };
	const char *valid[NTOPO + 32];
	struct host_spec *h = &l->sc->host;
	long long cpus;
	int nv = 0;

	if (h->line)
		return fail(l, line_of(n), "second <host> (the first is at line %d)", h->line);
	h->line = (int)line_of(n);
	for (int i = 0; i < NTOPO; i++)
		valid[nv++] = topology[i];
	for (int i = 0; hw_host_params[i].name && nv < NTOPO + 31; i++)
		valid[nv++] = hw_host_params[i].name;
	valid[nv] = NULL;
	if (check_attrs(l, n, valid) < 0 || no_children(l, n) < 0 || load_host_map(l, n, h) < 0 ||
	    attr_int(l, n, "sockets", 1, MAX_HOST_VALUE, &h->sockets) < 0 ||
	    attr_int(l, n, "cores-per-socket", 1, MAX_HOST_VALUE, &h->cores_per_socket) < 0 ||
	    attr_int(l, n, "threads-per-core", 1, MAX_HOST_VALUE, &h->threads_per_core) < 0 ||
	    attr_int(l, n, "nodes", 1, MAX_HOST_VALUE, &h->nodes) < 0 ||
	    attr_duration(l, n, "ipi-latency", 0, MAX_HOST_DELAY, &h->ipi_latency) < 0 ||
	    attr_duration(l, n, "context-switch", 0, MAX_HOST_DELAY, &h->context_switch) < 0)
		return -1;
	cpus = h->cpu_map ? h->ncpus_map
			  : (long long)h->sockets * h->cores_per_socket * h->threads_per_core;
	if (cpus > MAX_HOST_VALUE)
		return fail(l, h->line, "<host> has %lld pCPUs, more than the %d supported",
			    cpus, MAX_HOST_VALUE);
	return host_hw_attrs(l, n, h);
}

static int load_seed(struct loader *l, const xmlNode *n)
{
	char *v = attr(n, "seed"), *end;
	unsigned long long x;
	int ret = 0;

	if (!v)
		return 0;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (!isdigit((unsigned char)v[0]) || *end)
		ret = fail(l, line_of(n), "<scenario> seed: '%s' is not a non-negative integer", v);
	else if (errno == ERANGE)
		ret = fail(l, line_of(n), "<scenario> seed: '%s' is out of range 0..%" PRIu64,
			   v, UINT64_MAX);
	else
		l->sc->seed = x;
	xmlFree(v);
	return ret;
}

static int load_scenario(struct loader *l, const xmlNode *root)
{
	static const char *const valid[] = { "duration", "seed", NULL };
	struct scenario *sc = l->sc;

	if (root->ns)
		return fail(l, line_of(root), "the root element is in namespace '%s' (scenario files use none)",
			    root->ns->href ? (const char *)root->ns->href : "");
	if (!is(root, "scenario"))
		return fail(l, line_of(root), "the root element is <%s>, expected <scenario>",
			    (const char *)root->name);
	sc->line = (int)line_of(root);
	if (check_attrs(l, root, valid) < 0 ||
	    attr_duration(l, root, "duration", 1, MAX_DURATION, &sc->duration) < 0 ||
	    load_seed(l, root) < 0)
		return -1;
	for (const xmlNode *c = root->children; c; c = c->next) {
		int ret;

		if (is(c, "host"))
			ret = load_host(l, c);
		else if (is(c, "domain"))
			ret = load_domain(l, c);
		else if (is(c, "arinc653"))
			ret = load_arinc653(l, c);
		else if (is(c, "pool"))
			ret = load_pool(l, c);
		else
			ret = stray_child(l, root, c, "host, pool, domain, arinc653");
		if (ret < 0)
			return -1;
	}
	if (sc->ndoms == 0)
		return fail(l, sc->line, "<scenario> has no <domain>");
	for (int i = 0; i < sc->npools; i++)
		snprintf(l->pool_names + strlen(l->pool_names),
			 sizeof(l->pool_names) - strlen(l->pool_names), "%s%s", i ? ", " : "",
			 sc->pools[i].name);
	if (check_pools(l) < 0)
		return -1;
	return check_arinc653(l);
}

/* ---- the gates ---- */

/*
 * libxml2 2.9 checks an element's attributes for duplicates pairwise, and
 * its RelaxNG validator copies them per state: a start tag with a million
 * attributes, well within 16 MiB, would take hours.  One pass over the raw
 * text counts the '=' of each tag (outside quotes, comments, CDATA and
 * processing instructions) and refuses a tag with too many, before
 * libxml2 sees it.
 */
static int prescan(struct loader *l, const char *p, const char *end)
{
	long line = 1, tag_line = 0;
	int eqs = 0;
	char quote = 0;
	enum { TEXT, TAG, SKIP } state = TEXT;
	const char *close = NULL;   /* SKIP ends at this string */

	for (; p < end; p++) {
		if (*p == '\n')
			line++;
		switch (state) {
		case TEXT:
			if (*p != '<')
				break;
			if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
				close = "-->", state = SKIP;
			else if (end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0)
				close = "]]>", state = SKIP;
			else if (end - p >= 2 && (p[1] == '?' || p[1] == '!'))
				close = p[1] == '?' ? "?>" : ">", state = SKIP;
			else
				state = TAG, eqs = 0, quote = 0, tag_line = line;
			break;
		case TAG:
			if (quote) {
				if (*p == quote)
					quote = 0;
			} else if (*p == '"' || *p == '\'') {
				quote = *p;
			} else if (*p == '>') {
				state = TEXT;
			} else if (*p == '=' && ++eqs > SCENARIO_MAX_ATTRS) {
				return fail(l, tag_line, "more than %d attributes on one element",
					    SCENARIO_MAX_ATTRS);
			}
			break;
		case SKIP:
			if ((size_t)(end - p) >= strlen(close) &&
			    memcmp(p, close, strlen(close)) == 0)
				state = TEXT;
			break;
		}
	}
	return 0;
}

static xmlDocPtr parse(struct loader *l, const char *xml, int len)
{
	xmlParserCtxtPtr c = xmlCreateMemoryParserCtxt(xml, len);
	xmlDocPtr doc;

	if (!c) {
		fail(l, 1, "cannot create an XML parser");
		return NULL;
	}
	l->ctxt = c;
	c->_private = l;
	c->sax->serror = parser_error;
	c->sax->internalSubset = no_doctype;
	c->sax->startElementNs = start_element;
	c->sax->externalSubset = NULL;
	xmlCtxtUseOptions(c, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlParseDocument(c);
	doc = c->myDoc;
	c->myDoc = NULL;
	if (l->xml_msg[0])
		fail(l, l->xml_line, "%s", l->xml_msg);
	if (!l->failed && (!c->wellFormed || !doc))
		fail(l, c->input ? c->input->line : 1, "malformed XML");
	l->ctxt = NULL;
	xmlFreeParserCtxt(c);
	if (l->failed && doc) {
		xmlFreeDoc(doc);
		doc = NULL;
	}
	return doc;
}

/* The embedded schema compiled, or NULL with the error in l. */
static xmlRelaxNGPtr compile_schema(struct loader *l)
{
	xmlRelaxNGParserCtxtPtr pc;
	xmlRelaxNGPtr schema;

	pc = xmlRelaxNGNewMemParserCtxt(scenario_schema_rng, (int)strlen(scenario_schema_rng));
	if (!pc) {
		fail(l, 1, "internal error: cannot read the embedded schema");
		return NULL;
	}
	xmlRelaxNGSetParserStructuredErrors(pc, stray_error, l);
	schema = xmlRelaxNGParse(pc);
	xmlRelaxNGFreeParserCtxt(pc);
	if (!schema) {
		l->failed = false;
		fail(l, 1, "internal error: the embedded schema does not compile");
	}
	return schema;
}

static int validate(struct loader *l, xmlDocPtr doc)
{
	xmlRelaxNGValidCtxtPtr vc;
	xmlRelaxNGPtr schema = l->schema ? l->schema->rng : compile_schema(l);
	int ret;

	if (!schema)
		return -1;
	vc = xmlRelaxNGNewValidCtxt(schema);
	xmlRelaxNGSetValidStructuredErrors(vc, schema_error, l);
	ret = xmlRelaxNGValidateDoc(vc, doc);
	xmlRelaxNGFreeValidCtxt(vc);
	if (!l->schema)
		xmlRelaxNGFree(schema);
	if (ret != 0)
		return fail(l, 1, "does not match the schema");
	return 0;
}

struct scenario_schema *scenario_schema_new(struct err *e)
{
	struct loader l = { .name = "the embedded schema", .e = e };
	struct scenario_schema *schema;
	xmlRelaxNGPtr rng;

	xmlInitParser();
	if (!(rng = compile_schema(&l)))
		return NULL;
	schema = xmalloc(sizeof(*schema));
	schema->rng = rng;
	return schema;
}

void scenario_schema_free(struct scenario_schema *schema)
{
	if (!schema)
		return;
	xmlRelaxNGFree(schema->rng);
	free(schema);
}

static void scenario_defaults(struct scenario *sc, const char *name)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->source, sizeof(sc->source), "%s", name);
	sc->duration = SCENARIO_DEFAULT_DURATION;
	sc->seed = SCENARIO_DEFAULT_SEED;
	sc->host.sockets = sc->host.cores_per_socket = 1;
	sc->host.threads_per_core = sc->host.nodes = 1;
	sc->host.ipi_latency = USEC(1);
	sc->host.context_switch = USEC(2);
}

int scenario_load_memory_with(const struct scenario_schema *schema, const char *xml, int len,
			      const char *name, struct scenario *sc, struct err *e)
{
	struct loader l = { .name = name, .e = e, .sc = sc, .schema = schema };
	xmlStructuredErrorFunc old_serror;
	xmlGenericErrorFunc old_generic;
	void *old_sctx, *old_gctx;
	xmlDocPtr doc;

	scenario_defaults(sc, name);
	if (len <= 0)
		return fail(&l, 1, "empty file");
	if (len > SCENARIO_MAX_FILE)
		return err_set(e, "%s: too large (%d bytes; scenario files are limited to %d MiB)",
			       name, len, SCENARIO_MAX_FILE >> 20);
	xmlInitParser();
	/* Per-thread handlers, restored below: nothing reaches stderr. */
	old_serror = xmlStructuredError;
	old_sctx = xmlStructuredErrorContext;
	old_generic = xmlGenericError;
	old_gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(&l, stray_error);
	xmlSetGenericErrorFunc(NULL, silent);

	doc = prescan(&l, xml, xml + len) == 0 ? parse(&l, xml, len) : NULL;
	if (doc) {
		xmlNodePtr root = xmlDocGetRootElement(doc);

		if (!root)
			fail(&l, 1, "no root element");
		else if (load_scenario(&l, root) == 0)
			validate(&l, doc);
		xmlFreeDoc(doc);
	}

	xmlSetStructuredErrorFunc(old_sctx, old_serror);
	xmlSetGenericErrorFunc(old_gctx, old_generic);
	xentrace_host_free(&l.trace);
	free(l.trace_path);
	if (l.failed) {
		scenario_free(sc);
		return -1;
	}
	return 0;
}

int scenario_load_memory(const char *xml, int len, const char *name,
			 struct scenario *sc, struct err *e)
{
	return scenario_load_memory_with(NULL, xml, len, name, sc, e);
}

int scenario_load_file(const char *path, struct scenario *sc, struct err *e)
{
	size_t cap = 65536, len = 0;
	struct stat st;
	char *buf;
	int fd, ret;

	scenario_defaults(sc, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return err_set(e, "%s: is a directory", path);
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SCENARIO_MAX_FILE) {
		close(fd);
		return err_set(e, "%s: too large (%lld bytes; scenario files are limited to %d MiB)",
			       path, (long long)st.st_size, SCENARIO_MAX_FILE >> 20);
	}
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			if (cap > SCENARIO_MAX_FILE)
				break;
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = err_set(e, "%s: cannot read: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > SCENARIO_MAX_FILE)
		ret = err_set(e, "%s: too large (more than %d MiB; scenario files are limited to %d MiB)",
			      path, SCENARIO_MAX_FILE >> 20, SCENARIO_MAX_FILE >> 20);
	else
		ret = scenario_load_memory(buf, (int)len, path, sc, e);
out:
	free(buf);
	close(fd);
	return ret;
}

/*
 * Boot parameters: the shim sets the variables directly (see the wrapper
 * files), so the registration macros only keep the parsers referenced.
 */
#ifndef XEN_SHIM_PARAM_H
#define XEN_SHIM_PARAM_H

#define XS_CAT_(a, b) a##b
#define XS_CAT(a, b) XS_CAT_(a, b)
#define xs_keep_(p) \
	static const void *const XS_CAT(xs_param_, __LINE__) __attribute__((unused)) = (const void *)(p)
#define custom_param(name, fn) xs_keep_(fn)
#define custom_runtime_param(name, fn, ...) xs_keep_(fn)
#define integer_param(name, var) xs_keep_(&(var))
#define integer_runtime_param(name, var) xs_keep_(&(var))
#define boolean_param(name, var) xs_keep_(&(var))
#define boolean_runtime_param(name, var) xs_keep_(&(var))
#define size_param(name, var) xs_keep_(&(var))
#define string_param(name, var) xs_keep_(&(var))
#define parse_bool(s, e) xs_parse_bool(s, e)
int xs_parse_bool(const char *s, const char *e);

#endif

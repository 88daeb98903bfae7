// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * usdt_generic_spec.c - what --usdt asks for: the PROVIDER[:PROBE[:ARGSPEC]]
 * specs, and the built-in argument types of the probes of runtimes and
 * servers that document theirs (CPython, HotSpot, PostgreSQL, ...).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "usdt_generic_event.h"	/* the record */
#include "usdt_generic.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"

/* ------------------------------------------------------------ built-in table */

struct ug_known {
	const char *provider;
	const char *probe;
	const char *args;	/* ARGSPEC */
};

#define PY_FUNC		"0=str/filename,1=str/funcname,2=int/lineno"
#define HS_CLASS	"0=lstr/class_name,1=int/class_name_len,2=u64/class_loader"
#define HS_CLINIT	HS_CLASS ",3=int/thread_type,4=int/wait"
#define HS_METHOD	"0=int/thread_id,1=lstr/class_name,2=int/class_name_len," \
			"3=lstr/method_name,4=int/method_name_len,5=lstr/signature,6=int/signature_len"
#define HS_CMETHOD	"0=lstr/class_name,1=int/class_name_len,2=lstr/method_name," \
			"3=int/method_name_len,4=lstr/signature,5=int/signature_len"
#define HS_COMPILE	"0=lstr/compiler,1=int/compiler_len,2=lstr/class_name," \
			"3=int/class_name_len,4=lstr/method_name,5=int/method_name_len," \
			"6=lstr/signature,7=int/signature_len"
#define HS_POOL		"0=lstr/manager,1=int/manager_len,2=lstr/pool,3=int/pool_len," \
			"4=u64/initial,5=u64/used,6=u64/committed,7=u64/max"
#define HS_MONITOR	"0=int/thread_id,1=u64/monitor,2=lstr/class_name,3=int/class_name_len"
#define HS_THREAD	"0=lstr/thread_name,1=int/thread_name_len,2=int/java_thread_id," \
			"3=int/native_thread_id,4=int/is_daemon"
#define HS_VMOP		"0=lstr/vmop,1=int/vmop_len,2=int/mode"
#define JNI_MEMBER	"0=u64/env,1=u64/clazz,2=str/name,3=str/signature"
#define PG_QUERY	"0=str/query"
#define PG_XACT		"0=int/local_xid"
#define PG_LWLOCK	"0=str/tranche,1=int/mode"
#define PG_LOCK		"0=int/locktag_field1,1=int/locktag_field2,2=int/locktag_field3," \
			"3=int/locktag_field4,4=int/locktag_type,5=int/lockmode"
#define PG_BUF		"0=int/fork,1=int/block,2=int/tablespace,3=int/database,4=int/relation"
#define PG_BUFREAD	PG_BUF ",5=int/backend,6=int/extend"
#define PG_SMGR		PG_BUF ",5=int/backend"
#define PG_SMGR_DONE	PG_SMGR ",6=int/bytes,7=int/bytes_requested"
#define PG_SHUTDOWN	"0=int/shutdown"

static const struct ug_known known[] = {
	/* CPython Include/pydtrace.d */
	{ "python", "function__entry", PY_FUNC },
	{ "python", "function__return", PY_FUNC },
	{ "python", "line", PY_FUNC },
	{ "python", "gc__start", "0=int/generation" },
	{ "python", "gc__done", "0=int/collected" },
	{ "python", "import__find__load__start", "0=str/module" },
	{ "python", "import__find__load__done", "0=str/module,1=int/found" },
	{ "python", "audit", "0=str/event,1=u64/args" },
	{ "python", "instance__new__start", "0=str/type" },
	{ "python", "instance__new__done", "0=str/type" },
	{ "python", "instance__delete__start", "0=str/type" },
	{ "python", "instance__delete__done", "0=str/type" },
	/* HotSpot src/hotspot/os/posix/dtrace/hotspot.d (JDK 17): strings are
	 * (char *, length) pairs without a NUL */
	{ "hotspot", "class__loaded", HS_CLASS ",3=int/is_shared" },
	{ "hotspot", "class__unloaded", HS_CLASS ",3=int/is_shared" },
	{ "hotspot", "class__initialization__required", HS_CLASS ",3=int/thread_type" },
	{ "hotspot", "class__initialization__recursive", HS_CLINIT },
	{ "hotspot", "class__initialization__concurrent", HS_CLINIT },
	{ "hotspot", "class__initialization__erroneous", HS_CLINIT },
	{ "hotspot", "class__initialization__super__failed", HS_CLINIT },
	{ "hotspot", "class__initialization__clinit", HS_CLINIT },
	{ "hotspot", "class__initialization__error", HS_CLINIT },
	{ "hotspot", "class__initialization__end", HS_CLINIT },
	{ "hotspot", "compiled__method__load", HS_CMETHOD ",6=u64/code,7=int/code_size" },
	{ "hotspot", "compiled__method__unload", HS_CMETHOD },
	{ "hotspot", "gc__begin", "0=int/is_full" },
	{ "hotspot", "gc__end", "" },
	{ "hotspot", "mem__pool__gc__begin", HS_POOL },
	{ "hotspot", "mem__pool__gc__end", HS_POOL },
	{ "hotspot", "method__compile__begin", HS_COMPILE },
	{ "hotspot", "method__compile__end", HS_COMPILE ",8=int/success" },
	{ "hotspot", "method__entry", HS_METHOD },
	{ "hotspot", "method__return", HS_METHOD },
	{ "hotspot", "monitor__contended__enter", HS_MONITOR },
	{ "hotspot", "monitor__contended__entered", HS_MONITOR },
	{ "hotspot", "monitor__contended__exit", HS_MONITOR },
	{ "hotspot", "monitor__notify", HS_MONITOR },
	{ "hotspot", "monitor__notifyAll", HS_MONITOR },
	{ "hotspot", "monitor__wait", HS_MONITOR ",4=int/timeout" },
	{ "hotspot", "monitor__waited", HS_MONITOR },
	{ "hotspot", "object__alloc",
	  "0=int/thread_id,1=lstr/class_name,2=int/class_name_len,3=int/size" },
	{ "hotspot", "thread__start", HS_THREAD },
	{ "hotspot", "thread__stop", HS_THREAD },
	{ "hotspot", "thread__park__begin", "0=u64/parker,1=int/is_absolute,2=int/time" },
	{ "hotspot", "thread__park__end", "0=u64/parker" },
	{ "hotspot", "thread__unpark", "0=u64/parker" },
	{ "hotspot", "thread__sleep__begin", "0=int/millis" },
	{ "hotspot", "thread__sleep__end", "0=int/timed_out" },
	{ "hotspot", "thread__yield", "" },
	{ "hotspot", "vm__init__begin", "" },
	{ "hotspot", "vm__init__end", "" },
	{ "hotspot", "vm__shutdown", "" },
	{ "hotspot", "vmops__request", HS_VMOP },
	{ "hotspot", "vmops__begin", HS_VMOP },
	{ "hotspot", "vmops__end", HS_VMOP },
	/* hotspot_jni (hotspot_jni.d): the JNI calls with C-string arguments;
	 * the other ~500 probes pass handles (argN, int64) */
	{ "hotspot_jni", "FindClass__entry", "0=u64/env,1=str/name" },
	{ "hotspot_jni", "GetMethodID__entry", JNI_MEMBER },
	{ "hotspot_jni", "GetStaticMethodID__entry", JNI_MEMBER },
	{ "hotspot_jni", "GetFieldID__entry", JNI_MEMBER },
	{ "hotspot_jni", "GetStaticFieldID__entry", JNI_MEMBER },
	{ "hotspot_jni", "NewStringUTF__entry", "0=u64/env,1=str/bytes" },
	{ "hotspot_jni", "ThrowNew__entry", "0=u64/env,1=u64/clazz,2=str/message" },
	{ "hotspot_jni", "FatalError__entry", "0=u64/env,1=str/message" },
	{ "hotspot_jni", "DefineClass__entry",
	  "0=u64/env,1=str/name,2=u64/loader,3=u64/buf,4=int/len" },
	/* PostgreSQL src/backend/utils/probes.d (15) */
	{ "postgresql", "transaction__start", PG_XACT },
	{ "postgresql", "transaction__commit", PG_XACT },
	{ "postgresql", "transaction__abort", PG_XACT },
	{ "postgresql", "query__start", PG_QUERY },
	{ "postgresql", "query__done", PG_QUERY },
	{ "postgresql", "query__parse__start", PG_QUERY },
	{ "postgresql", "query__parse__done", PG_QUERY },
	{ "postgresql", "query__rewrite__start", PG_QUERY },
	{ "postgresql", "query__rewrite__done", PG_QUERY },
	{ "postgresql", "query__plan__start", "" },
	{ "postgresql", "query__plan__done", "" },
	{ "postgresql", "query__execute__start", "" },
	{ "postgresql", "query__execute__done", "" },
	{ "postgresql", "statement__status", "0=str/status" },
	{ "postgresql", "lwlock__acquire", PG_LWLOCK },
	{ "postgresql", "lwlock__release", "0=str/tranche" },
	{ "postgresql", "lwlock__wait__start", PG_LWLOCK },
	{ "postgresql", "lwlock__wait__done", PG_LWLOCK },
	{ "postgresql", "lwlock__condacquire", PG_LWLOCK },
	{ "postgresql", "lwlock__condacquire__fail", PG_LWLOCK },
	{ "postgresql", "lwlock__acquire__or__wait", PG_LWLOCK },
	{ "postgresql", "lwlock__acquire__or__wait__fail", PG_LWLOCK },
	{ "postgresql", "lock__wait__start", PG_LOCK },
	{ "postgresql", "lock__wait__done", PG_LOCK },
	{ "postgresql", "deadlock__found", "" },
	{ "postgresql", "checkpoint__start", "0=int/flags" },
	{ "postgresql", "checkpoint__done", "0=int/buffers_written,1=int/total_buffers,"
	  "2=int/segs_added,3=int/segs_removed,4=int/segs_recycled" },
	{ "postgresql", "clog__checkpoint__start", PG_SHUTDOWN },
	{ "postgresql", "clog__checkpoint__done", PG_SHUTDOWN },
	{ "postgresql", "subtrans__checkpoint__start", PG_SHUTDOWN },
	{ "postgresql", "subtrans__checkpoint__done", PG_SHUTDOWN },
	{ "postgresql", "multixact__checkpoint__start", PG_SHUTDOWN },
	{ "postgresql", "multixact__checkpoint__done", PG_SHUTDOWN },
	{ "postgresql", "twophase__checkpoint__start", "" },
	{ "postgresql", "twophase__checkpoint__done", "" },
	{ "postgresql", "buffer__read__start", PG_BUFREAD },
	{ "postgresql", "buffer__read__done", PG_BUFREAD ",7=int/found" },
	{ "postgresql", "buffer__flush__start", PG_BUF },
	{ "postgresql", "buffer__flush__done", PG_BUF },
	{ "postgresql", "buffer__write__dirty__start", PG_BUF },
	{ "postgresql", "buffer__write__dirty__done", PG_BUF },
	{ "postgresql", "buffer__checkpoint__start", "0=int/flags" },
	{ "postgresql", "buffer__checkpoint__sync__start", "" },
	{ "postgresql", "buffer__checkpoint__done", "" },
	{ "postgresql", "buffer__sync__start", "0=int/num_buffers,1=int/num_to_write" },
	{ "postgresql", "buffer__sync__written", "0=int/buffer" },
	{ "postgresql", "buffer__sync__done",
	  "0=int/num_buffers,1=int/num_written,2=int/num_to_write" },
	{ "postgresql", "smgr__md__read__start", PG_SMGR },
	{ "postgresql", "smgr__md__read__done", PG_SMGR_DONE },
	{ "postgresql", "smgr__md__write__start", PG_SMGR },
	{ "postgresql", "smgr__md__write__done", PG_SMGR_DONE },
	{ "postgresql", "sort__start", "0=int/sort_type,1=int/unique,2=int/nkeys,"
	  "3=int/work_mem,4=int/random_access,5=int/parallel" },
	{ "postgresql", "sort__done", "0=int/external,1=int/space_used" },
	{ "postgresql", "wal__insert", "0=int/rmid,1=int/info" },
	{ "postgresql", "wal__switch", "" },
	{ "postgresql", "wal__buffer__write__dirty__start", "" },
	{ "postgresql", "wal__buffer__write__dirty__done", "" },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

const char *ug_known_args(const char *provider, const char *probe)
{
	size_t i;

	for (i = 0; i < N_KNOWN; i++)
		if (!strcmp(known[i].provider, provider) && !strcmp(known[i].probe, probe))
			return known[i].args;
	return NULL;
}

const char *ug_known_entry(size_t i, const char **provider, const char **probe)
{
	if (i >= N_KNOWN)
		return NULL;
	*provider = known[i].provider;
	*probe = known[i].probe;
	return known[i].args;
}

int ug_known_provider(const char *provider)
{
	size_t i;

	for (i = 0; i < N_KNOWN; i++)
		if (!strcmp(known[i].provider, provider))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ spec parsing */

static const char *const type_names[] = {
	[UG_T_INT] = "int", [UG_T_U64] = "u64", [UG_T_STR] = "str", [UG_T_LSTR] = "lstr",
};

static int parse_type(const char *s, size_t n)
{
	size_t i;

	if (n == 3 && !strncmp(s, "ptr", 3))
		return UG_T_U64;
	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strlen(type_names[i]) == n && !strncmp(s, type_names[i], n))
			return i;
	return -1;
}

static bool valid_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 63 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* One item "[arg]N=TYPE[/NAME]" of length len. */
static int parse_item(const char *s, size_t len, struct ug_argspec *a, char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', len), *slash, *p = s, *end = s + len;
	unsigned long idx = 0;
	char *name = NULL;
	int type;

	if (len >= 3 && !strncmp(p, "arg", 3))
		p += 3;
	if (!eq || p == eq)
		goto bad;
	for (; p < eq; p++) {
		if (*p < '0' || *p > '9' || idx > UG_ARGS)
			goto bad;
		idx = idx * 10 + (*p - '0');
	}
	if (idx >= UG_ARGS) {
		snprintf(err, errlen, "argument index %lu out of range (0..%d, 0-based) in '%.*s'",
			 idx, UG_ARGS - 1, (int)len, s);
		return -EINVAL;
	}
	slash = memchr(eq + 1, '/', end - eq - 1);
	type = parse_type(eq + 1, (slash ? slash : end) - eq - 1);
	if (type < 0) {
		snprintf(err, errlen, "unknown type in '%.*s' (int, u64, ptr, str or lstr)",
			 (int)len, s);
		return -EINVAL;
	}
	if (type == UG_T_LSTR && idx == UG_ARGS - 1) {
		snprintf(err, errlen, "'%.*s': lstr needs its length in the next argument",
			 (int)len, s);
		return -EINVAL;
	}
	if (slash) {
		if (!valid_name(slash + 1, end - slash - 1)) {
			snprintf(err, errlen, "bad field name in '%.*s' (letters, digits, _)",
				 (int)len, s);
			return -EINVAL;
		}
		name = strndup(slash + 1, end - slash - 1);
		if (!name)
			return -ENOMEM;
	}
	a->set[idx] = 1;
	a->type[idx] = type;
	if (name) {
		free(a->name[idx]);
		a->name[idx] = name;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad argument spec '%.*s' (expected N=TYPE[/NAME], N 0-based)",
		 (int)len, s);
	return -EINVAL;
}

int ug_argspec__parse(const char *s, struct ug_argspec *a, char *err, size_t errlen)
{
	size_t n;
	int e;

	while (*s) {
		n = strcspn(s, ",");
		if (n) {
			e = parse_item(s, n, a, err, errlen);
			if (e)
				return e;
		}
		s += n + (s[n] == ',');
	}
	return 0;
}

void ug_argspec__free(struct ug_argspec *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < UG_ARGS; i++) {
		free(a->name[i]);
		a->name[i] = NULL;
	}
}

void ug_spec__free(struct ug_spec *sp)
{
	if (!sp)
		return;
	free(sp->provider);
	free(sp->glob);
	ug_argspec__free(&sp->args);
	memset(sp, 0, sizeof(*sp));
}

int ug_spec__parse(const char *s, struct ug_spec *out, char *err, size_t errlen)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t plen = c1 ? (size_t)(c1 - s) : strlen(s);
	int e;

	memset(out, 0, sizeof(*out));
	if (c2 && strchr(c2 + 1, ':')) {
		snprintf(err, errlen, "'%s': too many ':' (PROVIDER[:PROBE-GLOB][:ARGSPEC])", s);
		return -EINVAL;
	}
	if (!valid_name(s, plen)) {
		snprintf(err, errlen, "'%s': bad provider name (PROVIDER[:PROBE-GLOB][:ARGSPEC])",
			 s);
		return -EINVAL;
	}
	out->provider = strndup(s, plen);
	if (!c1 || c1 + 1 == (c2 ? c2 : c1 + 1 + strlen(c1 + 1)))
		out->glob = strdup("*");
	else
		out->glob = strndup(c1 + 1, (c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1)));
	if (!out->provider || !out->glob) {
		ug_spec__free(out);
		return -ENOMEM;
	}
	if (c2) {
		e = ug_argspec__parse(c2 + 1, &out->args, err, errlen);
		if (e) {
			ug_spec__free(out);
			return e;
		}
	}
	return 0;
}

const char *ug_describe(const char *provider, const char *probe, char *buf, size_t len)
{
	struct ug_argspec a = {};
	const char *spec = ug_known_args(provider, probe);
	char err[128];
	size_t off = 0;
	int i;

	if (!spec || !len)
		return NULL;
	buf[0] = 0;
	if (ug_argspec__parse(spec, &a, err, sizeof(err)))
		return NULL;
	for (i = 0; i < UG_ARGS; i++) {
		int n;

		if (!a.set[i])
			continue;
		n = snprintf(buf + off, len - off, "%s%s:%s", off ? " " : "",
			     a.name[i] ? a.name[i] : "?", type_names[a.type[i]]);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += n;
	}
	ug_argspec__free(&a);
	return buf;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_generic.c - unit tests of collector/sources/usdt_generic.c: the
 * --usdt spec parser, the built-in provider table, UTF-8 -> UTF-16LE, and
 * (as root) a self-attaching run: this binary's own sys/sdt.h probes with
 * NUL-terminated, counted, long (truncated) and UTF-8 strings, 12 arguments
 * and a semaphore, traced through the BPF program into a nettrace file and
 * read back.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "nettrace.h"
#include "usdt_generic.h"
#include "utf16.h"
#include "test.h"

/* sys/sdt.h with _SDT_HAS_SEMAPHORES: every probe has a semaphore; only
 * "sema" is guarded by its own */
#define UG_SEMA(name) __extension__ unsigned short ugtest_##name##_semaphore \
	__attribute__((unused)) __attribute__((section(".probes")))
UG_SEMA(strs);
UG_SEMA(counted);
UG_SEMA(utf);
UG_SEMA(many);
UG_SEMA(sema);

static char long_str[301];
static volatile long sema_fired;

static __attribute__((noinline)) void fire_all(void)
{
	static const char counted[] = "abcdefXYZ";

	STAP_PROBE3(ugtest, strs, "hello", long_str, 7);
	STAP_PROBE2(ugtest, counted, counted, 6);
	STAP_PROBE1(ugtest, utf, "h\xc3\xa9\xf0\x9f\x98\x80!");
	STAP_PROBE12(ugtest, many, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -5L);
	if (ugtest_sema_semaphore) {
		sema_fired++;
		STAP_PROBE1(ugtest, sema, 99);
	}
}

/* ------------------------------------------------------------ parser */

static void test_spec_full(void)
{
	struct ug_spec sp;
	char err[256];

	if (!ASSERT_OK(ug_spec__parse("python:function__*:0=str/filename,arg1=str,2=int",
				      &sp, err, sizeof(err)), "parse"))
		return;
	ASSERT_STREQ(sp.provider, "python", "provider");
	ASSERT_STREQ(sp.glob, "function__*", "glob");
	ASSERT_EQ(sp.args.set[0], 1, "set0");
	ASSERT_EQ(sp.args.type[0], UG_T_STR, "type0");
	ASSERT_STREQ(sp.args.name[0], "filename", "name0");
	ASSERT_EQ(sp.args.type[1], UG_T_STR, "type1 (argN= form)");
	ASSERT_TRUE(sp.args.name[1] == NULL, "name1 default");
	ASSERT_EQ(sp.args.type[2], UG_T_INT, "type2");
	ASSERT_EQ(sp.args.set[3], 0, "set3");
	ug_spec__free(&sp);
}

static void test_spec_defaults(void)
{
	struct ug_spec sp;
	char err[256];

	if (!ASSERT_OK(ug_spec__parse("hotspot", &sp, err, sizeof(err)), "provider only"))
		return;
	ASSERT_STREQ(sp.glob, "*", "glob defaults to *");
	ug_spec__free(&sp);
	if (!ASSERT_OK(ug_spec__parse("hotspot::11=ptr/x", &sp, err, sizeof(err)), "empty glob"))
		return;
	ASSERT_STREQ(sp.glob, "*", "empty glob is *");
	ASSERT_EQ(sp.args.type[11], UG_T_U64, "ptr = u64");
	ASSERT_STREQ(sp.args.name[11], "x", "name11");
	ug_spec__free(&sp);
	if (!ASSERT_OK(ug_spec__parse("postgresql:query__start", &sp, err, sizeof(err)),
		       "no argspec"))
		return;
	ASSERT_EQ(sp.args.set[0], 0, "nothing set");
	ug_spec__free(&sp);
}

static void test_spec_errors(void)
{
	static const char *const bad[] = {
		"", ":x", "py-thon", "a:b:c:d", "p:g:12=int", "p:g:0=string", "p:g:x=int",
		"p:g:0", "p:g:0=int/9bad", "p:g:11=lstr", "p:g:=int", "p:g:0=int/a-b",
	};
	struct ug_spec sp;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ASSERT_EQ(ug_spec__parse(bad[i], &sp, err, sizeof(err)), -EINVAL, bad[i]);
		ASSERT_TRUE(err[0] != 0, "message");
	}
	ug_spec__parse("p:g:12=int", &sp, err, sizeof(err));
	ASSERT_TRUE(strstr(err, "0-based") != NULL, "range message names the numbering");
}

/* Every table entry parses, names are unique, lstr has a following length. */
static void test_known_table(void)
{
	const char *prov, *probe, *args;
	int providers[4] = {};
	char err[256];
	size_t i;

	for (i = 0; (args = ug_known_entry(i, &prov, &probe)); i++) {
		struct ug_argspec a = {};
		int k, j;

		if (!ASSERT_OK(ug_argspec__parse(args, &a, err, sizeof(err)), probe))
			continue;
		for (k = 0; k < UG_ARGS; k++) {
			if (!a.set[k])
				continue;
			ASSERT_TRUE(a.name[k] != NULL, "every table field is named");
			for (j = 0; j < k; j++)
				if (a.name[j] && a.name[k])
					ASSERT_TRUE(strcmp(a.name[j], a.name[k]), "unique names");
			if (k && !a.set[k - 1])
				ASSERT_TRUE(0, "table fields are contiguous from 0");
			if (a.type[k] == UG_T_LSTR)
				ASSERT_TRUE(k + 1 < UG_ARGS && a.set[k + 1] &&
					    a.type[k + 1] == UG_T_INT, "lstr length follows");
		}
		ug_argspec__free(&a);
		providers[0] += !strcmp(prov, "python");
		providers[1] += !strcmp(prov, "hotspot");
		providers[2] += !strcmp(prov, "hotspot_jni");
		providers[3] += !strcmp(prov, "postgresql");
	}
	ASSERT_EQ(providers[0], 12, "python entries");
	ASSERT_EQ(providers[1], 42, "hotspot entries");
	ASSERT_EQ(providers[2], 9, "hotspot_jni entries");
	ASSERT_EQ(providers[3], 57, "postgresql entries");
	ASSERT_STREQ(ug_known_args("python", "function__entry"),
		     "0=str/filename,1=str/funcname,2=int/lineno", "python function__entry");
	ASSERT_STREQ(ug_known_args("hotspot", "gc__begin"), "0=int/is_full", "gc__begin");
	ASSERT_TRUE(ug_known_args("python", "nope") == NULL, "unknown probe");
	ASSERT_TRUE(ug_known_provider("hotspot_jni"), "known provider");
	ASSERT_FALSE(ug_known_provider("myapp"), "unknown provider");
}

static void test_describe(void)
{
	char buf[256];

	ASSERT_STREQ(ug_describe("hotspot", "thread__start", buf, sizeof(buf)),
		     "thread_name:lstr thread_name_len:int java_thread_id:int "
		     "native_thread_id:int is_daemon:int", "thread__start");
	ASSERT_STREQ(ug_describe("hotspot", "gc__end", buf, sizeof(buf)), "", "no args");
	ASSERT_TRUE(ug_describe("x", "y", buf, sizeof(buf)) == NULL, "unknown");
}

static void test_utf16(void)
{
	uint8_t out[64];
	static const uint8_t exp1[] = { 'h', 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde, '!', 0, 0, 0 };
	static const uint8_t exp2[] = { 'a', 0, 0xfd, 0xff, 'b', 0, 0, 0 };
	static const uint8_t exp3[] = { 'a', 0, 0, 0 };
	size_t n;

	n = utf8_to_utf16le("h\xc3\xa9\xf0\x9f\x98\x80!", 8, out);
	ASSERT_EQ(n, sizeof(exp1), "len");
	ASSERT_MEMEQ(out, exp1, sizeof(exp1), "BMP, astral (surrogates), NUL");
	n = utf8_to_utf16le("a\xc3" "b", 3, out);
	ASSERT_EQ(n, sizeof(exp2), "invalid len");
	ASSERT_MEMEQ(out, exp2, sizeof(exp2), "invalid byte -> U+FFFD");
	n = utf8_to_utf16le("a\0b", 3, out);
	ASSERT_MEMEQ(out, exp3, sizeof(exp3), "stops at NUL");
	ASSERT_EQ(n, 4, "len at NUL");
	/* a cut sequence is one maximal invalid subpart: one U+FFFD, as in
	 * every string the project writes (common/utf16.c) */
	n = utf8_to_utf16le("\xe2\x82", 2, out);
	ASSERT_EQ(n, 4, "cut 3-byte sequence: one U+FFFD");
}

/* ------------------------------------------------------------ self-attach */

struct self_ctx {
	struct usdt_generic *ug;
	struct nt_writer *w;
	int err;
};

static int on_rec(void *arg, void *data, size_t len)
{
	struct self_ctx *c = arg;

	if (!c->err) {
		int ret = usdt_generic__emit(c->ug, c->w, data, len);

		c->err = ret < 0 ? ret : 0;
	}
	return 0;
}

/* JSON of every event of the file, one per line */
static char *dump_buf;
static size_t dump_len;

static char *dump_file(const char *path, int *nevents)
{
	struct nt_read_event ev;
	struct nt_reader *r = nt_reader__open(path, NULL);
	FILE *f = open_memstream(&dump_buf, &dump_len);

	*nevents = 0;
	while (r && f && nt_reader__next(r, &ev) == 1) {
		fprintf(f, "%s/%s ", ev.meta->provider, ev.meta->name);
		nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f);
		fputc('\n', f);
		(*nevents)++;
	}
	if (f)
		fclose(f);
	nt_reader__close(r);
	return dump_buf;
}

static void test_self_attach(void)
{
	static const char *const specs[] = {
		"ugtest:strs:0=str/a,1=str/b,2=int/n", "ugtest:counted:0=lstr/s",
		"ugtest:utf:0=str", "ugtest:many", "ugtest:sema",
	};
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .ncpu = 1 };
	char path[] = "/tmp/test_usdt_generic.XXXXXX", exe[PATH_MAX], err[256];
	struct self_ctx c = {};
	struct ring_buffer *rb = NULL;
	struct ug_totals t;
	int rb_fd = -1, fd, n, nev = 0;
	char *json = NULL;
	size_t i;

	if (geteuid())
		TEST_SKIP("needs root (BPF attach)");
	memset(long_str, 'x', 300);
	fd = mkstemp(path);
	close(fd);
	unlink(path);
	c.ug = usdt_generic__new(-1);
	if (!ASSERT_OK_PTR(c.ug, "new"))
		return;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (!ASSERT_OK(usdt_generic__add_spec(c.ug, specs[i], err, sizeof(err)), specs[i]))
			goto out;
	c.w = nt_writer__open(path, &info);
	rb_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, 1 << 20, NULL);
	if (!ASSERT_OK_PTR(c.w, "writer") || !ASSERT_GE(rb_fd, 0, "ringbuf"))
		goto out;
	if (!ASSERT_OK(usdt_generic__load(c.ug, rb_fd, 0, 0), "load"))
		goto out;
	if (!ASSERT_TRUE(realpath("/proc/self/exe", exe), "exe"))
		goto out;
	n = usdt_generic__attach_path(c.ug, getpid(), exe);
	ASSERT_EQ(n, 5, "probes attached");
	ASSERT_EQ(usdt_generic__attach_path(c.ug, getpid(), exe), 0, "second attach: skipped");
	rb = ring_buffer__new(rb_fd, on_rec, &c, NULL);
	if (!ASSERT_OK_PTR(rb, "ring_buffer__new"))
		goto out;
	fire_all();
	fire_all();
	ring_buffer__consume(rb);
	ASSERT_OK(c.err, "emit");
	ASSERT_EQ(sema_fired, 2, "semaphore raised by the kernel");
	ASSERT_EQ(usdt_generic__events(c.ug), 10, "events");
	ASSERT_OK(usdt_generic__read_counters(c.ug, &t), "counters");
	ASSERT_EQ(t.sum.hits, 10, "hits");
	ASSERT_EQ(t.sum.str_truncated, 2 + 0, "the 300-byte string, twice");
	ASSERT_EQ(t.sum.str_faults, 0, "faults");
	ASSERT_EQ(t.sum.rb_drops, 0, "drops");
	ASSERT_OK(nt_writer__close(c.w, NULL, 0), "close");
	c.w = NULL;
	json = dump_file(path, &nev);
	ASSERT_EQ(nev, 10, "events in the file");
	if (!ASSERT_OK_PTR(json, "dump"))
		goto out;
	ASSERT_TRUE(strstr(json, "ugtest/strs {\"a\":\"hello\",\"b\":\"xxxxxxxxxx"), "str");
	{
		/* b is cut at 256 bytes */
		const char *b = strstr(json, "\"b\":\"") + 5;
		size_t xs = strspn(b, "x");

		ASSERT_EQ(xs, 256, "truncated to UG_MAX_STR");
	}
	ASSERT_TRUE(strstr(json, "\"n\":7}"), "int after strings");
	ASSERT_TRUE(strstr(json, "ugtest/counted {\"s\":\"abcdef\",\"arg1\":6}"), "lstr");
	ASSERT_TRUE(strstr(json, "ugtest/many {\"arg0\":1,\"arg1\":2,"), "many");
	ASSERT_TRUE(strstr(json, "\"arg10\":11,\"arg11\":-5}"), "12th argument, signed");
	ASSERT_TRUE(strstr(json, "ugtest/sema {\"arg0\":99}"), "semaphore probe");
	ASSERT_TRUE(strstr(json, "ugtest/utf {\"arg0\":\""), "utf");
out:
	if (!ASSERT_TRUE(!test__cur_failed, "self attach") && json)
		printf("# %s", json);
	free(json);
	ring_buffer__free(rb);
	nt_writer__abort(c.w);
	usdt_generic__free(c.ug);
	if (rb_fd >= 0)
		close(rb_fd);
	unlink(path);
}

int main(void)
{
	libbpf_set_print(NULL);
	RUN(test_spec_full);
	RUN(test_spec_defaults);
	RUN(test_spec_errors);
	RUN(test_known_table);
	RUN(test_describe);
	RUN(test_utf16);
	RUN(test_self_attach);
	return test_summary();
}

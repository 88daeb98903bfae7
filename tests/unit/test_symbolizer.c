// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_symbolizer.c - perf maps (format, growth, reuse in time), ELF
 * symbols of this binary and of libc (checked against dladdr), kallsyms,
 * the safety rules for perf-map files, and the rundown payloads.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "test.h"
#include "kallsyms.h"
#include "elf_syms.h"
#include "rundown.h"
#include "method_name.h"
#include "symbolizer.h"
#include "proc_maps.h"
#include "log.h"
#include "clock.h"

/* ------------------------------------------------ captured warnings */

static char warnings[8192];

static int capture_print(enum log_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(warnings);

	if (level != LOG_WARN)
		return 0;
	return vsnprintf(warnings + len, sizeof(warnings) - len, fmt, ap);
}

static int write_file(const char *path, const char *text, int append)
{
	int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static char tmpdir[] = "/tmp/test_symbolizer.XXXXXX";

/* ------------------------------------------------------- perf maps */

static void test_perf_map_parse_line(void)
{
	uint64_t start, size;
	const char *name;
	size_t len;
	const char *l1 = "00007F3A1C2D4E80 1a3 void [System.Private.CoreLib] System.Threading.Thread::StartCallback()[OptimizedTier1]";
	const char *l2 = "0x00007f3a1c2d0000 0x0000000000000040 Interpreter";
	const char *l3 = "7f3a1c2d4e80 1A3 LazyCompile:~foo /app/x.js:12";

	ASSERT_OK(perf_map__parse_line(l1, strlen(l1), &start, &size, &name, &len), "upper");
	ASSERT_EQ(start, 0x7f3a1c2d4e80ULL, "upper start");
	ASSERT_EQ(size, 0x1a3, "upper size");
	ASSERT_EQ(len, strlen(l1) - 21, "name is the rest of the line");
	ASSERT_TRUE(!strncmp(name, "void [System.Private.CoreLib] System", 36), "name with spaces");
	ASSERT_OK(perf_map__parse_line(l2, strlen(l2), &start, &size, &name, &len), "0x");
	ASSERT_EQ(start, 0x7f3a1c2d0000ULL, "0x start");
	ASSERT_EQ(size, 0x40, "0x size");
	ASSERT_EQ(len, 11, "0x name");
	ASSERT_OK(perf_map__parse_line(l3, strlen(l3), &start, &size, &name, &len), "lower");
	ASSERT_EQ(size, 0x1a3, "mixed case size");
	ASSERT_EQ(len, strlen("LazyCompile:~foo /app/x.js:12"), "v8 name");
	ASSERT_EQ(perf_map__parse_line("1000 10", 7, &start, &size, &name, &len), -EINVAL,
		  "no name");
	ASSERT_EQ(perf_map__parse_line("zz 10 x", 7, &start, &size, &name, &len), -EINVAL,
		  "not hex");
	ASSERT_EQ(perf_map__parse_line("", 0, &start, &size, &name, &len), -EINVAL, "empty");
}

static void test_perf_map_growth(void)
{
	char path[128];
	struct perf_map *pm = NULL;
	const struct range_entry *e;

	snprintf(path, sizeof(path), "%s/perf-growth.map", tmpdir);
	if (!ASSERT_OK(write_file(path,
				  "1000 100 void [App] App.Program::Main(string[])\n"
				  "0x2000 0X80 int32 [App] App.Program::Fib(int32)[OptimizedTier1]\n"
				  "3000 4", 0), "write"))
		return;
	pm = perf_map__open_trusted(path);
	if (!ASSERT_OK_PTR(pm, "open"))
		return;
	ASSERT_EQ(perf_map__refresh(pm, 10), 2, "two whole lines");
	e = perf_map__find(pm, 0x1050, SYM_TS_NONE);
	ASSERT_OK_PTR(e, "main");
	if (e)
		ASSERT_STREQ(e->name, "void [App] App.Program::Main(string[])", "main name");
	e = perf_map__find(pm, 0x207f, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "fib last byte"))
		ASSERT_STREQ(e->name, "int32 [App] App.Program::Fib(int32)[OptimizedTier1]", "fib");
	ASSERT_TRUE(perf_map__find(pm, 0x2080, SYM_TS_NONE) == NULL, "one past fib");
	ASSERT_TRUE(perf_map__find(pm, 0x3010, SYM_TS_NONE) == NULL, "partial line ignored");
	/* the runtime finishes the line and appends another: a miss re-reads */
	ASSERT_OK(write_file(path, "0 void [App] App.Worker::Run()\n"
				   "4000 20 stub<1> AllocateTemporaryEntryPoints<PRECODE_STUB>\n", 1),
		  "append");
	e = perf_map__find(pm, 0x3010, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "completed line"))
		ASSERT_STREQ(e->name, "void [App] App.Worker::Run()", "completed name");
	e = perf_map__find(pm, 0x4000, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "appended"))
		ASSERT_STREQ(e->name, "stub<1> AllocateTemporaryEntryPoints<PRECODE_STUB>", "stub");
	ASSERT_EQ(range_table__count(perf_map__table(pm)), 4, "entries");
	ASSERT_EQ(perf_map__bad_lines(pm), 0, "bad lines");
	perf_map__free(pm);
	unlink(path);
}

/* A runtime asked for its map again truncates the file and writes it
 * anew: shorter than what was read, or grown past it, it is read from its
 * start; what was read before stays. */
static void test_perf_map_rewritten(void)
{
	char path[128];
	struct perf_map *pm = NULL;
	const struct range_entry *e;

	snprintf(path, sizeof(path), "%s/perf-rewritten.map", tmpdir);
	if (!ASSERT_OK(write_file(path,
				  "1000 10 void [Old] Old::LongerNameOne()\n"
				  "2000 10 void [Old] Old::LongerNameTwo()\n"
				  "3000 10 void [Old] Old::LongerNameThree()\n", 0), "write"))
		return;
	pm = perf_map__open_trusted(path);
	if (!ASSERT_OK_PTR(pm, "open"))
		return;
	ASSERT_EQ(perf_map__refresh(pm, 10), 3, "three lines");
	/* shorter: the offset read to lies past its end */
	ASSERT_OK(write_file(path, "5000 10 void [New] N::A()\n", 0), "shorter");
	e = perf_map__find(pm, 0x5004, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "after a shorter rewrite"))
		ASSERT_STREQ(e->name, "void [New] N::A()", "shorter's name");
	/* longer than all read so far: the byte before the offset ends no line */
	ASSERT_OK(write_file(path,
			     "6000 10 void [New] N::B()\n"
			     "7000 10 void [New] N::WithAMuchLongerNameThanBefore()\n", 0),
		  "longer");
	e = perf_map__find(pm, 0x7004, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "after a longer rewrite"))
		ASSERT_STREQ(e->name, "void [New] N::WithAMuchLongerNameThanBefore()", "longer's");
	e = perf_map__find(pm, 0x6004, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "its first line"))
		ASSERT_STREQ(e->name, "void [New] N::B()", "first line's");
	ASSERT_OK_PTR(perf_map__find(pm, 0x1004, SYM_TS_NONE), "read before, kept");
	ASSERT_EQ(perf_map__bad_lines(pm), 0, "no half line read");
	perf_map__free(pm);
	unlink(path);
}

/* A huge map is read a bounded slice per refresh; a map whose line never
 * ends (a sparse file's NULs) is refused after 64 KiB, its entries kept. */
static void test_perf_map_bounded(void)
{
	const char *first = "1000 10 void [A] A::First()\n2000 10 void [A] A::Second()\n";
	char path[128], line[64];
	struct perf_map *pm = NULL;
	struct perfinfo_image *img = NULL;
	long n, total = 0, lines = 200000;
	FILE *f;
	int fd, passes = 0;

	snprintf(path, sizeof(path), "%s/perf-big.map", tmpdir);
	f = fopen(path, "w");
	if (!ASSERT_OK_PTR(f, "create"))
		return;
	for (long i = 0; i < lines; i++) {
		snprintf(line, sizeof(line), "%lx 10 void [Big] Big.Type::Method%06ld()\n",
			 0x100000 + i * 0x10, i);
		fputs(line, f);
	}
	fclose(f);	/* 200000 lines of 45 bytes: 9 MB, more than one pass */
	pm = perf_map__open_trusted(path);
	if (!ASSERT_OK_PTR(pm, "open big"))
		return;
	while ((n = perf_map__refresh(pm, 10)) > 0 && passes < 10) {
		total += n;
		passes++;
	}
	ASSERT_EQ(n, 0, "nothing left");
	ASSERT_EQ(passes, 2, "two bounded passes");
	ASSERT_EQ(total, lines, "every line");
	ASSERT_EQ(perf_map__bad_lines(pm), 0, "bad lines");
	perf_map__free(pm);

	/* two lines, then 1 GiB of NULs (sparse) */
	ASSERT_OK(write_file(path, first, 0), "write");
	ASSERT_OK(truncate(path, 1L << 30), "truncate");
	pm = perf_map__open_trusted(path);
	if (!ASSERT_OK_PTR(pm, "open sparse"))
		return;
	ASSERT_TRUE(perf_map__refused(pm) == NULL, "not refused before reading");
	ASSERT_EQ(perf_map__refresh(pm, 10), -E2BIG, "refused");
	if (ASSERT_OK_PTR(perf_map__refused(pm), "why"))
		ASSERT_STREQ(perf_map__refused(pm),
			     "has a line of more than 64 KiB at offset 57 (refused)", "why");
	ASSERT_EQ(range_table__count(perf_map__table(pm)), 2, "entries before it kept");
	ASSERT_OK_PTR(perf_map__find(pm, 0x2005, SYM_TS_NONE), "second entry");
	ASSERT_EQ(perf_map__refresh(pm, 10), 0, "never read again");
	perf_map__free(pm);

	/* perfinfo: the same shape is read up to the endless line, not through
	 * 1 GiB (getline would have held it all in memory) */
	ASSERT_OK(write_file(path, "ImageLoad;/app/A.dll;{guid};0x7f00;\n", 0), "write perfinfo");
	ASSERT_OK(truncate(path, 1L << 30), "truncate perfinfo");
	fd = open(path, O_RDONLY);
	n = perfinfo__parse(fd, &img);
	ASSERT_TRUE(n >= 0, "perfinfo parsed");
	perfinfo__free(img, (int)n);
	close(fd);
	unlink(path);
}

static char self_map[64];

/* A map bigger than one bounded pass whose last lines reuse a range named
 * near its start (JIT code freed and reused before the tracer came): the
 * lines the first pass left were in the file then, so a lookup reads them
 * before answering and they count as seen at that first pass; a line
 * appended after it is seen later. */
static void test_perf_map_pass_left_lines(void)
{
	long i, lines = 200000;
	size_t len = (size_t)lines * 0x10;
	void *code = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  -1, 0);
	uint64_t base = (uint64_t)(uintptr_t)code, t;
	const struct range_entry *e;
	struct symbolizer *s;
	struct perf_map *pm;
	struct sym_info si;
	char line[96];
	FILE *f;

	if (!ASSERT_TRUE(code != MAP_FAILED, "mmap"))
		return;
	f = fopen(self_map, "w");
	if (!ASSERT_OK_PTR(f, "create"))
		return;
	for (i = 0; i < lines; i++)
		fprintf(f, "%016llX 10 void [Big] Big.Type::Method%06ld()\n",
			(unsigned long long)(base + (uint64_t)(i % (lines - 1)) * 0x10), i);
	fclose(f);	/* 200000 lines of 52 bytes: the last reuses the first's range */

	s = symbolizer__new(NULL);
	ASSERT_OK(symbolizer__add_pid(s, getpid()), "add");
	t = mono_ns();
	ASSERT_OK(symbolizer__resolve(s, getpid(), base + 4, SYM_TS_NONE, &si), "newest");
	ASSERT_STREQ(si.name, "void [Big] Big.Type::Method199999()", "newest: the last line");
	ASSERT_OK(symbolizer__resolve(s, getpid(), base + 4, t, &si), "at a time");
	ASSERT_STREQ(si.name, "void [Big] Big.Type::Method199999()", "at a time: the last line");
	symbolizer__free(s);

	pm = perf_map__open_trusted(self_map);
	if (!ASSERT_OK_PTR(pm, "open"))
		goto out;
	ASSERT_TRUE(perf_map__refresh(pm, 10) > 0, "first pass");
	ASSERT_TRUE(perf_map__pending(pm), "lines left");
	snprintf(line, sizeof(line), "%llx 10 void [Big] Big.Type::Appended()\n",
		 (unsigned long long)base + 0x20);
	ASSERT_OK(write_file(self_map, line, 1), "append");
	ASSERT_TRUE(perf_map__refresh(pm, 20) > 0, "the rest");
	ASSERT_TRUE(!perf_map__pending(pm), "caught up");
	ASSERT_EQ(perf_map__refresh(pm, 30), 1, "the appended line");
	e = perf_map__find(pm, base + 0x24, 25);
	if (ASSERT_OK_PTR(e, "before the append"))
		ASSERT_STREQ(e->name, "void [Big] Big.Type::Method000002()", "the first pass's");
	e = perf_map__find(pm, base + 0x24, 35);
	if (ASSERT_OK_PTR(e, "after the append"))
		ASSERT_STREQ(e->name, "void [Big] Big.Type::Appended()", "appended");
	e = perf_map__find(pm, base + 4, 15);
	if (ASSERT_OK_PTR(e, "left by the first pass"))
		ASSERT_STREQ(e->name, "void [Big] Big.Type::Method199999()", "seen at 10");
	perf_map__free(pm);
out:
	unlink(self_map);
	munmap(code, len);
}

static void test_perf_map_reuse_by_time(void)
{
	char path[128];
	struct perf_map *pm = NULL;
	const struct range_entry *e;

	snprintf(path, sizeof(path), "%s/perf-reuse.map", tmpdir);
	ASSERT_OK(write_file(path, "7f0000001000 100 void [A] A::Old()\n", 0), "write");
	pm = perf_map__open_trusted(path);
	if (!ASSERT_OK_PTR(pm, "open"))
		return;
	ASSERT_EQ(perf_map__refresh(pm, 100), 1, "first");
	/* unloaded, and the range reused by another method (and a re-JIT
	 * overlapping it partly) */
	ASSERT_OK(write_file(path, "7f0000001000 80 void [B] B::New()\n"
				   "7f0000001040 100 void [A] A::Old()[OptimizedTier1]\n", 1),
		  "append");
	ASSERT_EQ(perf_map__refresh(pm, 200), 2, "second");
	e = perf_map__find(pm, 0x7f0000001010, 150);
	if (ASSERT_OK_PTR(e, "t=150"))
		ASSERT_STREQ(e->name, "void [A] A::Old()", "live at 150");
	e = perf_map__find(pm, 0x7f0000001010, 250);
	if (ASSERT_OK_PTR(e, "t=250"))
		ASSERT_STREQ(e->name, "void [B] B::New()", "live at 250");
	e = perf_map__find(pm, 0x7f0000001010, SYM_TS_NONE);
	if (ASSERT_OK_PTR(e, "no time"))
		ASSERT_STREQ(e->name, "void [B] B::New()", "newest wins without time");
	e = perf_map__find(pm, 0x7f0000001050, 250);
	if (ASSERT_OK_PTR(e, "overlap t=250"))
		ASSERT_STREQ(e->name, "void [A] A::Old()[OptimizedTier1]", "newest overlapping");
	e = perf_map__find(pm, 0x7f00000010f0, 150);
	if (ASSERT_OK_PTR(e, "old tail t=150"))
		ASSERT_STREQ(e->name, "void [A] A::Old()", "old tail at 150");
	e = perf_map__find(pm, 0x7f0000001010, 50);
	if (ASSERT_OK_PTR(e, "before first seen"))
		ASSERT_STREQ(e->name, "void [A] A::Old()", "earliest when all are later");
	/* an unload event at 180 ends A::Old even for lookups by line order */
	ASSERT_GE(range_table__unload(perf_map__table(pm), 0x7f0000001000, 180), 0, "unload");
	e = perf_map__find(pm, 0x7f00000010f0, 190);
	ASSERT_TRUE(e && !strcmp(e->name, "void [A] A::Old()[OptimizedTier1]"), "unloaded at 190");
	perf_map__free(pm);
	unlink(path);
}

static void test_range_table_methods(void)
{
	struct range_table *rt = range_table__new();
	const struct range_entry *e;
	int i;

	if (!ASSERT_OK_PTR(rt, "new"))
		return;
	/* load A at 100, unload at 150, C reuses the range at 160, re-JIT of C at 300 */
	range_table__add(rt, 0x5000, 0x40, "A", 1, 100);
	ASSERT_GE(range_table__unload(rt, 0x5000, 150), 0, "unload A");
	range_table__add(rt, 0x5000, 0x20, "C", 1, 160);
	range_table__add(rt, 0x9000, 0x20, "C'", 2, 300);
	e = range_table__find(rt, 0x5010, 120);
	ASSERT_TRUE(e && !strcmp(e->name, "A"), "A at 120");
	e = range_table__find(rt, 0x5010, 170);
	ASSERT_TRUE(e && !strcmp(e->name, "C"), "C at 170");
	/* nothing live covers A's tail at 170: the last resort is the newest
	 * entry that ever did (a sample racing the unload event) */
	e = range_table__find(rt, 0x5030, 170);
	ASSERT_TRUE(e && !strcmp(e->name, "A"), "A's tail at 170: last resort");
	e = range_table__find(rt, 0x9000, 400);
	ASSERT_TRUE(e && !strcmp(e->name, "C'"), "re-JIT at 400");
	/* a horizon drops what ended before it, and changes no live answer */
	for (i = 0; i < 300; i++) {
		char n[16];

		snprintf(n, sizeof(n), "r%d", i);
		range_table__add(rt, 0x20000, 0x80, n, strlen(n), 1000 + (uint64_t)i * 10);
		if (i)
			range_table__unload(rt, 0x20000, 1000 + (uint64_t)i * 10 - 1);
	}
	e = range_table__find(rt, 0x20010, 1000 + 150 * 10 + 5);
	ASSERT_TRUE(e && !strcmp(e->name, "r150"), "r150 before the horizon");
	range_table__set_horizon(rt, 1000 + 299 * 10);
	e = range_table__find(rt, 0x20010, 1000 + 299 * 10 + 5);
	ASSERT_TRUE(e && !strcmp(e->name, "r299"), "r299 after the horizon");
	e = range_table__find(rt, 0x20010, 1000 + 299 * 10 + 500);
	ASSERT_TRUE(e && !strcmp(e->name, "r299"), "still r299 later");
	e = range_table__find(rt, 0x1ffff, 5000);
	ASSERT_TRUE(e == NULL, "nothing below");
	/* many entries, added in random order, found exactly */
	for (i = 0; i < 5000; i++) {
		char n[16];
		uint64_t k = (uint64_t)((i * 7919) % 5000);

		snprintf(n, sizeof(n), "m%llu", (unsigned long long)k);
		range_table__add(rt, 0x100000 + k * 0x100, 0x100, n, strlen(n), 1000);
	}
	for (i = 0; i < 5000; i += 37) {
		char n[16];

		snprintf(n, sizeof(n), "m%d", i);
		e = range_table__find(rt, 0x100000 + (uint64_t)i * 0x100 + 0xff, 2000);
		if (!ASSERT_TRUE(e && !strcmp(e->name, n), "bulk"))
			break;
	}
	range_table__free(rt);
}

/* What the horizon passed is no answer, not even the last resort, whether
 * or not a merge has dropped it yet; an unload finds its entry in the
 * unmerged tail as in the index, and a table that is only unloaded from
 * keeps answering. */
static void test_range_table_horizon_tail(void)
{
	struct range_table *rt = range_table__new();
	const struct range_entry *e;
	int i;

	if (!ASSERT_OK_PTR(rt, "new"))
		return;
	for (i = 0; i < 1000; i++) {
		char n[16];

		snprintf(n, sizeof(n), "m%d", i);
		range_table__add(rt, 0x100000 + (uint64_t)i * 0x100, 0x80, n, strlen(n), 10);
	}
	ASSERT_OK_PTR(range_table__find(rt, 0x100000, 20), "merged");
	range_table__add(rt, 0x5000, 0x40, "A", 1, 10);		/* in the tail */
	ASSERT_EQ(range_table__unload(rt, 0x5000, 20), 1000, "unload in the tail");
	ASSERT_EQ(range_table__unload(rt, 0x100200, 20), 2, "unload in the index");
	ASSERT_EQ(range_table__unload(rt, 0x100200, 25), -ENOENT, "unloaded already");
	e = range_table__find(rt, 0x5010, 30);
	ASSERT_TRUE(e && !strcmp(e->name, "A"), "last resort before the horizon");
	range_table__set_horizon(rt, 30);
	ASSERT_TRUE(range_table__find(rt, 0x5010, 30) == NULL, "tail entry past the horizon");
	ASSERT_TRUE(range_table__find(rt, 0x100210, 30) == NULL, "index entry past the horizon");
	for (i = 0; i < 2000; i++)	/* merges drop them for good */
		range_table__add(rt, 0x900000 + (uint64_t)i * 0x100, 0x80, "x", 1, 40);
	ASSERT_TRUE(range_table__find(rt, 0x5010, 50) == NULL, "dropped");
	e = range_table__find(rt, 0x100310, 50);
	ASSERT_TRUE(e && !strcmp(e->name, "m3"), "its neighbour stays");
	ASSERT_EQ(range_table__count(rt), 3001, "entries are freed only past the horizon");
	range_table__set_horizon(rt, 31);	/* 2,000 adds since: a sweep */
	ASSERT_EQ(range_table__count(rt), 2999, "the two unloaded before it freed");
	ASSERT_TRUE(range_table__entry(rt, 2) == NULL, "a freed entry has no index");
	ASSERT_EQ(range_table__add(rt, 0x5000, 0x40, "B", 1, 40) == 2 ||
		  range_table__entry(rt, 1000) == NULL, 1, "its place is taken again");
	e = range_table__find(rt, 0x100310, 50);
	ASSERT_TRUE(e && !strcmp(e->name, "m3"), "the rest stays");
	range_table__free(rt);
}

/* The lookup rules written out plainly over every live entry (those
 * unloaded at or before the horizon take no part): the model the index must
 * match. */
static const struct range_entry *model_find(struct range_table *rt, uint64_t addr, uint64_t ts,
					    int live_only, uint64_t horizon)
{
	const struct range_entry *live = NULL, *early = NULL, *any = NULL;

	for (size_t k = 0; k < range_table__extent(rt); k++) {
		const struct range_entry *c = range_table__entry(rt, k);
		uint64_t cu, lu;

		if (!c || addr < c->start || addr >= c->end ||
		    (horizon && c->unload_ts && c->unload_ts <= horizon))
			continue;
		cu = c->unload_ts ? c->unload_ts : UINT64_MAX;
		if (!any || c->seq > any->seq)
			any = c;
		if (ts == SYM_TS_NONE || cu <= ts)
			continue;
		if (c->load_ts > ts) {
			if (!early || c->seq < early->seq)
				early = c;
			continue;
		}
		lu = live && live->unload_ts ? live->unload_ts : UINT64_MAX;
		if (!live || c->load_ts > live->load_ts ||
		    (c->load_ts == live->load_ts && (cu < lu || (cu == lu && c->seq > live->seq))))
			live = c;
	}
	if (ts == SYM_TS_NONE)
		return any;
	if (live || live_only)
		return live;
	return early ? early : any;
}

/* A live entry of a table that has one, picked by r. */
static const struct range_entry *random_live(struct range_table *rt, uint64_t r)
{
	size_t ext = range_table__extent(rt), k = (r >> 8) % ext;
	const struct range_entry *c;

	while (!(c = range_table__entry(rt, k)))
		k = (k + 1) % ext;
	return c;
}

/* Random loads, unloads, overlaps and huge ranges, lookups between them
 * (unindexed tails, reindexes): every answer is the model's.  With a
 * horizon that follows the clock 300 behind (a flight window), the same,
 * and the table holds the window's entries, not every one ever added. */
static void range_table_model(int with_horizon)
{
	struct range_table *rt = range_table__new();
	uint64_t x = 0x2545f4914f6cdd1dULL, base = 0x7f0000000000ULL, horizon = 0;
	size_t most = 0, added = 0;
	int i, bad = 0;

	if (!ASSERT_OK_PTR(rt, "new"))
		return;
	for (i = 0; i < 20000 && bad < 5; i++) {
		uint64_t r, addr, ts;
		int live_only;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r = x;
		if (with_horizon && i > 300 && i % 97 == 0) {
			horizon = (uint64_t)i - 300;
			range_table__set_horizon(rt, horizon);
			most = range_table__count(rt) > most ? range_table__count(rt) : most;
		}
		/* phases of changes and of lookups, so that lookups also meet
		 * a fully indexed table */
		if ((i / 500) % 2 && r % 16)
			r = r / 8 * 8 + 4;
		else if (!((i / 500) % 2))
			r = r / 8 * 8 + r % 4;
		if (r % 8 < 3) {	/* add: mostly apart, some overlapping, a few huge */
			uint64_t start = base + (r >> 8) % 0x400000;
			uint64_t size = 1 + (r >> 40) % 0x300;

			if (i > 10000 && r % 211 == 0) {	/* at the top, later */
				start = base + 0x3f8000 + (r >> 8) % 0x1000;
				size = 1ULL << 33;
			}

			range_table__add(rt, start, size, "m", 1, (r >> 20) % 4 ? i : 0);
			added++;
			if (with_horizon && (r >> 50) % 8)	/* churn: most code goes again */
				range_table__unload(rt, random_live(rt, r)->start, i + (r >> 30) % 50);
			continue;
		}
		if (r % 8 == 3 && range_table__count(rt)) {
			range_table__unload(rt, random_live(rt, r)->start, i + (r >> 30) % 50);
			continue;
		}
		addr = base - 0x100 + (r >> 8) % 0x404000;
		if (r % 13 == 0)	/* past 4 GiB into the huge ones */
			addr = base + 0x3f8000 + (1ULL << 32) + (r >> 8) % 0x2000;
		ts = r % 5 == 0 ? SYM_TS_NONE : (uint64_t)((r >> 32) % (i + 100));
		if (horizon && ts != SYM_TS_NONE)
			ts = horizon + (r >> 32) % 400;
		live_only = (r >> 16) & 1;
		if (range_table__find_mode(rt, addr, ts, live_only) !=
		    model_find(rt, addr, ts, live_only, horizon)) {
			bad++;
			fprintf(stdout, "#   addr 0x%llx ts %llu live_only %d: not the model's\n",
				(unsigned long long)addr, (unsigned long long)ts, live_only);
		}
	}
	ASSERT_EQ(bad, 0, "answers that differ from the model");
	if (with_horizon) {
		fprintf(stdout, "#   %zu added, at most %zu held, %zu at the end, extent %zu\n",
			added, most, range_table__count(rt), range_table__extent(rt));
		ASSERT_TRUE(most * 2 < added, "the table holds far fewer than were added");
		ASSERT_TRUE(range_table__extent(rt) * 2 < added, "freed places are taken again");
	}
	range_table__free(rt);
}

static void test_range_table_model(void)
{
	range_table_model(0);
}

static void test_range_table_model_horizon(void)
{
	range_table_model(1);
}

/* --------------------------------------------------------- ELF, libc */

__attribute__((noinline)) int test_symbolizer_probe_fn(int x)
{
	return x * 3 + 1;
}

static void test_elf_self_and_libc(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	struct sym_info si;
	char exe[4096], buf[256];
	ssize_t n;
	Dl_info dl;
	void *qs = dlsym(RTLD_DEFAULT, "qsort");
	uint64_t addr;

	if (!ASSERT_OK_PTR(s, "new"))
		return;
	ASSERT_OK(symbolizer__add_pid(s, getpid()), "add self");
	addr = (uint64_t)(uintptr_t)&test_symbolizer_probe_fn + 3;
	ASSERT_OK(symbolizer__resolve(s, getpid(), addr, SYM_TS_NONE, &si), "resolve self");
	ASSERT_EQ(si.kind, SYM_KIND_NATIVE, "native");
	ASSERT_STREQ(si.name, "test_symbolizer_probe_fn", "own function");
	ASSERT_EQ(si.start, (uint64_t)(uintptr_t)&test_symbolizer_probe_fn, "own start");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	ASSERT_STREQ(si.module, exe, "module is the executable");
	/* libc: same answer as dladdr */
	if (!ASSERT_OK_PTR(qs, "dlsym qsort"))
		goto out;
	addr = (uint64_t)(uintptr_t)qs + 5;
	if (!ASSERT_TRUE(dladdr((void *)(uintptr_t)addr, &dl) && dl.dli_sname, "dladdr"))
		goto out;
	ASSERT_OK(symbolizer__resolve(s, getpid(), addr, SYM_TS_NONE, &si), "resolve libc");
	ASSERT_STREQ(si.name, dl.dli_sname, "same name as dladdr");
	ASSERT_EQ(si.start, (uint64_t)(uintptr_t)dl.dli_saddr, "same start as dladdr");
	ASSERT_STREQ(sym_basename(si.module), sym_basename(dl.dli_fname), "same file as dladdr");
	sym_info__format(&si, buf, sizeof(buf));
	ASSERT_TRUE(!strncmp(buf, "libc.so.6!", 10), "formatted module!name");
	/* a libc address past every symbol of the mapping keeps the module */
	memset(&si, 0, sizeof(si));
	si.kind = SYM_KIND_NATIVE;
	si.module = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	sym_info__format(&si, buf, sizeof(buf));
	ASSERT_STREQ(buf, "libc.so.6![unknown]", "unknown with module");
	si.module = NULL;
	sym_info__format(&si, buf, sizeof(buf));
	ASSERT_STREQ(buf, "[unknown]", "unknown");
out:
	symbolizer__free(s);
}

/* A function only .symtab knows (static: not exported even with -rdynamic). */
static __attribute__((noinline)) int static_only_in_symtab(int x)
{
	return x * 7 + 3;
}

static __attribute__((format(printf, 1, 2))) int run_cmd(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* A stripped copy of this binary finds its symbols in a separate debug file,
 * by .gnu_debuglink (next to it) and by build-id (under a debug root). */
static void test_elf_debug_files(void)
{
	char exe[4096], stripped[256], dbg[256], bid_dir[512], bid_file[600], root[256];
	const struct elf_sym *sym;
	struct elf_syms *es;
	Dl_info dl;
	uint64_t vaddr;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd;

	if (system("command -v objcopy >/dev/null && command -v strip >/dev/null"))
		TEST_SKIP("needs objcopy and strip (binutils)");
	exe[n > 0 ? n : 0] = '\0';
	snprintf(stripped, sizeof(stripped), "%s/stripped", tmpdir);
	snprintf(dbg, sizeof(dbg), "%s/stripped.dbg", tmpdir);
	if (!ASSERT_OK(run_cmd("objcopy --only-keep-debug '%s' '%s' && strip -o '%s' '%s'",
			       exe, dbg, stripped, exe), "strip") ||
	    !ASSERT_OK(run_cmd("cd '%s' && objcopy --add-gnu-debuglink=stripped.dbg '%s' '%s.linked'",
			       tmpdir, stripped, stripped), "add debuglink"))
		return;
	snprintf(stripped, sizeof(stripped), "%s/stripped.linked", tmpdir);
	/* vaddr of static_only_in_symtab: runtime address minus the load base */
	if (!ASSERT_TRUE(dladdr((void *)(uintptr_t)&static_only_in_symtab, &dl), "dladdr"))
		return;
	vaddr = (uint64_t)(uintptr_t)&static_only_in_symtab - (uint64_t)(uintptr_t)dl.dli_fbase;
	fd = open(stripped, O_RDONLY);
	es = elf_syms__load(fd, stripped, NULL);
	if (ASSERT_OK_PTR(es, "load via debuglink")) {
		ASSERT_STREQ(elf_syms__debug_file(es), dbg, "debug file by debuglink");
		sym = elf_syms__find(es, vaddr + 2);
		ASSERT_TRUE(sym && !strcmp(sym->name, "static_only_in_symtab"), "static via debuglink");
		ASSERT_TRUE(elf_syms__build_id(es)[0] != '\0', "build-id read");
		/* by build-id under a debug root (no debuglink match there) */
		snprintf(root, sizeof(root), "%s/root", tmpdir);
		snprintf(bid_dir, sizeof(bid_dir), "%s/usr/lib/debug/.build-id/%.2s", root,
			 elf_syms__build_id(es));
		snprintf(bid_file, sizeof(bid_file), "%s/%s.debug", bid_dir, elf_syms__build_id(es) + 2);
		ASSERT_OK(run_cmd("mkdir -p '%s' && mv '%s' '%s'", bid_dir, dbg, bid_file), "place");
		elf_syms__free(es);
		es = elf_syms__load(fd, stripped, root);
		if (ASSERT_OK_PTR(es, "load via build-id")) {
			ASSERT_STREQ(elf_syms__debug_file(es), bid_file, "debug file by build-id");
			sym = elf_syms__find(es, vaddr + 2);
			ASSERT_TRUE(sym && !strcmp(sym->name, "static_only_in_symtab"),
				    "static via build-id");
		}
		/* no debug file at all: .dynsym only, the static function is unknown */
		unlink(bid_file);
		elf_syms__free(es);
		es = elf_syms__load(fd, stripped, root);
		if (ASSERT_OK_PTR(es, "load dynsym only")) {
			ASSERT_TRUE(elf_syms__debug_file(es) == NULL, "no debug file");
			sym = elf_syms__find(es, vaddr + 2);
			ASSERT_TRUE(!sym || strcmp(sym->name, "static_only_in_symtab"),
				    "not in .dynsym");
		}
	}
	ASSERT_EQ(static_only_in_symtab(1), 10, "keep it");
	elf_syms__free(es);
	close(fd);
	run_cmd("rm -rf '%s/root' '%s'/stripped*", tmpdir, tmpdir);
}

/* -------------------------------------------------------------- kernel */

static void test_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], pick[256] = "";
	unsigned long long addr, pick_addr = 0;
	char type;
	struct ksyms *ks;
	const struct elf_sym *sym;
	const char *mod = NULL;
	int aliases = 0;
	struct symbolizer *s;
	struct sym_info si;

	if (!f)
		TEST_SKIP("no /proc/kallsyms");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!pick_addr && (type == 'T' || type == 't') && !strcmp(name, "schedule")) {
			pick_addr = addr;
			snprintf(pick, sizeof(pick), "%s", name);
		}
	}
	if (pick_addr) {
		rewind(f);
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
			    addr == pick_addr && strchr("tTwW", type))
				aliases++;
	}
	fclose(f);
	if (!pick_addr)
		TEST_SKIP("kallsyms addresses are hidden (not root or kptr_restrict)");
	ks = ksyms__load(NULL);
	if (!ASSERT_OK_PTR(ks, "load"))
		return;
	ASSERT_GE(ksyms__count(ks), 1000, "many symbols");
	sym = ksyms__find(ks, pick_addr + 1, &mod);
	if (ASSERT_OK_PTR(sym, "find")) {
		ASSERT_EQ(sym->start, pick_addr, "start");
		if (aliases == 1)
			ASSERT_STREQ(sym->name, pick, "name");
		ASSERT_STREQ(mod, "[kernel.kallsyms]", "module");
	}
	ksyms__free(ks);
	s = symbolizer__new(NULL);
	ASSERT_OK(symbolizer__resolve(s, getpid(), pick_addr + 1, SYM_TS_NONE, &si), "resolve");
	ASSERT_EQ(si.kind, SYM_KIND_KERNEL, "kernel kind");
	ASSERT_EQ(si.start, pick_addr, "resolve start");
	symbolizer__free(s);
}

static void test_kallsyms_zero(void)
{
	char path[128];
	log_print_fn old;

	snprintf(path, sizeof(path), "%s/kallsyms0", tmpdir);
	write_file(path, "0000000000000000 T _text\n0000000000000000 t foo\n", 0);
	warnings[0] = '\0';
	old = log_set_print(capture_print);
	ASSERT_TRUE(ksyms__load(path) == NULL && errno == EPERM, "all-zero refused");
	log_set_print(old);
	ASSERT_TRUE(strstr(warnings, "all 2 addresses read as 0") != NULL, "reported");
	unlink(path);
}

/* ------------------------------------------------------------ safety */


/* A map older than the process is an earlier process's of the same pid:
 * not read; once the process writes the file anew, it is. */
static void test_perf_map_earlier_process(void)
{
	size_t len = 1 << 12;
	void *code = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct timespec old[2];
	struct symbolizer *s = NULL;
	struct sym_info si;
	char line[256];

	if (!ASSERT_TRUE(code != MAP_FAILED, "mmap"))
		return;
	snprintf(line, sizeof(line), "%llx 80 void [Old] Earlier::Process()\n",
		 (unsigned long long)(uintptr_t)code);
	ASSERT_OK(write_file(self_map, line, 0), "write map");
	clock_gettime(CLOCK_REALTIME, &old[0]);
	old[0].tv_sec -= 3600;
	old[1] = old[0];
	ASSERT_OK(utimensat(AT_FDCWD, self_map, old, 0), "an hour old");
	s = symbolizer__new(NULL);
	ASSERT_OK(symbolizer__add_pid(s, getpid()), "add");
	ASSERT_TRUE(symbolizer__perf_map(s, getpid()) == NULL, "not this process's map");
	ASSERT_EQ(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 4, 0, &si),
		  -ENOENT, "its name unused");
	snprintf(line, sizeof(line), "%llx 80 void [New] This::Process()\n",
		 (unsigned long long)(uintptr_t)code);
	ASSERT_OK(write_file(self_map, line, 0), "written anew");
	for (int i = 0; i < 100 && !symbolizer__perf_map(s, getpid()); i++) {
		usleep(20000);	/* looked for again after 100 ms */
		symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 4, 0, &si);
	}
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 4, 0, &si),
		  "resolve");
	ASSERT_STREQ(si.name, "void [New] This::Process()", "this process's name");
	symbolizer__free(s);
	unlink(self_map);
	munmap(code, len);
}

/* A process that writes no perf map is looked at less and less often by
 * the periodic refresh (0.1 s, 0.2 s, 0.4 s ...), and at once again after
 * an exec, whose new image may be a runtime that writes one. */
static void test_perf_map_search_backoff(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	struct symbolizer_stats st = { 0 };
	uint64_t start, took;
	int calls = 0;

	unlink(self_map);
	if (!ASSERT_OK(symbolizer__add_pid(s, getpid()), "add"))
		goto out;
	/* a collector's ticks, until the fourth search (at most 10 s) */
	start = mono_ns();
	while (st.perf_map_searches < 4 && mono_ns() - start < 10000000000ULL) {
		symbolizer__refresh_perf_map(s, getpid(), 0);
		symbolizer__stats(s, &st);
		calls++;
		usleep(10000);
	}
	took = mono_ns() - start;
	printf("# 4 searches in %d refreshes, %.2f s\n", calls, took / 1e9);
	ASSERT_EQ(st.perf_map_searches, 4, "searched again");
	/* at the add, then 0.1, 0.2 and 0.4 s after each: never one a tick */
	ASSERT_TRUE(took >= 700000000ULL, "backed off");
	ASSERT_OK(write_file(self_map, "1000 10 After::Exec()\n", 0), "write map");
	ASSERT_OK(symbolizer__exec(s, getpid()), "exec");
	ASSERT_TRUE(symbolizer__perf_map(s, getpid()) != NULL, "found at the exec");
out:
	symbolizer__free(s);
	unlink(self_map);
}

static void test_perf_map_jit_lookup(void)
{
	size_t len = 1 << 16;
	void *code = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct symbolizer *s = NULL;
	struct symbolizer_stats st;
	struct sym_info si;
	char line[256];

	if (!ASSERT_TRUE(code != MAP_FAILED, "mmap"))
		return;
	snprintf(line, sizeof(line), "%016llX 80 void [Jit] Jit.Code::Hot(int32)[OptimizedTier1]\n",
		 (unsigned long long)(uintptr_t)code + 0x100);
	ASSERT_OK(write_file(self_map, line, 0), "write map");
	s = symbolizer__new(NULL);
	ASSERT_OK(symbolizer__add_pid(s, getpid()), "add");
	ASSERT_OK_PTR(symbolizer__perf_map(s, getpid()), "found perf map");
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x17f, 0, &si),
		  "resolve");
	ASSERT_EQ(si.kind, SYM_KIND_JIT, "jit");
	ASSERT_STREQ(si.name, "void [Jit] Jit.Code::Hot(int32)[OptimizedTier1]", "name");
	/* a method appended later: found by re-reading on the miss */
	snprintf(line, sizeof(line), "%llx 40 void [Jit] Jit.Code::Later()\n",
		 (unsigned long long)(uintptr_t)code + 0x1000);
	write_file(self_map, line, 1);
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x1001, 0, &si),
		  "resolve appended");
	ASSERT_STREQ(si.name, "void [Jit] Jit.Code::Later()", "appended name");
	ASSERT_EQ(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x8000, 0, &si),
		  -ENOENT, "unnamed jit");
	ASSERT_EQ(si.kind, SYM_KIND_JIT, "still jit");
	/* method events win over the perf map and carry time */
	symbolizer__method_load(s, getpid(), (uint64_t)(uintptr_t)code + 0x8000, 0x10,
				"Jit.Code.FromEvent()", 0x1234, 0x8, 500);
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x8001, 600, &si),
		  "event");
	ASSERT_STREQ(si.name, "Jit.Code.FromEvent()", "event name");
	ASSERT_EQ(si.module_id, 0x1234, "module id");
	/* ... also over a range the perf map names, in the JIT mapping the
	 * last perf-map answer came from; before its load, the perf map's */
	symbolizer__method_load(s, getpid(), (uint64_t)(uintptr_t)code + 0x1000, 0x40,
				"Jit.Code.LaterFromEvent()", 0x1234, 0x8, 700);
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x1001, 800, &si),
		  "event over the perf map");
	ASSERT_STREQ(si.name, "Jit.Code.LaterFromEvent()", "event wins");
	ASSERT_TRUE(si.module == NULL, "no perf-map path for an event");
	ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x1001, 650, &si),
		  "before the event");
	ASSERT_STREQ(si.name, "void [Jit] Jit.Code::Later()", "perf map then");
	ASSERT_TRUE(si.module && strstr(si.module, self_map), "perf-map path");
	/* another perf map given for the process: its names from then on */
	{
		char other[128];

		snprintf(other, sizeof(other), "%s/other.map", tmpdir);
		snprintf(line, sizeof(line), "%llx 40 void [Jit] Jit.Code::Replaced()\n",
			 (unsigned long long)(uintptr_t)code + 0x100);
		ASSERT_OK(write_file(other, line, 0), "write other map");
		ASSERT_OK(symbolizer__set_perf_map(s, getpid(), other), "set other map");
		ASSERT_OK(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x101, 0,
					      &si), "resolve in the other map");
		ASSERT_STREQ(si.name, "void [Jit] Jit.Code::Replaced()", "other map's name");
		ASSERT_STREQ(si.module, other, "other map's path");
		unlink(other);
	}
	/* a file mapped over the JIT range since (the kernel's mmap record):
	 * named as that file's code, not from the perf map any more */
	{
		struct proc_map m = { .start = (uint64_t)(uintptr_t)code,
				      .end = (uint64_t)(uintptr_t)code + 0x1000, .ino = 4242,
				      .prot = PROT_READ | PROT_EXEC,
				      .path = (char *)"/nonexistent/libremapped.so", .dso = -1 };

		ASSERT_OK(symbolizer__add_mapping(s, getpid(), &m), "add mapping");
		ASSERT_EQ(symbolizer__resolve(s, getpid(), (uint64_t)(uintptr_t)code + 0x17f, 0,
					      &si), -ENOENT, "no symbol in the file");
		ASSERT_EQ(si.kind, SYM_KIND_NATIVE, "native now");
		ASSERT_STREQ(si.module, "/nonexistent/libremapped.so", "module");
	}
	symbolizer__stats(s, &st);
	ASSERT_EQ(st.unreadable_maps, 0, "nothing refused");
	symbolizer__free(s);
	unlink(self_map);
	munmap(code, len);
}

static void test_perf_map_symlink_refused(void)
{
	struct symbolizer *s;
	struct symbolizer_stats st;
	char target[128];
	log_print_fn old;

	snprintf(target, sizeof(target), "%s/secret", tmpdir);
	write_file(target, "1000 10 secret\n", 0);
	unlink(self_map);
	if (!ASSERT_OK(symlink(target, self_map), "plant symlink"))
		return;
	warnings[0] = '\0';
	old = log_set_print(capture_print);
	s = symbolizer__new(NULL);
	symbolizer__add_pid(s, getpid());
	log_set_print(old);
	ASSERT_TRUE(symbolizer__perf_map(s, getpid()) == NULL, "refused");
	ASSERT_TRUE(strstr(warnings, self_map) != NULL, "warning names the file");
	ASSERT_TRUE(strstr(warnings, "symbolic link") != NULL, "warning says why");
	symbolizer__stats(s, &st);
	ASSERT_EQ(st.unreadable_maps, 1, "counted once");
	printf("# warning: %s", warnings);
	symbolizer__free(s);
	unlink(self_map);
	unlink(target);
}

static void test_perf_map_other_owner_refused(void)
{
	struct symbolizer *s;
	struct symbolizer_stats st;
	log_print_fn old;
	char why[160];
	uid_t me = getuid();
	struct perf_map *pm;

	if (geteuid() != 0)
		TEST_SKIP("needs root to chown a file to another uid");
	write_file(self_map, "1000 10 not yours\n", 0);
	if (!ASSERT_OK(chown(self_map, 4242, 4242), "chown"))
		return;
	warnings[0] = '\0';
	old = log_set_print(capture_print);
	s = symbolizer__new(NULL);
	symbolizer__add_pid(s, getpid());
	/* lookups do not retry a refused file, nor warn again */
	symbolizer__refresh(s, getpid(), 0);
	log_set_print(old);
	ASSERT_TRUE(symbolizer__perf_map(s, getpid()) == NULL, "refused");
	ASSERT_TRUE(strstr(warnings, self_map) != NULL, "warning names the file");
	ASSERT_TRUE(strstr(warnings, "owned by uid 4242") != NULL, "warning says why");
	symbolizer__stats(s, &st);
	ASSERT_EQ(st.unreadable_maps, 1, "counted once");
	printf("# warning: %s", warnings);
	symbolizer__free(s);
	/* the low-level check, and a FIFO (never blocks, never read) */
	pm = perf_map__open(-1, self_map, &me, 1, why, sizeof(why));
	ASSERT_TRUE(pm == NULL && errno == EPERM, "EPERM");
	unlink(self_map);
	if (ASSERT_OK(mkfifo(self_map, 0600), "mkfifo")) {
		pm = perf_map__open(-1, self_map, &me, 1, why, sizeof(why));
		ASSERT_TRUE(pm == NULL && errno == EINVAL, "fifo refused");
		ASSERT_STREQ(why, "is not a regular file (refused)", "fifo why");
	}
	unlink(self_map);
}

/* The one rule every reader and writer of stacks names frames by: the leaf
 * and the first user frame under kernel frames exactly (a function's first
 * byte there is that function's, not the one before it), return addresses
 * at the call before them. */
static void test_frame_address(void)
{
	const uint64_t k = SYM_KERNEL_START + 0x1000, u = 0x401000;
	const uint64_t mixed[] = { k, k + 0x40, u, u + 0x20, u + 0x40 };
	const uint64_t user[] = { u, u + 0x20 };

	ASSERT_EQ(sym_frame_address(mixed, 0), k, "kernel leaf exact");
	ASSERT_EQ(sym_frame_address(mixed, 1), k + 0x3f, "kernel caller: the call");
	ASSERT_EQ(sym_frame_address(mixed, 2), u, "first user frame under the kernel's exact");
	ASSERT_EQ(sym_frame_address(mixed, 3), u + 0x1f, "user caller: the call");
	ASSERT_EQ(sym_frame_address(mixed, 4), u + 0x3f, "user caller: the call");
	ASSERT_EQ(sym_frame_address(user, 0), u, "user leaf exact");
	ASSERT_EQ(sym_frame_address(user, 1), u + 0x1f, "its caller: the call");
}

/* A forked child that exits before its first record: named from its
 * parent's mappings as they were at the fork, without /proc/CHILD; not
 * when it is known already, or when its parent is not. */
static void test_forked_child(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	uint64_t addr = (uint64_t)(uintptr_t)&test_symbolizer_probe_fn + 1;
	void *qs = dlsym(RTLD_DEFAULT, "qsort");
	struct sym_info si;
	int status;
	pid_t child;

	if (!ASSERT_OK_PTR(s, "new"))
		return;
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	ASSERT_TRUE(kill(child, 0) == -1 && errno == ESRCH, "gone");
	ASSERT_EQ(symbolizer__fork(s, getpid(), child), 0, "parent not known: nothing");
	ASSERT_OK(symbolizer__add_pid(s, getpid()), "add the parent");
	ASSERT_EQ(symbolizer__fork(s, getpid(), child), 1, "child from its parent");
	ASSERT_EQ(symbolizer__fork(s, getpid(), child), 0, "child known already");
	ASSERT_OK(symbolizer__resolve(s, child, addr, SYM_TS_NONE, &si), "exe");
	ASSERT_STREQ(si.name, "test_symbolizer_probe_fn", "the parent's function, in the child");
	ASSERT_OK(symbolizer__resolve(s, child, (uint64_t)(uintptr_t)qs + 5, SYM_TS_NONE, &si),
		  "libc");
	ASSERT_STREQ(si.name, "qsort", "libc in the child");
	symbolizer__free(s);
}

/* A process that exits before its frames are symbolized: mappings, ELF
 * files and the perf map were recorded while it lived. */
static void test_exited_process(void)
{
	size_t len = 1 << 16;
	void *code = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int go[2], ready[2], status;
	struct symbolizer *s = NULL;
	struct sym_info si;
	char map[64], line[160], c = 0;
	void *qs = dlsym(RTLD_DEFAULT, "qsort");
	pid_t child;

	if (!ASSERT_TRUE(code != MAP_FAILED, "mmap") || !ASSERT_OK(pipe(go), "pipe") ||
	    !ASSERT_OK(pipe(ready), "pipe"))
		return;
	child = fork();
	if (child == 0) {
		snprintf(map, sizeof(map), "/tmp/perf-%d.map", (int)getpid());
		snprintf(line, sizeof(line), "%llx 40 void [Gone] Gone.Jit::Method()\n",
			 (unsigned long long)(uintptr_t)code + 0x200);
		write_file(map, line, 0);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		unlink(map);	/* the runtime's map disappears with it */
		_exit(0);
	}
	if (!ASSERT_TRUE(read(ready[0], &c, 1) == 1, "child ready"))
		goto out;
	s = symbolizer__new(NULL);
	ASSERT_OK(symbolizer__add_pid(s, child), "add while alive");
	/* the child exits and is reaped: /proc/PID is gone */
	ASSERT_TRUE(write(go[1], &c, 1) == 1, "let it exit");
	waitpid(child, &status, 0);
	ASSERT_TRUE(kill(child, 0) == -1 && errno == ESRCH, "gone");
	ASSERT_OK(symbolizer__resolve(s, child, (uint64_t)(uintptr_t)code + 0x210, 0, &si),
		  "jit after exit");
	ASSERT_STREQ(si.name, "void [Gone] Gone.Jit::Method()", "jit name after exit");
	ASSERT_OK(symbolizer__resolve(s, child, (uint64_t)(uintptr_t)qs + 5, 0, &si),
		  "libc after exit");
	ASSERT_STREQ(si.name, "qsort", "libc name after exit");
	ASSERT_OK(symbolizer__resolve(s, child, (uint64_t)(uintptr_t)&test_symbolizer_probe_fn + 1,
				      0, &si), "exe after exit");
	ASSERT_STREQ(si.name, "test_symbolizer_probe_fn", "exe name after exit");
out:
	symbolizer__free(s);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	munmap(code, len);
}

/* ----------------------------------------------------------- rundown */

static void test_rundown_payloads(void)
{
	struct sym_method_rec in = {
		.method_id = 0x110FB2860, .module_id = 0x1104E4020, .start = 0x110F25180,
		.size = 0x53, .token = 0x0600449D, .flags = 0x208,
		.ns = "System.Runtime.CompilerServices.CastHelpers", .name = "StelemRef",
		.sig = "void  (class System.Array,int,class System.Object)",
	}, out;
	uint8_t buf[1024];
	char strs[1024], disp[512];
	long len = sym_encode_method(buf, sizeof(buf), &in);

	ASSERT_EQ(len, 8 * 3 + 4 * 3 + 2 * (43 + 1) + 2 * (9 + 1) + 2 * (50 + 1) + 2, "size");
	ASSERT_OK(sym_decode_method(buf, (size_t)len, &out, strs, sizeof(strs)), "decode");
	ASSERT_EQ(out.start, in.start, "start");
	ASSERT_EQ(out.flags, 0x208, "flags");
	ASSERT_STREQ(out.name, "StelemRef", "name");
	ASSERT_FALSE(out.has_rejit, "v1");
	sym_method_display_name(out.ns, out.name, out.sig, 0, disp, sizeof(disp));
	ASSERT_STREQ(disp, "System.Runtime.CompilerServices.CastHelpers.StelemRef(System.Array,int,object)",
		     "display name, arguments spelled as perf maps spell them");
	ASSERT_EQ(sym_decode_method(buf, (size_t)len - 30, &out, strs, sizeof(strs)), -EINVAL,
		  "truncated");
}

/* One name whichever source named the method: method events of older and
 * newer runtimes, .NET 10 perf map lines, with and without tiers. */
/* A reported mapping (mprotect's split, a MAP_FIXED over part of a
 * reservation) replaces only the range it covers: the rest of the mapping
 * it cuts stays, at its file offset and with its DSO. */
static void test_proc_maps_add_cuts(void)
{
	struct proc_maps pm = { 0 };
	struct proc_map big = { .start = 0x10000, .end = 0x50000, .offset = 0x1000, .ino = 7,
				.prot = PROT_READ | PROT_EXEC, .path = "/memfd:doublemapper" };
	struct proc_map mid = big, other = { .start = 0x48000, .end = 0x60000, .ino = 0,
					     .prot = PROT_READ | PROT_EXEC, .path = "" };
	const struct proc_map *m;

	mid.start = 0x20000;
	mid.end = 0x30000;
	mid.offset = 0x11000;
	if (!ASSERT_OK(proc_maps__add(&pm, &big), "add big"))
		goto out;
	pm.maps[0].dso = 3;
	if (!ASSERT_OK(proc_maps__add(&pm, &mid), "add the middle"))
		goto out;
	ASSERT_EQ(pm.n, 3, "left, middle, right");
	m = proc_maps__find(&pm, 0x1ffff);
	ASSERT_TRUE(m && m->start == 0x10000 && m->end == 0x20000 && m->dso == 3, "left kept");
	m = proc_maps__find(&pm, 0x30000);
	ASSERT_TRUE(m && m->start == 0x30000 && m->end == 0x50000 && m->offset == 0x21000 &&
		    m->dso == 3, "right kept, its offset moved");
	m = proc_maps__find(&pm, 0x2abcd);
	ASSERT_TRUE(m && m->start == 0x20000 && m->offset == 0x11000, "the middle is the new one");
	/* one that overlaps the right part's end and goes past it */
	if (!ASSERT_OK(proc_maps__add(&pm, &other), "add across the end"))
		goto out;
	m = proc_maps__find(&pm, 0x47fff);
	ASSERT_TRUE(m && m->start == 0x30000 && m->end == 0x48000, "right part cut short");
	m = proc_maps__find(&pm, 0x5ffff);
	ASSERT_TRUE(m && m->start == 0x48000 && m->ino == 0, "the new one past it");
	ASSERT_EQ(pm.n, 4, "four mappings");
out:
	proc_maps__clear(&pm);
}

static void test_method_display_name(void)
{
	static const struct { const char *ns, *name, *sig, *want; } cases[] = {
		{ "System.Threading.Tasks.Task", "RunContinuations", "instance void  (class System.Object)",
		  "System.Threading.Tasks.Task.RunContinuations(object)" },
		{ "System.Threading.Tasks.Task", "RunContinuations", "void (object)[OptimizedTier1]",
		  "System.Threading.Tasks.Task.RunContinuations(object)" },
		{ "", "void [System.Private.CoreLib] System.Threading.Tasks.Task::RunContinuations(object)[OptimizedTier1]",
		  "", "System.Threading.Tasks.Task.RunContinuations(object)" },
		{ "Program", "Main", "int32  (class System.String[])", "Program.Main(string[])" },
		{ "Program", "Main", "int32 (string[])[QuickJitted]", "Program.Main(string[])" },
		{ "", "instance void [hcapp] Program+<>c__DisplayClass6_1::<Main>b__0()[QuickJitted]", "",
		  "Program+<>c__DisplayClass6_1.<Main>b__0()" },
		{ "System.GC", "Collect", "void  (int32,value class System.GCCollectionMode,bool)",
		  "System.GC.Collect(int32,System.GCCollectionMode,bool)" },
		{ "X", "Invoke", "object (object,System.Span`1 /* MT: 0x7f83d312fe30 */<object>)[Optimized]",
		  "X.Invoke(object,System.Span`1<object>)" },
		{ "X", "M", "void  (class System.Collections.Generic.IDictionary`2<class System.String,class System.String>, unsigned int8*)",
		  "X.M(System.Collections.Generic.IDictionary`2<string,string>,unsigned int8*)" },
		{ "X", "M", "void (class System.StringComparer,System.ObjectDisposedException)",
		  "X.M(System.StringComparer,System.ObjectDisposedException)" },
	};
	char disp[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sym_method_display_name(cases[i].ns, cases[i].name, cases[i].sig, 0, disp, sizeof(disp));
		ASSERT_STREQ(disp, cases[i].want, cases[i].sig);
	}
	sym_method_display_name("Program", "Main", "int32 (string[])[QuickJitted]", 1, disp,
				sizeof(disp));
	ASSERT_STREQ(disp, "Program.Main(string[])[QuickJitted]", "--tiers keeps the tier");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(self_map, sizeof(self_map), "/tmp/perf-%d.map", (int)getpid());
	RUN(test_method_display_name);
	RUN(test_perf_map_parse_line);
	RUN(test_perf_map_growth);
	RUN(test_perf_map_rewritten);
	RUN(test_perf_map_bounded);
	RUN(test_perf_map_pass_left_lines);
	RUN(test_perf_map_reuse_by_time);
	RUN(test_range_table_methods);
	RUN(test_range_table_model);
	RUN(test_range_table_model_horizon);
	RUN(test_range_table_horizon_tail);
	RUN(test_elf_self_and_libc);
	RUN(test_elf_debug_files);
	RUN(test_kallsyms);
	RUN(test_kallsyms_zero);
	RUN(test_perf_map_earlier_process);
	RUN(test_perf_map_search_backoff);
	RUN(test_perf_map_jit_lookup);
	RUN(test_perf_map_symlink_refused);
	RUN(test_perf_map_other_owner_refused);
	RUN(test_exited_process);
	RUN(test_forked_child);
	RUN(test_frame_address);
	RUN(test_rundown_payloads);
	RUN(test_proc_maps_add_cuts);
	unlink(self_map);
	rmdir(tmpdir);
	return test_summary();
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_eh_table.c - the rows collector/sources/eh_table.c builds for
 * --call-graph eh, row by row against binutils' own reading of the same
 * CFI: every row `readelf --debug-dump=frames-interp` prints for
 * tests/progs/unwind_native (built without frame pointers), for the same
 * program with its CFI in .debug_frame, and for this process's libc, looked up in our table at its address, must give the
 * same CFA (register and offset; the PLT's expression as EH_CFA_PLT), the
 * return address at CFA - 8 (or undefined: EH_CFA_END) and the same place
 * of the caller's rbp.
 */
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "test.h"
#include "clock.h"
#include "elf_file.h"
#include "eh_table.h"

struct cmp_stats {
	unsigned rows, plt, end, none, bad;
};

/* One readelf row: "LOC CFA col..." with the columns named by hdr. */
static void check_row(const struct eh_table *t, char **hdr, int nh, char *line,
		      struct cmp_stats *st)
{
	char *tok[32], *save = NULL, *p;
	const char *cfa, *rbp = "u", *ra = "u";
	const struct eh_row *r;
	unsigned long long loc;
	int n = 0, i, want_rule = EH_CFA_NONE, want_rbp = EH_RBP_SAME;
	long off = 0, rbp_off = 0;
	bool ok;

	for (p = strtok_r(line, " \t\n", &save); p && n < 32; p = strtok_r(NULL, " \t\n", &save))
		tok[n++] = p;
	if (n < 2 || n != nh)
		return;
	loc = strtoull(tok[0], NULL, 16);
	cfa = tok[1];
	for (i = 2; i < n; i++) {
		if (!strcmp(hdr[i], "rbp"))
			rbp = tok[i];
		else if (!strcmp(hdr[i], "ra"))
			ra = tok[i];
	}
	if (!strncmp(cfa, "rsp+", 4) || !strncmp(cfa, "rbp+", 4)) {
		want_rule = cfa[1] == 's' ? EH_CFA_SP : EH_CFA_BP;
		off = strtol(cfa + 4, NULL, 10);
	}
	if (!strcmp(ra, "u"))
		want_rule = EH_CFA_END;
	else if (strcmp(ra, "c-8") && want_rule != EH_CFA_NONE)
		want_rule = EH_CFA_NONE;
	if (!strncmp(rbp, "c-", 2)) {
		want_rbp = EH_RBP_AT;
		rbp_off = -strtol(rbp + 2, NULL, 10);
	} else if (strcmp(rbp, "u") && strcmp(rbp, "s") && want_rule != EH_CFA_END) {
		want_rule = EH_CFA_NONE;
	}
	r = eh_table__find(t, loc);
	st->rows++;
	if (!r) {
		if (st->bad++ < 5)
			printf("#   0x%llx: readelf cfa %s, no row of ours\n", loc, cfa);
		return;
	}
	if (!strcmp(cfa, "exp") && r->cfa_rule == EH_CFA_PLT) {
		st->plt++;
		return;
	}
	if (r->cfa_rule == EH_CFA_END)
		st->end++;
	if (r->cfa_rule == EH_CFA_NONE)
		st->none++;
	ok = r->cfa_rule == want_rule;
	if (ok && (want_rule == EH_CFA_SP || want_rule == EH_CFA_BP))
		ok = r->cfa_off == off && r->rbp_rule == want_rbp &&
		     (want_rbp != EH_RBP_AT || r->rbp_off == rbp_off);
	if (!ok && st->bad++ < 5)
		printf("#   0x%llx: readelf cfa %s rbp %s ra %s; ours rule %u off %d rbp %u/%d\n",
		       loc, cfa, rbp, ra, r->cfa_rule, r->cfa_off, r->rbp_rule, r->rbp_off);
}

/* Build path's table and hold it against readelf's rows of the same file. */
static void compare_with_readelf(const char *path, unsigned min_rows)
{
	struct eh_table t = {};
	struct elf_file ef;
	struct cmp_stats st = {};
	char cmd[PATH_MAX + 64], line[1024], hdrbuf[1024], *hdr[32];
	uint64_t t0;
	int nh = 0;
	bool fde = false;	/* in an FDE's rows, not a CIE's initial ones */
	FILE *f;

	if (access(path, R_OK))
		TEST_SKIP("file not there");
	if (!ASSERT_OK(elf_file__open(&ef, path), "open"))
		return;
	t0 = mono_ns();
	if (!ASSERT_OK(eh_table__build(ef.elf, &t, NULL), "build"))
		goto out;
	printf("# %s: %u rows (%u none, %u gaps) in %.1f ms\n", path, t.n, t.none_rows,
	       t.gap_rows, (mono_ns() - t0) / 1e6);
	snprintf(cmd, sizeof(cmd), "readelf --debug-dump=frames-interp '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!ASSERT_OK_PTR(f, "readelf"))
		goto out;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *p;

		if (strstr(line, " FDE ") || strstr(line, " CIE")) {
			fde = strstr(line, " FDE ") != NULL;
			nh = 0;
		} else if (fde && strstr(line, "   LOC ")) {
			snprintf(hdrbuf, sizeof(hdrbuf), "%s", line);
			nh = 0;
			for (p = strtok_r(hdrbuf, " \t\n", &save); p && nh < 32;
			     p = strtok_r(NULL, " \t\n", &save))
				hdr[nh++] = p;
		} else if (nh && line[0] >= '0' && strspn(line, "0123456789abcdef") == 16) {
			check_row(&t, hdr, nh, line, &st);
		}
	}
	pclose(f);
	printf("# readelf rows %u: PLT %u, end of stack %u, fp fallback %u, differing %u\n",
	       st.rows, st.plt, st.end, st.none, st.bad);
	ASSERT_GE(st.rows, min_rows, "readelf rows compared");
	ASSERT_EQ(st.bad, 0, "rows that differ from readelf's");
out:
	eh_table__free(&t);
	elf_file__close(&ef);
}

static void test_unwind_native(void)
{
	const char *out = getenv("OUTPUT");
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/unwind_native", out ? out : ".output");
	compare_with_readelf(path, 20);
}

/* its own functions' CFI in .debug_frame, crt's in .eh_frame */
static void test_debug_frame(void)
{
	const char *out = getenv("OUTPUT");
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/unwind_native_debug_frame", out ? out : ".output");
	compare_with_readelf(path, 20);
}

static void test_libc(void)
{
	char line[PATH_MAX + 128], *p;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!ASSERT_OK_PTR(f, "maps"))
		return;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (p && strstr(p, "/libc.so")) {
			p[strcspn(p, "\n")] = 0;
			fclose(f);
			compare_with_readelf(p, 1000);
			return;
		}
	}
	fclose(f);
	TEST_SKIP("no libc.so mapped");
}

/* A file with no .eh_frame is an error, not an empty table. */
static void test_no_eh_frame(void)
{
	struct eh_table t = {};
	struct elf_file ef;
	char tmp[] = "/tmp/test_eh_table.XXXXXX";
	int fd = mkstemp(tmp);
	Elf *e;

	if (!ASSERT_GE(fd, 0, "mkstemp"))
		return;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (e && gelf_newehdr(e, ELFCLASS64)) {
		GElf_Ehdr eh;

		gelf_getehdr(e, &eh);
		eh.e_machine = EM_X86_64;
		eh.e_type = ET_DYN;
		gelf_update_ehdr(e, &eh);
		elf_update(e, ELF_C_WRITE);
	}
	if (e)
		elf_end(e);
	close(fd);
	if (ASSERT_OK(elf_file__open(&ef, tmp), "open")) {
		ASSERT_TRUE(eh_table__build(ef.elf, &t, NULL) < 0, "no .eh_frame: an error");
		ASSERT_EQ(t.n, 0, "nothing to free");
		elf_file__close(&ef);
	}
	unlink(tmp);
}

int main(void)
{
	RUN(test_unwind_native);
	RUN(test_debug_frame);
	RUN(test_libc);
	RUN(test_no_eh_frame);
	return test_summary();
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * method_name.c - a managed method's one display name (method_name.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "method_name.h"

int sym_split_perf_name(const char *full, char *ns, char *name, char *sig, char *asm_name,
			size_t cap)
{
	const char *lb = strstr(full, " ["), *rb, *lp, *cc = NULL, *p;

	if (!lb || !(rb = strstr(lb, "] ")) || !(lp = strchr(rb + 2, '(')))
		return 0;
	for (p = rb + 2; p + 1 < lp; p++)
		if (p[0] == ':' && p[1] == ':')
			cc = p;
	if (!cc)
		return 0;
	snprintf(ns, cap, "%.*s", (int)(cc - (rb + 2)), rb + 2);
	snprintf(name, cap, "%.*s", (int)(lp - (cc + 2)), cc + 2);
	snprintf(sig, cap, "%.*s %s", (int)(lb - full), full, lp);
	snprintf(asm_name, cap, "%.*s", (int)(rb - (lb + 2)), lb + 2);
	return 1;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '`' || c == '+';
}

/* Does the word w start at s, ending where an identifier ends? */
static int word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && !ident_char(s[n]);
}

/* The arguments "(...)" of [a, e) into out, spelled one way (method_name.h). */
static size_t readable_args(const char *a, const char *e, char *out, size_t cap)
{
	size_t o = 0;
	const char *p = a;

#define PUT(c) do { if (o + 1 < cap) out[o++] = (c); } while (0)
	while (p < e) {
		int word_start = p == a || !ident_char(p[-1]);

		if (p[0] == '/' && p + 1 < e && p[1] == '*') {	/* "/ * MT: 0x... * /" */
			const char *end = strstr(p + 2, "*/");

			p = end && end < e ? end + 2 : e;
			while (p < e && *p == ' ')
				p++;
			while (o && out[o - 1] == ' ')
				o--;
			continue;
		}
		if (word_start && word_at(p, "value") && !strncmp(p, "value class ", 12)) {
			p += 12;
			continue;
		}
		if (word_start && (!strncmp(p, "class ", 6) || !strncmp(p, "valuetype ", 10))) {
			p += p[0] == 'c' ? 6 : 10;
			continue;
		}
		if (word_start && word_at(p, "System.String")) {
			for (const char *s = "string"; *s; s++)
				PUT(*s);
			p += 13;
			continue;
		}
		if (word_start && word_at(p, "System.Object")) {
			for (const char *s = "object"; *s; s++)
				PUT(*s);
			p += 13;
			continue;
		}
		if (*p == ' ' && (o == 0 || out[o - 1] == ',' || out[o - 1] == '(' ||
				  out[o - 1] == '<' || out[o - 1] == ' ')) {
			p++;
			continue;
		}
		PUT(*p);
		p++;
	}
#undef PUT
	out[o < cap ? o : cap - 1] = 0;
	return o;
}

int sym_method_display_name(const char *ns, const char *name, const char *sig, int tiers,
			    char *buf, size_t len)
{
	char sns[1024], sname[1024], ssig[1024], sasm[1024], args[2048];
	const char *lp, *rp, *tier = "";

	if ((!ns || !ns[0]) && name &&
	    sym_split_perf_name(name, sns, sname, ssig, sasm, sizeof(sns))) {
		ns = sns;
		name = sname;
		sig = ssig;
	}
	lp = sig ? strchr(sig, '(') : NULL;
	args[0] = 0;
	if (lp) {
		rp = strrchr(lp, ')');
		if (!rp)
			rp = lp + strlen(lp) - 1;
		readable_args(lp, rp + 1, args, sizeof(args));
		if (tiers && rp[1] == '[')
			tier = rp + 1;
	}
	return snprintf(buf, len, "%s%s%s%s%s", ns && ns[0] ? ns : "", ns && ns[0] ? "." : "",
			name ? name : "", args, tier);
}

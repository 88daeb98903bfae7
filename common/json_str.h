/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * json_str.h - a C string written as a JSON string literal, for the JSON the
 * programs print (refrt's summary, the speedscope view).
 */
#ifndef EC_COMMON_JSON_STR_H
#define EC_COMMON_JSON_STR_H

#include <stdio.h>

/* s between double quotes: '"' and '\' escaped with a backslash, the other
 * control characters (below 0x20) as \u00XX, every other byte as it is, so
 * UTF-8 text stays UTF-8. */
void json_str(FILE *f, const char *s);

#endif /* EC_COMMON_JSON_STR_H */

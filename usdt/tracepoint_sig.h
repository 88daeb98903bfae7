/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tracepoint_sig.h - a stock CoreCLR tracepoint's signature string
 * (usdt/tracepoint_abi.h: "const unsigned int, Count, const char*, Name,
 * ...") read as argument kinds, matched against its manifest event, and
 * the manifest's exact payload rebuilt from the arguments of one call.
 *
 * How CoreCLR's LTTng generator
 * (https://github.com/dotnet/runtime/blob/main/src/coreclr/scripts/genLttngProvider.py)
 * passes an event, as the signatures .NET 8-10 register show (usdt/README.md
 * "The tracepoint shim"): either the template's
 * fields one by one, in template order, integers as C integers
 * (win:UInt8 unsigned char, UInt16 unsigned short, UInt32 unsigned int,
 * Int32 signed int, Boolean BOOL, UInt64 uint64_t or, on .NET 8, unsigned
 * long, Int64 int64_t, Pointer size_t) and UTF-16 strings converted to
 * UTF-8 (const char*); or, for a template with a struct, an array or too
 * many fields, the payload the runtime already serialized as
 * (const unsigned int length, const char *__data__).
 */
#ifndef USDT_TRACEPOINT_SIG_H
#define USDT_TRACEPOINT_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_table.h"

#define TPSIG_MAX_ARGS	9

enum tpsig_kind {
	TPSIG_U8 = 1,
	TPSIG_U16,
	TPSIG_U32,	/* unsigned int, signed int, BOOL */
	TPSIG_U64,	/* uint64_t, unsigned long, int64_t, size_t */
	TPSIG_STR,	/* const char*: UTF-8, NUL-terminated */
	TPSIG_F64,	/* double: in an SSE register (TPSIG_MAX_FP of them) */
};

#define TPSIG_MAX_FP	4	/* the doubles the shim's probe spills (tracepoint_abi.h) */

struct tpsig {
	uint8_t n;			/* arguments after data */
	uint8_t serialized;		/* 1: (length, __data__): the payload as it is */
	uint8_t n_int, n_fp;		/* of them in integer registers/stack, in SSE registers */
	uint8_t cut;			/* tpsig_match(prefix): a newer version, cut to ev's */
	uint8_t kind[TPSIG_MAX_ARGS];	/* enum tpsig_kind */
	uint8_t slot[TPSIG_MAX_ARGS];	/* its place among the integer arguments, or
					 * among the doubles for TPSIG_F64 */
};

/* Parse a signature.  0; -EINVAL for a type this reader does not take
 * (size_t* points at data of unknown length), -E2BIG past TPSIG_MAX_ARGS
 * arguments or TPSIG_MAX_FP doubles. */
int tpsig_parse(const char *sig, struct tpsig *out);

/* Do the arguments carry ev's template field by field (or serialized)?
 * prefix: the event is a newer version than ev, whose fields come first
 * (later versions only append): the arguments may go on past them, a
 * serialized payload past ev's layout, and tpsig_payload writes ev's.
 * 0, or -EINVAL: a count or a type that does not match. */
int tpsig_match(struct tpsig *s, const struct ect_event *ev, bool prefix);

/*
 * ev's payload from one call: args[k] the integer argument words and
 * fp[k] the doubles' bits, each by its slot, data the bytes copied for the
 * string and buffer arguments in argument order, copied[k] the bytes of
 * integer argument k in data (a string's NUL included).  Writes at
 * most cap bytes to out.  The payload's length, or -EINVAL when the copied
 * bytes do not fit the arguments, -E2BIG past cap.
 */
long tpsig_payload(const struct tpsig *s, const struct ect_event *ev, const uint64_t *args,
		   const uint64_t *fp, const uint8_t *data, size_t data_len,
		   const uint16_t *copied, uint8_t *out, size_t cap);

#endif /* USDT_TRACEPOINT_SIG_H */

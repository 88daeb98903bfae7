/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The project's one UTF-8 <-> UTF-16LE converter.  Trace strings are
 * UTF-16LE with a NUL code unit (the manifest's win:UnicodeString and every
 * string of the nettrace format); everything else is UTF-8.
 *
 * Malformed input never fails a conversion: an invalid UTF-8 sequence, an
 * overlong form, an encoded surrogate or a lone UTF-16 surrogate becomes
 * U+FFFD, so a hostile process name or payload still yields a valid string.
 */
#ifndef EC_COMMON_UTF16_H
#define EC_COMMON_UTF16_H

#include <stddef.h>
#include <stdint.h>

/*
 * Next code point of UTF-8 at *s, reading no further than end (NULL: the
 * string is NUL-terminated).  *s moves past what was used; a malformed
 * sequence yields U+FFFD and moves past its valid prefix.
 */
uint32_t utf8_decode(const unsigned char **s, const unsigned char *end);

/* Encode c as UTF-8 into out (4 bytes of room); returns the bytes written. */
size_t utf8_encode(char out[4], uint32_t c);

/* Next code point of the UTF-16LE data p[0..n) at byte offset *i; *i moves on. */
uint32_t utf16le_decode(const uint8_t *p, size_t n, size_t *i);

/*
 * UTF-8 s (its first n bytes, or up to its NUL if sooner) to UTF-16LE with a
 * NUL unit in dst, which has room for 2 * n + 2 bytes.  Returns the bytes
 * written, NUL included.
 */
size_t utf8_to_utf16le(const char *s, size_t n, uint8_t *dst);

/*
 * UTF-16LE p[0..n), up to its NUL unit, to NUL-terminated UTF-8 in out
 * (truncated to outcap - 1 bytes).  Returns the bytes the string takes in
 * p, its NUL unit included, or -1 when p has no NUL unit.
 */
long utf16le_to_utf8(const uint8_t *p, size_t n, char *out, size_t outcap);

/* Bytes of the UTF-16LE string at p before its NUL unit, or -1 if none before end. */
long utf16le_len(const uint8_t *p, const uint8_t *end);

#endif /* EC_COMMON_UTF16_H */

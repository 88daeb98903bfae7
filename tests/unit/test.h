/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test.h - kernel-selftest-style assertions printing TAP.
 *
 * Each TEST(name) is one TAP test point.  ASSERT_* macros return a boolean
 * (true when the assertion held), print a diagnostic when it did not, and
 * mark the current test as failed, so a test can `if (!ASSERT_OK(..)) goto out;`.
 *
 *   static void test_foo(void) { ASSERT_EQ(1 + 1, 2, "sum"); }
 *   int main(void) { RUN(test_foo); return test_summary(); }
 */
#ifndef EBPF_COLLECT_TEST_H
#define EBPF_COLLECT_TEST_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdbool.h>
#include <errno.h>

static int test__n, test__failed_total, test__cur_failed, test__skipped;
static const char *test__skip_reason;

#define TEST_SKIP(reason) do { test__skip_reason = (reason); return; } while (0)

static inline bool test__report(bool ok, const char *file, int line, const char *what,
				const char *detail)
{
	if (!ok) {
		test__cur_failed = 1;
		fprintf(stdout, "#   %s:%d: %s: %s\n", file, line, what, detail);
	}
	return ok;
}

#define ASSERT_TRUE(cond, name) \
	test__report(!!(cond), __FILE__, __LINE__, name, "expected true: " #cond)
#define ASSERT_FALSE(cond, name) \
	test__report(!(cond), __FILE__, __LINE__, name, "expected false: " #cond)
#define ASSERT_EQ(actual, expected, name) ({						\
	long long __a = (long long)(actual), __e = (long long)(expected);		\
	char __d[128];									\
	snprintf(__d, sizeof(__d), "actual %lld (0x%llx) != expected %lld (0x%llx)",	\
		 __a, (unsigned long long)__a, __e, (unsigned long long)__e);		\
	test__report(__a == __e, __FILE__, __LINE__, name, __d); })
#define ASSERT_NEQ(actual, expected, name) ({						\
	long long __a = (long long)(actual), __e = (long long)(expected);		\
	char __d[96];									\
	snprintf(__d, sizeof(__d), "unexpected value %lld", __a);			\
	test__report(__a != __e, __FILE__, __LINE__, name, __d); })
#define ASSERT_GE(actual, bound, name) ({						\
	long long __a = (long long)(actual), __b = (long long)(bound);			\
	char __d[96];									\
	snprintf(__d, sizeof(__d), "actual %lld < %lld", __a, __b);			\
	test__report(__a >= __b, __FILE__, __LINE__, name, __d); })
#define ASSERT_OK(err, name) ({								\
	long long __r = (long long)(err);						\
	char __d[96];									\
	snprintf(__d, sizeof(__d), "unexpected error %lld (%s)", __r,			\
		 __r < 0 ? strerror((int)-__r) : "");					\
	test__report(__r == 0, __FILE__, __LINE__, name, __d); })
#define ASSERT_OK_PTR(ptr, name) ({							\
	const void *__p = (ptr);							\
	char __d[96];									\
	snprintf(__d, sizeof(__d), "NULL pointer (errno %d: %s)", errno, strerror(errno)); \
	test__report(__p != NULL, __FILE__, __LINE__, name, __d); })
#define ASSERT_STREQ(actual, expected, name) ({						\
	const char *__a = (actual), *__e = (expected);					\
	char __d[512];									\
	snprintf(__d, sizeof(__d), "actual \"%.240s\" != expected \"%.240s\"",			\
		 __a ? __a : "(null)", __e ? __e : "(null)");				\
	test__report(__a && __e && !strcmp(__a, __e), __FILE__, __LINE__, name, __d); })
/* byte comparison with a hex dump of the first difference */
#define ASSERT_MEMEQ(actual, expected, len, name) ({					\
	const unsigned char *__a = (const void *)(actual), *__e = (const void *)(expected); \
	size_t __l = (len), __i = 0;							\
	while (__i < __l && __a[__i] == __e[__i]) __i++;				\
	char __d[128];									\
	snprintf(__d, sizeof(__d), "first difference at byte %zu of %zu: %02x != %02x",	\
		 __i, __l, __i < __l ? __a[__i] : 0, __i < __l ? __e[__i] : 0);		\
	test__report(__i == __l, __FILE__, __LINE__, name, __d); })

#define RUN(fn) do {									\
	test__cur_failed = 0; test__skip_reason = NULL;					\
	fn();										\
	test__n++;									\
	if (test__skip_reason) {							\
		printf("ok %d - %s # skip %s\n", test__n, #fn, test__skip_reason);	\
		test__skipped++;							\
	} else if (test__cur_failed) {							\
		printf("not ok %d - %s\n", test__n, #fn);				\
		test__failed_total++;							\
	} else {									\
		printf("ok %d - %s\n", test__n, #fn);					\
	}										\
	fflush(stdout);									\
} while (0)

static inline int test_summary(void)
{
	printf("1..%d\n", test__n);
	return test__failed_total ? 1 : 0;
}

#endif /* EBPF_COLLECT_TEST_H */

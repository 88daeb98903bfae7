// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * unwind_native.c - a native program built without frame pointers
 * (-O2 -fomit-frame-pointer, tests/progs/build.mk) whose time goes into
 * libc and libm under three to four levels of its own functions: a qsort
 * whose comparator calls libm, memset/memcpy of large buffers, and exp/sin
 * series.  tests/unwind.bats samples it with --call-graph dwarf and fp and
 * with perf record --call-graph dwarf, and compares the stacks by name.
 *
 * Every function of its own is noinline and does work after its last call,
 * so that no call is a tail call that would leave its frame off the stack
 * (the comparison wants the names, whatever the tool).
 *
 * Usage: unwind_native [SECONDS]   (default: until SIGTERM/SIGINT)
 * Prints "ready PID" on stdout once its buffers are set up, and at the end
 * "rounds N cpu_us M": the work done and the CPU time it took
 * (tests/bench/bench_unwind.sh's measure of what sampling costs it).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#define NOINLINE __attribute__((noinline))
#define SORT_N	64		/* small: few depths of qsort's recursion */
#define BUF_BYTES (4u << 20)

static volatile sig_atomic_t stop;
static volatile double sink;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

NOINLINE static double weight(double x)
{
	double w = sin(x) * exp(x / 64.0);

	sink += w;
	return w;
}

NOINLINE static int cmp_by_weight(const void *a, const void *b)
{
	double wa = weight(*(const double *)a), wb = weight(*(const double *)b);
	int r = (wa > wb) - (wa < wb);

	sink += r;
	return r;
}

NOINLINE static void sort_buffer(double *v, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (double)((seed * 2654435761u + i * 40503u) % 1000) / 7.0;
	qsort(v, n, sizeof(*v), cmp_by_weight);
	sink += v[0];
}

NOINLINE static void phase_sort(unsigned int round)
{
	double v[SORT_N];
	int i;

	for (i = 0; i < 8; i++)
		sort_buffer(v, SORT_N, round * 8 + i);
	sink += v[1];
}

NOINLINE static void copy_blocks(char *a, char *b, unsigned int round)
{
	memset(a, (int)round, BUF_BYTES);
	memcpy(b, a, BUF_BYTES);
	sink += b[round % BUF_BYTES];
}

NOINLINE static void phase_copy(char *a, char *b, unsigned int round)
{
	int i;

	for (i = 0; i < 4; i++)
		copy_blocks(a, b, round + i);
	sink += a[7];
}

NOINLINE static double math_series(unsigned int round)
{
	double s = 0;
	int i;

	for (i = 1; i < 20000; i++)
		s += exp(-(double)i / (round % 97 + 1000)) * sin((double)i);
	sink += s;
	return s;
}

NOINLINE static void phase_math(unsigned int round)
{
	double s = math_series(round);

	sink += s * 0.5;
}

NOINLINE static unsigned int driver(char *a, char *b, double seconds)
{
	struct timespec t0, t;
	unsigned int round = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!stop) {
		phase_sort(round);
		phase_copy(a, b, round);
		phase_math(round);
		round++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (seconds > 0 &&
		    (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds)
			break;
	}
	sink += round;
	return round;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0;
	struct rusage ru;
	unsigned int rounds;
	char *a = malloc(BUF_BYTES), *b = malloc(BUF_BYTES);

	if (!a || !b)
		return 1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	memset(a, 1, BUF_BYTES);
	memset(b, 2, BUF_BYTES);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	rounds = driver(a, b, seconds);
	getrusage(RUSAGE_SELF, &ru);
	printf("rounds %u cpu_us %lld\n", rounds,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	free(a);
	free(b);
	return 0;
}

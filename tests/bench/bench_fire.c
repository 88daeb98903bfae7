// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_fire.c - what a FireEtXplat call costs a runtime when nothing is
 * attached, next to an empty out-of-line function call with the same
 * arguments, measured in the same run.
 *
 * Each round times ITERS calls of
 *   - FireEtXplatGCStart_V2 as a runtime compiled with -O2 gets it: the
 *     header's inline copy, i.e. load the semaphore, compare, go on;
 *   - the same function forced out of line (a direct call of the symbol in
 *     clretw_provider.c: call, load, compare, return), what -O0 or an
 *     indirect call gets;
 *   - empty_call() (noipa, so the compiler must really call it);
 *   - the bare loop, for reference;
 * alternating the order.  Prints median, min and max ns per call over
 * ROUNDS rounds, the per-round (paired) differences to the empty call,
 * which cancel most of the noise of a shared machine, and the ratios.
 * Target: the difference is within 0.3 ns.
 *
 * Usage: bench_fire [ITERS [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clretw_provider.h"

#define TARGET_NS 0.3

__attribute__((noipa)) static ULONG empty_call(const unsigned int Count, const unsigned int Depth,
					       const unsigned int Reason, const unsigned int Type,
					       const unsigned short ClrInstanceID,
					       const unsigned long long ClientSequenceNumber)
{
	(void)Count; (void)Depth; (void)Reason; (void)Type; (void)ClrInstanceID;
	(void)ClientSequenceNumber;
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double time_fire(long iters)
{
	double t0 = now_ns();
	ULONG sum = 0;
	long i;

	for (i = 0; i < iters; i++)
		sum += FireEtXplatGCStart_V2((unsigned int)i, 2, 1, 0, 7, (unsigned long long)i);
	__asm__ volatile("" : : "r"(sum));
	return (now_ns() - t0) / iters;
}

/* the out-of-line definition in clretw_provider.c, called directly (not inlined) */
extern ULONG fire_out_of_line(const unsigned int Count, const unsigned int Depth,
			      const unsigned int Reason, const unsigned int Type,
			      const unsigned short ClrInstanceID,
			      const unsigned long long ClientSequenceNumber)
	__asm__("FireEtXplatGCStart_V2");

static double time_fire_ool(long iters)
{
	double t0 = now_ns();
	ULONG sum = 0;
	long i;

	for (i = 0; i < iters; i++)
		sum += fire_out_of_line((unsigned int)i, 2, 1, 0, 7, (unsigned long long)i);
	__asm__ volatile("" : : "r"(sum));
	return (now_ns() - t0) / iters;
}

static double time_empty(long iters)
{
	double t0 = now_ns();
	ULONG sum = 0;
	long i;

	for (i = 0; i < iters; i++)
		sum += empty_call((unsigned int)i, 2, 1, 0, 7, (unsigned long long)i);
	__asm__ volatile("" : : "r"(sum));
	return (now_ns() - t0) / iters;
}

/* the loop alone, for reference: same argument setup, no call */
static double time_loop(long iters)
{
	double t0 = now_ns();
	unsigned long long sum = 0;
	long i;

	for (i = 0; i < iters; i++) {
		sum += (unsigned int)i + (unsigned long long)i;
		__asm__ volatile("" : "+r"(sum));
	}
	return (now_ns() - t0) / iters;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

enum { FIRE, FIRE_OOL, EMPTY, LOOP, D_FIRE, D_OOL, N_SERIES };

static void print_series(const char *what, double *v, int rounds, const char *fmt)
{
	char line[160];

	qsort(v, rounds, sizeof(*v), cmp_double);
	snprintf(line, sizeof(line), fmt, v[rounds / 2], v[0], v[rounds - 1]);
	printf("  %-44s %s\n", what, line);
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 10000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 31, r, k;
	double *v[N_SERIES], med_fire, med_ool, med_empty, d_fire, d_ool;

	if (iters <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: bench_fire [ITERS [ROUNDS]]\n");
		return 64;
	}
	for (k = 0; k < N_SERIES; k++) {
		v[k] = calloc(rounds, sizeof(double));
		if (!v[k])
			return 1;
	}
	if (EventXplatEnabledGCStart_V2())
		fprintf(stderr, "bench_fire: warning: GCStart_V2 is being traced\n");
	time_fire(iters / 10);		/* warm up */
	time_fire_ool(iters / 10);
	time_empty(iters / 10);
	for (r = 0; r < rounds; r++) {
		if (r & 1) {
			v[EMPTY][r] = time_empty(iters);
			v[FIRE_OOL][r] = time_fire_ool(iters);
			v[FIRE][r] = time_fire(iters);
		} else {
			v[FIRE][r] = time_fire(iters);
			v[FIRE_OOL][r] = time_fire_ool(iters);
			v[EMPTY][r] = time_empty(iters);
		}
		v[LOOP][r] = time_loop(iters);
		/* paired per round: the same load on a shared machine */
		v[D_FIRE][r] = v[FIRE][r] - v[EMPTY][r];
		v[D_OOL][r] = v[FIRE_OOL][r] - v[EMPTY][r];
	}
	printf("bench_fire: %ld calls x %d rounds, ns per call: median (min..max)\n", iters, rounds);
	print_series("FireEtXplatGCStart_V2, nothing attached", v[FIRE], rounds,
		     "%6.3f (%6.3f..%6.3f)");
	print_series("  same, forced out-of-line call", v[FIRE_OOL], rounds, "%6.3f (%6.3f..%6.3f)");
	print_series("empty out-of-line function call", v[EMPTY], rounds, "%6.3f (%6.3f..%6.3f)");
	print_series("loop alone, no call (reference)", v[LOOP], rounds, "%6.3f (%6.3f..%6.3f)");
	print_series("Fire - empty call (paired per round)", v[D_FIRE], rounds,
		     "%+6.3f (%+6.3f..%+6.3f)");
	print_series("out-of-line Fire - empty call (paired)", v[D_OOL], rounds,
		     "%+6.3f (%+6.3f..%+6.3f)");
	med_fire = v[FIRE][rounds / 2];
	med_ool = v[FIRE_OOL][rounds / 2];
	med_empty = v[EMPTY][rounds / 2];
	d_fire = v[D_FIRE][rounds / 2];
	d_ool = v[D_OOL][rounds / 2];
	printf("  ratio to the empty call: Fire %.2f, out-of-line Fire %.2f\n",
	       med_fire / med_empty, med_ool / med_empty);
	printf("  target (within %.1f ns of the empty call): Fire %+.3f ns %s; "
	       "out-of-line %+.3f ns %s\n", TARGET_NS, d_fire, d_fire <= TARGET_NS ? "met" : "MISSED",
	       d_ool, d_ool <= TARGET_NS ? "met" : "missed");
	for (k = 0; k < N_SERIES; k++)
		free(v[k]);
	return 0;
}

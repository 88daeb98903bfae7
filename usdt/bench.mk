# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# usdt/bench.mk: side-by-side tracer benchmarks (issue 9).

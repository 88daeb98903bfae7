# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# usdt/refrt/: the reference runtime. Build fragment.

# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# usdt: build fragment included by the top-level Makefile.

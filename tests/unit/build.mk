# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/unit: build fragment included by the top-level Makefile.

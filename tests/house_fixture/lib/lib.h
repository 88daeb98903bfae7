/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* lib.h - the fixture's library. */
#ifndef FIXTURE_LIB_H
#define FIXTURE_LIB_H

int lib__run(int n);

#endif

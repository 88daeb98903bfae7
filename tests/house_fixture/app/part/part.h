/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* part.h - a part of the program. */
#ifndef FIXTURE_PART_H
#define FIXTURE_PART_H

int part__go(int n);

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* part.c - a part of the program (part.h), which calls the library. */
#include "lib.h"
#include "part.h"
#include "part_state.h"

static struct part_state state;

int part__go(int n)
{
	state.calls++;
	return lib__run(n) + state.calls;
}

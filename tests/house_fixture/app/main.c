// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* main.c - the fixture's program: a part of it, then the library. */
#include <stdio.h>
#include "lib.h"
#include "part.h"

int main(void)
{
	printf("%d %d\n", part__go(10), lib__run(100));
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* part_state.h - what part.c keeps between calls; private to app/part/. */
#ifndef FIXTURE_PART_STATE_H
#define FIXTURE_PART_STATE_H

struct part_state {
	int calls;
};

#endif

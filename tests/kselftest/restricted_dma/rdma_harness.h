/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h for this collection's -Wextra -Werror build: 6.1's
 * harness has a signal handler with an unused parameter, and 6.12's
 * TEST_F() expands, in every test of the file, to a local that GCC warns
 * setjmp might clobber (the harness's own code, not the tests').
 */
#ifndef RDMA_HARNESS_H
#define RDMA_HARNESS_H

#pragma GCC diagnostic ignored "-Wclobbered"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* RDMA_HARNESS_H */

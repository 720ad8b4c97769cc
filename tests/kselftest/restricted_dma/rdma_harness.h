/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h for this collection's -Wextra -Werror build: 6.1's
 * harness has a signal handler with an unused parameter.
 */
#ifndef RDMA_HARNESS_H
#define RDMA_HARNESS_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* RDMA_HARNESS_H */

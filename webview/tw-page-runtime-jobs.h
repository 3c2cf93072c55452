/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* The commands of a tab that are one call into the page runtime, carried
 * out as the tab's jobs (tw-tab-job.h). Each completes the job's task with
 * the runtime's answer, or with its error. */

/* browser_snapshot: the job's params are the snapshot's options, and the
 * answer the snapshot, both as tw_page_runtime_snapshot_async() describes
 * them. */
void tw_page_runtime_snapshot_run    (const TwTabJob *job,
                                      GTask          *task);

/* browser_performance: runtime/performance.js measures the page with the
 * job's params, and its report is the answer. */
void tw_page_runtime_performance_run (const TwTabJob *job,
                                      GTask          *task);

G_END_DECLS

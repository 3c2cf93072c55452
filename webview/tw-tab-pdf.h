/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_pdf: the page of the job's view printed to a PDF file in the
 * workspace, through WebKit's print operation without a dialog.
 * {path, paperSize?: A4|A3|A5|Letter|Legal, landscape?, background?} ->
 * {path, size}. The path is checked with tw_workspace_path_check() first. */
void tw_tab_pdf_run (const TwTabJob *job,
                     GTask          *task);

G_END_DECLS

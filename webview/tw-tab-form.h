/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_fill_form: many fields of a page in one command, one after the
 * other, each through the interaction a person would use and that the
 * single-field tools use too (tw_tab_actions_run_async): text fields,
 * text areas, comboboxes and date or range inputs are filled, dropdowns
 * and listboxes get their option selected, checkboxes, switches and radios
 * are clicked when their state differs from the one asked.
 *
 * The job's params: {fields: [{ref, value: string|boolean}]}. Completes
 * with {url, title, navigated?, filled, failed, skipped, fields: [{ref, role, name,
 * kind, filled, value?|checked?, selected?, changed?, error?: {code,
 * message}}]}: a field that failed carries its own error and the others
 * are still filled, unless a field took the page elsewhere (the rest are
 * then skipped, since their refs belong to the page that is gone). Fails
 * as a whole (with the first field's error) only when no field was
 * filled. Each field's action has the defaults of tw-tab-actions.h, within
 * the job's deadline. */
#define TW_TAB_FORM_MAX_FIELDS 40

void tw_tab_form_fill_run (const TwTabJob *job,
                           GTask          *task);

G_END_DECLS

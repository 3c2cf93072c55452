/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-timeline.h"

G_BEGIN_DECLS

/* What tw-timeline-read.c needs of the writer's side. */

/* This run's id: the first part of the names of its sessions' files. */
const char *_tw_timeline_get_run_id (TwTimeline *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TW_TYPE_FEED_MODEL (tw_feed_model_get_type ())
G_DECLARE_FINAL_TYPE (TwFeedModel, tw_feed_model, TW, FEED_MODEL, GObject)

/* How long changes gather before the model passes them on. */
#define TW_FEED_MODEL_BATCH_MS 250

/* How many of the newest items it shows. */
#define TW_FEED_MODEL_MAX_ITEMS 200

TwFeedModel *tw_feed_model_new      (GListModel  *model);
void         tw_feed_model_schedule (TwFeedModel *self);
void         tw_feed_model_flush    (TwFeedModel *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-feed-model.h"

/* The items of a list model, last first, with changes passed on in
 * batches.
 *
 * The activity feed shows the newest call on top, and an agent can make
 * hundreds of calls a second. Every change the feed's list view sees costs
 * a layout and a frame on the main loop, which the next MCP request would
 * wait behind; so the changes of the underlying list gather for at most
 * TW_FEED_MODEL_BATCH_MS and reach the view as one, which a person still
 * sees as immediate. A batch is reported as the rows that came in on top
 * and the rows that dropped off the bottom, so the view only binds rows it
 * did not show before; anything else (a filter change) is reported as a
 * change of the whole list.
 *
 * It shows the newest TW_FEED_MODEL_MAX_ITEMS items only: a list view
 * measures all its rows on every layout, and a feed is for following what
 * happens now, not for reading thousands of calls back. */
struct _TwFeedModel
{
  GObject     parent_instance;

  GListModel *model;
  GPtrArray  *items;     /* what this model shows: newest first, owned */
  guint       flush_id;
};

static GType
tw_feed_model_get_item_type (GListModel *list)
{
  return g_list_model_get_item_type (TW_FEED_MODEL (list)->model);
}

static guint
tw_feed_model_get_n_items (GListModel *list)
{
  return TW_FEED_MODEL (list)->items->len;
}

static gpointer
tw_feed_model_get_item (GListModel *list,
                        guint       position)
{
  TwFeedModel *self = TW_FEED_MODEL (list);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
tw_feed_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = tw_feed_model_get_item_type;
  iface->get_n_items = tw_feed_model_get_n_items;
  iface->get_item = tw_feed_model_get_item;
}

enum {
  FLUSHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (TwFeedModel, tw_feed_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      tw_feed_model_list_model_init))

static GPtrArray *
read_reversed (GListModel *model)
{
  guint n = g_list_model_get_n_items (model);
  guint first = n > TW_FEED_MODEL_MAX_ITEMS ? n - TW_FEED_MODEL_MAX_ITEMS : 0;
  GPtrArray *items = g_ptr_array_new_full (n - first, g_object_unref);

  for (guint i = n; i > first; i--)
    g_ptr_array_add (items, g_list_model_get_item (model, i - 1));

  return items;
}

/* The new list is old rows [0, kept) with @added rows on top: the usual
 * batch of a log that grows at its end and drops its oldest entries.
 * Returns FALSE for any other change. */
static gboolean
find_shift (GPtrArray *old_items,
            GPtrArray *new_items,
            guint     *added,
            guint     *kept)
{
  gpointer first;
  guint k;
  guint m;

  if (old_items->len == 0)
    {
      *added = new_items->len;
      *kept = 0;
      return TRUE;
    }

  first = g_ptr_array_index (old_items, 0);
  for (k = 0; k < new_items->len; k++)
    if (g_ptr_array_index (new_items, k) == first)
      break;

  if (k == new_items->len)
    return FALSE;

  for (m = 0; k + m < new_items->len && m < old_items->len; m++)
    if (g_ptr_array_index (new_items, k + m) != g_ptr_array_index (old_items, m))
      return FALSE;

  if (k + m != new_items->len)
    return FALSE;

  *added = k;
  *kept = m;
  return TRUE;
}

/* Passes on what changed since the last batch, at once. */
void
tw_feed_model_flush (TwFeedModel *self)
{
  g_autoptr(GPtrArray) items = NULL;
  guint n_old;
  guint added;
  guint kept;

  g_return_if_fail (TW_IS_FEED_MODEL (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);

  items = read_reversed (self->model);
  n_old = self->items->len;

  if (find_shift (self->items, items, &added, &kept))
    {
      /* Reported in two steps, each consistent with get_n_items (): the
       * rows that left the bottom, then those that came in on top. */
      if (kept < n_old)
        {
          g_ptr_array_set_size (self->items, kept);
          g_list_model_items_changed (G_LIST_MODEL (self), kept, n_old - kept, 0);
        }
      g_ptr_array_unref (self->items);
      self->items = g_steal_pointer (&items);
      if (added > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, added);
    }
  else
    {
      g_ptr_array_unref (self->items);
      self->items = g_steal_pointer (&items);
      g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, self->items->len);
    }

  g_signal_emit (self, signals[FLUSHED], 0);
}

static gboolean
flush_cb (gpointer user_data)
{
  TwFeedModel *self = user_data;

  self->flush_id = 0;
  tw_feed_model_flush (self);

  return G_SOURCE_REMOVE;
}

/* Asks for a batch soon, for a change of the list or of what its items
 * show; TwFeedModel::flushed tells when it is time to draw the latter. */
void
tw_feed_model_schedule (TwFeedModel *self)
{
  g_return_if_fail (TW_IS_FEED_MODEL (self));

  if (self->flush_id == 0)
    self->flush_id = g_timeout_add (TW_FEED_MODEL_BATCH_MS, flush_cb, self);
}

static void
items_changed_cb (TwFeedModel *self,
                  guint        position,
                  guint        removed,
                  guint        added,
                  GListModel  *model)
{
  tw_feed_model_schedule (self);
}

static void
tw_feed_model_dispose (GObject *object)
{
  TwFeedModel *self = TW_FEED_MODEL (object);

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_clear_object (&self->model);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_feed_model_parent_class)->dispose (object);
}

static void
tw_feed_model_class_init (TwFeedModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_feed_model_dispose;

  /**
   * TwFeedModel::flushed:
   *
   * A batch has been passed on: the time to update what changed in the
   * rows already shown.
   */
  signals[FLUSHED] = g_signal_new ("flushed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_feed_model_init (TwFeedModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Takes a reference on @model; shows its items at once. */
TwFeedModel *
tw_feed_model_new (GListModel *model)
{
  TwFeedModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (TW_TYPE_FEED_MODEL, NULL);
  self->model = g_object_ref (model);
  g_ptr_array_unref (self->items);
  self->items = read_reversed (model);
  g_signal_connect_object (model, "items-changed", G_CALLBACK (items_changed_cb), self,
                           G_CONNECT_SWAPPED);

  return self;
}

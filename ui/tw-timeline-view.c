/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-timeline-view.h"

#include "tw-replay.h"
#include "tw-timeline-export-dialog.h"

struct _TwTimelineView
{
  AdwWindow           parent_instance;

  TwTimeline         *timeline;
  char               *agent_filter;
  char               *tab_filter;
  GCancellable       *cancellable;

  GListStore         *steps;
  GtkSingleSelection *selection;
  GtkListView        *list_view;
  GtkStack           *stack;

  GtkLabel           *title;
  GtkLabel           *error;
  GtkLabel           *arguments;
  GtkLabel           *result;
  GtkPicture         *before;
  GtkPicture         *after;
  GtkButton          *previous;
  GtkButton          *next;
  GtkButton          *show_tab;
  GtkButton          *replay_button;
  GtkLabel           *replay_label;   /* how the last replay went */
  GtkLabel           *difference;     /* expected and found, for the step shown */
  guint               pictures_pending;
  guint               generation;  /* of the step shown, so a late picture is dropped */

  /* The replay running or last run, and the view's position of each of
   * its steps. */
  TwReplay           *replay;
  GArray             *replay_positions;
  GCancellable       *replay_cancellable;
  gboolean            replaying;
};

enum {
  SHOW_TAB,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwTimelineView, tw_timeline_view, ADW_TYPE_WINDOW)

/* The pictures */

typedef struct
{
  TwTimelineView *self;
  GtkPicture     *picture;
  guint           generation;
} PictureLoad;

static void
picture_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PictureLoad *load = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  bytes = g_file_load_bytes_finish (G_FILE (object), result, NULL, NULL);
  if (bytes != NULL && !g_cancellable_is_cancelled (load->self->cancellable) &&
      load->generation == load->self->generation)
    {
      texture = gdk_texture_new_from_bytes (bytes, NULL);
      gtk_picture_set_paintable (load->picture, GDK_PAINTABLE (texture));
    }
  if (!g_cancellable_is_cancelled (load->self->cancellable))
    load->self->pictures_pending--;

  g_object_unref (load->self);
  g_free (load);
}

/* Read off the main thread; a missing picture (made room for) shows
 * nothing. */
static void
load_picture (TwTimelineView *self,
              GtkPicture     *picture,
              const char     *path)
{
  g_autoptr(GFile) file = NULL;
  PictureLoad *load;

  gtk_picture_set_paintable (picture, NULL);
  gtk_widget_set_visible (GTK_WIDGET (picture), path != NULL);
  if (path == NULL)
    return;

  file = g_file_new_for_path (path);
  load = g_new0 (PictureLoad, 1);
  load->self = g_object_ref (self);
  load->picture = picture;
  load->generation = self->generation;
  self->pictures_pending++;
  g_file_load_bytes_async (file, self->cancellable, picture_loaded_cb, load);
}

/* Replay */

static gboolean
replay_index_of (TwTimelineView *self,
                 guint           position,
                 guint          *index)
{
  for (guint i = 0; self->replay != NULL && i < self->replay_positions->len; i++)
    {
      if (g_array_index (self->replay_positions, guint, i) == position)
        {
          *index = i;
          return TRUE;
        }
    }

  return FALSE;
}

TwReplayStatus
tw_timeline_view_get_replay_status (TwTimelineView *self,
                                    guint           position)
{
  guint index;

  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), TW_REPLAY_STEP_PENDING);

  if (!replay_index_of (self, position, &index))
    return TW_REPLAY_STEP_PENDING;

  return tw_replay_get_status (self->replay, index);
}

/* The step shown */

static char *
describe_step (TwTimelineStep *step)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_iso8601 (tw_timeline_step_get_time (step), NULL);
  g_autofree char *clock = time != NULL ? g_date_time_format (time, "%H:%M:%S") : g_strdup ("");
  const char *target = tw_timeline_step_get_target (step);

  return g_strdup_printf ("%s  %s%s%s · %s · %.0f ms", clock, tw_timeline_step_get_tool (step),
                          target != NULL ? " " : "", target != NULL ? target : "",
                          tw_timeline_step_get_agent_name (step) != NULL
                          ? tw_timeline_step_get_agent_name (step) : _("Person"),
                          tw_timeline_step_get_duration_ms (step));
}

static void
show_selected (TwTimelineView *self)
{
  TwTimelineStep *step = gtk_single_selection_get_selected_item (self->selection);
  guint position = gtk_single_selection_get_selected (self->selection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->steps));
  g_autofree char *title = NULL;
  const char *error;

  gtk_widget_set_sensitive (GTK_WIDGET (self->previous), step != NULL && position > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next), step != NULL && position + 1 < n);
  gtk_widget_set_sensitive (GTK_WIDGET (self->show_tab),
                            step != NULL && tw_timeline_step_get_browser_id (step) != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->replay_button),
                            step != NULL && !self->replaying &&
                            tw_timeline_get_browser (self->timeline) != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->difference), FALSE);
  if (step == NULL)
    return;

  {
    guint index;

    if (replay_index_of (self, position, &index) &&
        tw_replay_get_status (self->replay, index) == TW_REPLAY_STEP_DIFFERS)
      {
        g_autofree char *text = g_strdup_printf (_("Replay: %s. Expected %s; found %s."),
                                                 tw_replay_get_detail (self->replay, index),
                                                 tw_replay_get_expected (self->replay, index),
                                                 tw_replay_get_found (self->replay, index));

        gtk_label_set_label (self->difference, text);
        gtk_widget_set_visible (GTK_WIDGET (self->difference), TRUE);
      }
  }

  title = describe_step (step);
  gtk_label_set_label (self->title, title);
  error = tw_timeline_step_get_error (step);
  gtk_label_set_label (self->error, error != NULL ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error), error != NULL);
  gtk_label_set_label (self->arguments, tw_timeline_step_get_arguments (step));
  gtk_label_set_label (self->result, tw_timeline_step_get_result (step));

  self->generation++;
  load_picture (self, self->before, tw_timeline_step_get_before_path (step));
  load_picture (self, self->after, tw_timeline_step_get_after_path (step));
}

static void
selection_changed_cb (TwTimelineView *self)
{
  show_selected (self);
}

static void
previous_clicked_cb (TwTimelineView *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (position != GTK_INVALID_LIST_POSITION && position > 0)
    tw_timeline_view_select (self, position - 1);
}

static void
next_clicked_cb (TwTimelineView *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (position != GTK_INVALID_LIST_POSITION)
    tw_timeline_view_select (self, position + 1);
}

void
tw_timeline_view_show_tab (TwTimelineView *self)
{
  TwTimelineStep *step;

  g_return_if_fail (TW_IS_TIMELINE_VIEW (self));

  step = gtk_single_selection_get_selected_item (self->selection);
  if (step != NULL && tw_timeline_step_get_browser_id (step) != NULL)
    g_signal_emit (self, signals[SHOW_TAB], 0, tw_timeline_step_get_browser_id (step));
}

/* Exports the selected step's session (on the tab shown, when the view
 * shows one tab) to a folder the person picks. */
static void
export_clicked_cb (TwTimelineView *self)
{
  TwTimelineStep *step = gtk_single_selection_get_selected_item (self->selection);
  const char *agent_id = step != NULL ? tw_timeline_step_get_agent_id (step) : self->agent_filter;

  if (agent_id != NULL)
    tw_timeline_export_dialog_show (GTK_WINDOW (self), self->timeline, agent_id, self->tab_filter);
}

/* Loading */

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TwTimelineView) self = user_data;
  g_autoptr(GListModel) all = NULL;
  guint n;

  all = tw_timeline_load_finish (TW_TIMELINE (object), result, NULL);
  if (all == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  n = g_list_model_get_n_items (all);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (all, i);

      if (self->agent_filter != NULL &&
          g_strcmp0 (tw_timeline_step_get_agent_id (step), self->agent_filter) != 0)
        continue;
      if (self->tab_filter != NULL &&
          g_strcmp0 (tw_timeline_step_get_browser_id (step), self->tab_filter) != 0)
        continue;
      g_list_store_append (self->steps, step);
    }

  n = g_list_model_get_n_items (G_LIST_MODEL (self->steps));
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "steps" : "empty");
  if (n > 0)
    tw_timeline_view_select (self, n - 1);
}

/* Rows */

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_list_item_set_child (item, label);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             TwTimelineView           *self)
{
  TwTimelineStep *step = gtk_list_item_get_item (item);
  g_autofree char *description = describe_step (step);
  g_autofree char *text = NULL;
  GtkWidget *label = gtk_list_item_get_child (item);
  TwReplayStatus status = tw_timeline_view_get_replay_status (self,
                                                              gtk_list_item_get_position (item));
  /* What the replay made of the step, before it. */
  static const char * const marks[] = { "", "✓ ", "– ", "✗ " };

  text = g_strconcat (marks[status], description, NULL);
  gtk_label_set_label (GTK_LABEL (label), text);
  if (tw_timeline_step_get_error (step) != NULL || status == TW_REPLAY_STEP_DIFFERS)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
  if (status == TW_REPLAY_STEP_SAME)
    gtk_widget_add_css_class (label, "success");
  else
    gtk_widget_remove_css_class (label, "success");
}

/* GObject */

static void
tw_timeline_view_dispose (GObject *object)
{
  TwTimelineView *self = TW_TIMELINE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->replay_cancellable);
  g_clear_object (&self->replay_cancellable);
  if (self->replay != NULL)
    g_signal_handlers_disconnect_by_data (self->replay, self);
  g_clear_object (&self->replay);
  g_clear_pointer (&self->replay_positions, g_array_unref);
  g_clear_object (&self->timeline);
  g_clear_object (&self->selection);
  g_clear_object (&self->steps);

  G_OBJECT_CLASS (tw_timeline_view_parent_class)->dispose (object);
}

static void
tw_timeline_view_finalize (GObject *object)
{
  TwTimelineView *self = TW_TIMELINE_VIEW (object);

  g_free (self->agent_filter);
  g_free (self->tab_filter);

  G_OBJECT_CLASS (tw_timeline_view_parent_class)->finalize (object);
}

static void
tw_timeline_view_class_init (TwTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_timeline_view_dispose;
  object_class->finalize = tw_timeline_view_finalize;

  /**
   * TwTimelineView::show-tab:
   * @browser_id: the tab of the step shown
   */
  signals[SHOW_TAB] = g_signal_new ("show-tab", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static GtkWidget *
captioned (const char *caption,
           GtkWidget  *child)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (caption);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), child);

  return box;
}

static GtkLabel *
body_label (void)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (label, TRUE);

  return label;
}

static void
tw_timeline_view_init (TwTimelineView *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *list_scroll = gtk_scrolled_window_new ();
  GtkWidget *detail_scroll = gtk_scrolled_window_new ();
  GtkWidget *detail = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *pictures = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *empty = adw_status_page_new ();
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  self->cancellable = g_cancellable_new ();
  self->replay_cancellable = g_cancellable_new ();
  self->steps = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->steps)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb),
                            self);

  gtk_window_set_title (GTK_WINDOW (self), _("Timeline"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1000, 640);

  self->previous = GTK_BUTTON (gtk_button_new_from_icon_name ("go-previous-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->previous), _("Previous Step"));
  g_signal_connect_swapped (self->previous, "clicked", G_CALLBACK (previous_clicked_cb), self);
  self->next = GTK_BUTTON (gtk_button_new_from_icon_name ("go-next-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->next), _("Next Step"));
  g_signal_connect_swapped (self->next, "clicked", G_CALLBACK (next_clicked_cb), self);
  self->show_tab = GTK_BUTTON (gtk_button_new_with_mnemonic (_("Show _Tab")));
  g_signal_connect_swapped (self->show_tab, "clicked", G_CALLBACK (tw_timeline_view_show_tab), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->previous));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->next));
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->show_tab));
  self->replay_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Replay")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->replay_button),
                               _("Run this session again in a new tab, up to the selected step"));
  g_signal_connect_swapped (self->replay_button, "clicked", G_CALLBACK (tw_timeline_view_replay), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->replay_button));
  {
    GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export…"));

    gtk_widget_set_tooltip_text (export, _("Save this session's calls, pictures, network and console to a folder"));
    g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_clicked_cb), self);
    adw_header_bar_pack_end (ADW_HEADER_BAR (header), export);
  }
  gtk_box_append (GTK_BOX (toolbar), header);

  self->replay_label = body_label ();
  gtk_widget_set_margin_top (GTK_WIDGET (self->replay_label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->replay_label), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self->replay_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->replay_label), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->replay_label), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->replay_label));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                                      g_object_ref (factory)));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (list_scroll), GTK_WIDGET (self->list_view));
  gtk_widget_set_size_request (list_scroll, 280, -1);

  self->title = body_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "title-4");
  self->error = body_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->error), "error");
  self->arguments = body_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->arguments), "monospace");
  self->result = body_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->result), "monospace");
  self->before = GTK_PICTURE (gtk_picture_new ());
  self->after = GTK_PICTURE (gtk_picture_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->before), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->after), TRUE);
  gtk_box_set_homogeneous (GTK_BOX (pictures), TRUE);
  gtk_box_append (GTK_BOX (pictures), captioned (_("Before"), GTK_WIDGET (self->before)));
  gtk_box_append (GTK_BOX (pictures), captioned (_("After"), GTK_WIDGET (self->after)));

  gtk_box_append (GTK_BOX (detail), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (detail), GTK_WIDGET (self->error));
  self->difference = body_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->difference), "error");
  gtk_box_append (GTK_BOX (detail), GTK_WIDGET (self->difference));
  gtk_box_append (GTK_BOX (detail), pictures);
  gtk_box_append (GTK_BOX (detail), captioned (_("Arguments"), GTK_WIDGET (self->arguments)));
  gtk_box_append (GTK_BOX (detail), captioned (_("Result"), GTK_WIDGET (self->result)));
  gtk_widget_set_margin_top (detail, 12);
  gtk_widget_set_margin_bottom (detail, 12);
  gtk_widget_set_margin_start (detail, 12);
  gtk_widget_set_margin_end (detail, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (detail_scroll), detail);

  gtk_paned_set_start_child (GTK_PANED (paned), list_scroll);
  gtk_paned_set_end_child (GTK_PANED (paned), detail_scroll);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 340);

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "document-open-recent-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Steps Recorded"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Tool calls of this workspace’s agents are recorded here, "
                                     "with pictures of the tab before and after each action"));

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, paned, "steps");
  gtk_stack_add_named (self->stack, empty, "empty");
  gtk_stack_set_visible_child_name (self->stack, "empty");
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->stack));

  adw_window_set_content (ADW_WINDOW (self), toolbar);
  show_selected (self);
}

GtkWidget *
tw_timeline_view_new (TwTimeline *timeline,
                      const char *agent_id,
                      const char *browser_id)
{
  TwTimelineView *self;

  g_return_val_if_fail (TW_IS_TIMELINE (timeline), NULL);

  self = g_object_new (TW_TYPE_TIMELINE_VIEW, NULL);
  self->timeline = g_object_ref (timeline);
  self->agent_filter = g_strdup (agent_id);
  self->tab_filter = g_strdup (browser_id);
  tw_timeline_load_async (timeline, self->cancellable, loaded_cb, g_object_ref (self));

  return GTK_WIDGET (self);
}

GListModel *
tw_timeline_view_get_steps (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), NULL);

  return G_LIST_MODEL (self->steps);
}

void
tw_timeline_view_select (TwTimelineView *self,
                         guint           position)
{
  g_return_if_fail (TW_IS_TIMELINE_VIEW (self));

  if (position >= g_list_model_get_n_items (G_LIST_MODEL (self->steps)))
    return;

  gtk_single_selection_set_selected (self->selection, position);
}

TwTimelineStep *
tw_timeline_view_get_selected (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), NULL);

  return gtk_single_selection_get_selected_item (self->selection);
}

gboolean
tw_timeline_view_get_pictures_shown (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), FALSE);

  return self->pictures_pending == 0 &&
         (gtk_picture_get_paintable (self->before) != NULL ||
          !gtk_widget_get_visible (GTK_WIDGET (self->before))) &&
         (gtk_picture_get_paintable (self->after) != NULL ||
          !gtk_widget_get_visible (GTK_WIDGET (self->after)));
}

/* Replay */

static void
refresh_row (TwTimelineView *self,
             guint           position)
{
  guint selected = gtk_single_selection_get_selected (self->selection);

  /* The row binds again, with its mark; the selection stays. */
  g_list_model_items_changed (G_LIST_MODEL (self->steps), position, 1, 1);
  if (gtk_single_selection_get_selected (self->selection) != selected)
    gtk_single_selection_set_selected (self->selection, selected);
}

static void
replay_step_finished_cb (TwTimelineView *self,
                         guint           index,
                         TwReplay       *replay)
{
  refresh_row (self, g_array_index (self->replay_positions, guint, index));
}

static void
replay_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TwTimelineView) self = user_data;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TwReplay *replay = TW_REPLAY (object);
  guint n = tw_replay_get_n_steps (replay);

  report = tw_replay_run_finish (replay, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || replay != self->replay)
    return;

  self->replaying = FALSE;
  if (report == NULL)
    {
      text = g_strdup_printf (_("The replay could not start: %s"), error->message);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        {
          if (tw_replay_get_status (replay, i) != TW_REPLAY_STEP_DIFFERS)
            continue;

          text = g_strdup_printf (_("The replay in tab %s stopped at a step that differs: "
                                    "expected %s; found %s."),
                                  tw_replay_get_browser_id (replay) != NULL
                                  ? tw_replay_get_browser_id (replay) : "?",
                                  tw_replay_get_expected (replay, i),
                                  tw_replay_get_found (replay, i));
          /* The step that differs is the one to look at. */
          tw_timeline_view_select (self, g_array_index (self->replay_positions, guint, i));
          break;
        }
      if (text == NULL)
        text = g_strdup_printf (_("Replayed in tab %s: every step as recorded."),
                                tw_replay_get_browser_id (replay));
    }

  gtk_label_set_label (self->replay_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->replay_label), "dim-label");
  show_selected (self);
}

void
tw_timeline_view_replay (TwTimelineView *self)
{
  g_autoptr(GListStore) stretch = NULL;
  TwTimelineStep *selected;
  TwBrowser *browser;
  guint position;
  guint n;

  g_return_if_fail (TW_IS_TIMELINE_VIEW (self));

  selected = gtk_single_selection_get_selected_item (self->selection);
  position = gtk_single_selection_get_selected (self->selection);
  browser = tw_timeline_get_browser (self->timeline);
  if (selected == NULL || browser == NULL || self->replaying)
    return;

  /* The session of the selected step, as the view shows it, up to it. */
  stretch = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  g_clear_pointer (&self->replay_positions, g_array_unref);
  self->replay_positions = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i <= position; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (G_LIST_MODEL (self->steps), i);

      if (g_strcmp0 (tw_timeline_step_get_agent_id (step),
                     tw_timeline_step_get_agent_id (selected)) != 0)
        continue;
      g_list_store_append (stretch, step);
      g_array_append_val (self->replay_positions, i);
    }

  if (self->replay != NULL)
    g_signal_handlers_disconnect_by_data (self->replay, self);
  g_clear_object (&self->replay);
  self->replay = tw_replay_new (browser, G_LIST_MODEL (stretch), 1);
  g_signal_connect_swapped (self->replay, "step-finished", G_CALLBACK (replay_step_finished_cb),
                            self);
  self->replaying = TRUE;

  n = g_list_model_get_n_items (G_LIST_MODEL (self->steps));
  for (guint i = 0; i < n; i++)
    refresh_row (self, i);
  gtk_label_set_label (self->replay_label, _("Replaying in a new tab…"));
  gtk_widget_add_css_class (GTK_WIDGET (self->replay_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->replay_label), TRUE);
  show_selected (self);

  /* The person replays: the tab is the person's. */
  tw_replay_run_async (self->replay, NULL, NULL, self->replay_cancellable, replay_done_cb,
                       g_object_ref (self));
}

gboolean
tw_timeline_view_get_replaying (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), FALSE);

  return self->replaying;
}

const char *
tw_timeline_view_get_replay_summary (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->replay_label))
         ? gtk_label_get_label (self->replay_label) : NULL;
}

const char *
tw_timeline_view_get_difference (TwTimelineView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_VIEW (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->difference))
         ? gtk_label_get_label (self->difference) : NULL;
}

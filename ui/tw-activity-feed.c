/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-activity-feed.h"
#include "tw-agent-badge.h"
#include "tw-feed-model.h"
#include "tw-timeline-view.h"

struct _TwActivityFeed
{
  AdwBin              parent_instance;

  TwBrowser          *browser;
  TwActivityLog      *log;
  TwTimeline         *timeline;
  GtkWidget          *timeline_button;

  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  TwFeedModel        *shown;
  GtkNoSelection     *selection;
  GtkListView        *list_view;
  GtkScrolledWindow  *scrolled;
  GtkStack           *stack;

  /* The filter menus: what they show, and the agent id or browser id
   * behind each item (NULL for "all"). */
  GtkDropDown        *agent_dropdown;
  GtkStringList      *agent_names;
  GPtrArray          *agent_keys;
  GtkDropDown        *tab_dropdown;
  GtkStringList      *tab_names;
  GPtrArray          *tab_keys;

  char               *agent_filter;
  char               *tab_filter;

  /* Rows whose entry changed since they were last drawn, updated
   * together (row → entry). */
  GHashTable         *dirty_rows;

  guint               updating_menus : 1;
};

enum {
  PROP_0,
  PROP_BROWSER,
  N_PROPS
};

enum {
  ENTRY_ACTIVATED,
  SHOW_TAB,
  TIMELINE_OPENED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwActivityFeed, tw_activity_feed, ADW_TYPE_BIN)

/* Filtering */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  TwActivityFeed *self = user_data;
  TwActivityEntry *entry = item;

  if (self->agent_filter != NULL &&
      g_strcmp0 (tw_activity_entry_get_agent_id (entry), self->agent_filter) != 0)
    return FALSE;

  if (self->tab_filter != NULL &&
      g_strcmp0 (tw_activity_entry_get_browser_id (entry), self->tab_filter) != 0)
    return FALSE;

  return TRUE;
}

static guint
find_key (GPtrArray  *keys,
          const char *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), key) == 0)
      return i;

  return GTK_INVALID_LIST_POSITION;
}

static void
select_key (TwActivityFeed *self,
            GtkDropDown    *dropdown,
            GPtrArray      *keys,
            const char     *key)
{
  guint position = find_key (keys, key);

  self->updating_menus = TRUE;
  gtk_drop_down_set_selected (dropdown, position != GTK_INVALID_LIST_POSITION ? position : 0);
  self->updating_menus = FALSE;
}

static void
update_empty (TwActivityFeed *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->shown)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "list");
}

static void
apply_filters (TwActivityFeed *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  /* The person asked for it: shown now, not with the next batch. */
  tw_feed_model_flush (self->shown);
}

/* The agent menu grows as agents appear in the log. */
static void
add_agents (TwActivityFeed *self,
            guint           from)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->log));

  for (guint i = from; i < n; i++)
    {
      g_autoptr(TwActivityEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->log), i);
      const char *id = tw_activity_entry_get_agent_id (entry);

      if (id == NULL || find_key (self->agent_keys, id) != GTK_INVALID_LIST_POSITION)
        continue;

      g_ptr_array_add (self->agent_keys, g_strdup (id));
      self->updating_menus = TRUE;
      gtk_string_list_append (self->agent_names, tw_activity_entry_get_agent_name (entry));
      self->updating_menus = FALSE;
    }
}

static void
rebuild_tabs (TwActivityFeed *self)
{
  GListModel *tabs = tw_browser_get_tabs (self->browser);
  guint n_tabs = g_list_model_get_n_items (tabs);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->tab_names));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_set_size (self->tab_keys, 1);

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);
      const char *title = tw_browser_tab_get_title (tab);

      g_ptr_array_add (self->tab_keys, g_strdup (tw_browser_tab_get_id (tab)));
      g_ptr_array_add (names, title[0] != '\0'
                                ? g_strdup_printf ("%s · %s", tw_browser_tab_get_id (tab), title)
                                : g_strdup (tw_browser_tab_get_id (tab)));
    }
  g_ptr_array_add (names, NULL);

  self->updating_menus = TRUE;
  gtk_string_list_splice (self->tab_names, 1, n_old - 1, (const char * const *) names->pdata);
  self->updating_menus = FALSE;

  /* A tab that closed keeps its entries: its filter stays until changed. */
  if (self->tab_filter != NULL && find_key (self->tab_keys, self->tab_filter) == GTK_INVALID_LIST_POSITION)
    {
      g_autofree char *label = g_strdup_printf (_("%s (closed)"), self->tab_filter);

      g_ptr_array_add (self->tab_keys, g_strdup (self->tab_filter));
      self->updating_menus = TRUE;
      gtk_string_list_append (self->tab_names, label);
      self->updating_menus = FALSE;
    }

  select_key (self, self->tab_dropdown, self->tab_keys, self->tab_filter);
}

static void
log_items_changed_cb (TwActivityFeed *self,
                      guint           position,
                      guint           removed,
                      guint           added,
                      GListModel     *log)
{
  add_agents (self, position);
}

/* The list keeps the row it shows at the top when rows come in above it;
 * a person who was looking at the newest keeps seeing the newest. */
static void
shown_items_changed_cb (TwActivityFeed *self,
                        guint           position,
                        guint           removed,
                        guint           added,
                        GListModel     *model)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scrolled);

  update_empty (self);

  /* Within about a row of the top counts as at the top: the rows that came
   * in a moment ago may have pushed the view down already. */
  if (position == 0 && added > 0 && gtk_adjustment_get_value (adjustment) < 48)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
}

static void
tabs_changed_cb (TwActivityFeed *self)
{
  rebuild_tabs (self);
}

static void
agent_selected_cb (TwActivityFeed *self,
                   GParamSpec     *pspec,
                   GtkDropDown    *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating_menus || selected >= self->agent_keys->len)
    return;

  g_free (self->agent_filter);
  self->agent_filter = g_strdup (g_ptr_array_index (self->agent_keys, selected));
  apply_filters (self);
}

static void
tab_selected_cb (TwActivityFeed *self,
                 GParamSpec     *pspec,
                 GtkDropDown    *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating_menus || selected >= self->tab_keys->len)
    return;

  g_free (self->tab_filter);
  self->tab_filter = g_strdup (g_ptr_array_index (self->tab_keys, selected));
  apply_filters (self);
}

/* Rows */

static char *
format_duration (double ms)
{
  if (ms < 1)
    return g_strdup (_("<1 ms"));
  if (ms < 1000)
    return g_strdup_printf (_("%.0f ms"), ms);
  if (ms < 60000)
    return g_strdup_printf (_("%.1f s"), ms / 1000);

  return g_strdup_printf (_("%.0f min"), ms / 60000);
}

static void
update_row (GtkWidget       *row,
            TwActivityEntry *entry)
{
  GtkLabel *time = g_object_get_data (G_OBJECT (row), "tw-time");
  GtkLabel *agent = g_object_get_data (G_OBJECT (row), "tw-agent");
  TwAgentBadge *badge = g_object_get_data (G_OBJECT (row), "tw-badge");
  TwActivityFeed *feed = g_object_get_data (G_OBJECT (row), "tw-feed");
  GtkLabel *tool = g_object_get_data (G_OBJECT (row), "tw-tool");
  GtkLabel *target = g_object_get_data (G_OBJECT (row), "tw-target");
  GtkImage *icon = g_object_get_data (G_OBJECT (row), "tw-icon");
  GtkLabel *outcome = g_object_get_data (G_OBJECT (row), "tw-outcome");
  g_autofree char *clock = g_date_time_format (tw_activity_entry_get_time (entry), "%H:%M:%S");
  g_autofree char *target_label = tw_activity_entry_dup_target_label (entry);
  g_autoptr(GPtrArray) parts = NULL;
  g_autofree char *where = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *tooltip = NULL;
  const char *tool_name = tw_activity_entry_get_tool (entry);
  const char *browser_id = tw_activity_entry_get_browser_id (entry);
  const char *detail = tw_activity_entry_get_detail (entry);
  const char *mark = NULL;
  int colour = -1;

  gtk_label_set_label (time, clock);
  gtk_label_set_label (agent, tw_activity_entry_get_agent_name (entry));

  /* The agent's badge, as on its tabs; the person's clients have none. */
  if (feed->browser != NULL)
    tw_browser_get_agent_mark (feed->browser, tw_activity_entry_get_agent_id (entry), &colour, &mark);
  tw_agent_badge_set_agent (badge, colour, mark, tw_activity_entry_get_agent_name (entry));
  gtk_label_set_label (tool, g_str_has_prefix (tool_name, "browser_") ? tool_name + 8 : tool_name);

  /* b3 · button “Save” · “hello” */
  parts = g_ptr_array_new ();
  if (browser_id != NULL)
    g_ptr_array_add (parts, (gpointer) browser_id);
  if (target_label != NULL)
    g_ptr_array_add (parts, target_label);
  if (detail != NULL)
    g_ptr_array_add (parts, (gpointer) detail);
  g_ptr_array_add (parts, NULL);
  where = g_strjoinv (" · ", (char **) parts->pdata);
  gtk_label_set_label (target, where);

  gtk_widget_remove_css_class (row, "running");
  gtk_widget_remove_css_class (row, "failed");
  gtk_widget_remove_css_class (row, "succeeded");

  switch (tw_activity_entry_get_state (entry))
    {
    case TW_ACTIVITY_RUNNING:
      gtk_image_set_from_icon_name (icon, "content-loading-symbolic");
      gtk_label_set_label (outcome, _("running"));
      gtk_widget_add_css_class (row, "running");
      break;

    case TW_ACTIVITY_FAILED:
      duration = format_duration (tw_activity_entry_get_duration_ms (entry));
      gtk_image_set_from_icon_name (icon, "dialog-error-symbolic");
      gtk_label_set_label (outcome, tw_activity_entry_get_error_code (entry));
      gtk_widget_add_css_class (row, "failed");
      tooltip = g_strdup_printf ("%s: %s (%s)", tw_activity_entry_get_error_code (entry),
                                 tw_activity_entry_get_error_message (entry), duration);
      break;

    case TW_ACTIVITY_SUCCEEDED:
    default:
      duration = format_duration (tw_activity_entry_get_duration_ms (entry));
      gtk_image_set_from_icon_name (icon, "object-select-symbolic");
      gtk_label_set_label (outcome, duration);
      gtk_widget_add_css_class (row, "succeeded");
      break;
    }

  /* Shown when asked for: setting a tooltip on a row would make GTK look
   * for the pointer, a round trip to the display server on every call. */
  if (tooltip == NULL)
    tooltip = g_steal_pointer (&where);
  g_object_set_data_full (G_OBJECT (row), "tw-tooltip", g_steal_pointer (&tooltip), g_free);
}

static gboolean
query_tooltip_cb (GtkWidget  *row,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (row), "tw-tooltip");

  if (text == NULL || text[0] == '\0')
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
refresh_rows (TwActivityFeed *self)
{
  GHashTableIter iter;
  gpointer row;
  gpointer entry;

  g_hash_table_iter_init (&iter, self->dirty_rows);
  while (g_hash_table_iter_next (&iter, &row, &entry))
    {
      update_row (row, entry);
      g_hash_table_iter_remove (&iter);
    }
}

/* A call that ends changes its row; like new rows, such changes are drawn
 * in batches, so that a burst of calls costs the main loop a few frames
 * rather than one each. */
static void
entry_notify_cb (TwActivityEntry *entry,
                 GParamSpec      *pspec,
                 GtkWidget       *row)
{
  TwActivityFeed *self = g_object_get_data (G_OBJECT (row), "tw-feed");

  g_hash_table_replace (self->dirty_rows, row, g_object_ref (entry));
  tw_feed_model_schedule (self->shown);
}

static GtkWidget *
add_label (GtkWidget  *row,
           const char *key,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (row), label);
  g_object_set_data (G_OBJECT (row), key, label);

  return label;
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TwActivityFeed           *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *badge;
  GtkWidget *label;
  GtkWidget *icon;

  gtk_widget_add_css_class (row, "tw-activity-row");
  g_object_set_data (G_OBJECT (row), "tw-feed", self);
  gtk_widget_set_has_tooltip (row, TRUE);
  g_signal_connect (row, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  add_label (row, "tw-time", "tw-activity-time");
  badge = tw_agent_badge_new (14);
  gtk_box_append (GTK_BOX (row), badge);
  g_object_set_data (G_OBJECT (row), "tw-badge", badge);
  label = add_label (row, "tw-agent", "tw-activity-agent");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
  label = add_label (row, "tw-tool", "tw-activity-tool");
  gtk_label_set_width_chars (GTK_LABEL (label), 9);
  label = add_label (row, "tw-target", "tw-activity-target");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);

  icon = gtk_image_new ();
  gtk_widget_add_css_class (icon, "tw-activity-icon");
  gtk_box_append (GTK_BOX (row), icon);
  g_object_set_data (G_OBJECT (row), "tw-icon", icon);
  add_label (row, "tw-outcome", "tw-activity-outcome");

  gtk_list_item_set_child (item, row);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         TwActivityFeed           *self)
{
  TwActivityEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *row = gtk_list_item_get_child (item);

  update_row (row, entry);
  g_signal_connect_object (entry, "notify", G_CALLBACK (entry_notify_cb), row, 0);
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TwActivityFeed           *self)
{
  TwActivityEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *row = gtk_list_item_get_child (item);

  if (entry != NULL)
    g_signal_handlers_disconnect_by_func (entry, entry_notify_cb, row);
  g_hash_table_remove (self->dirty_rows, row);
}

static void
list_activate_cb (TwActivityFeed *self,
                  guint           position,
                  GtkListView    *list_view)
{
  tw_activity_feed_activate (self, position);
}

/* GObject */

static void
set_browser (TwActivityFeed *self,
             TwBrowser      *browser)
{
  g_assert (self->browser == NULL);

  if (browser == NULL)
    return;

  self->browser = g_object_ref (browser);
  self->log = g_object_ref (tw_browser_get_activity (browser));

  gtk_filter_list_model_set_model (self->filtered, G_LIST_MODEL (self->log));
  tw_feed_model_flush (self->shown);

  g_signal_connect_object (self->log, "items-changed", G_CALLBACK (log_items_changed_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (tw_browser_get_tabs (browser), "items-changed",
                           G_CALLBACK (tabs_changed_cb), self, G_CONNECT_SWAPPED);

  add_agents (self, 0);
  rebuild_tabs (self);
  update_empty (self);
}

static void
tw_activity_feed_dispose (GObject *object)
{
  TwActivityFeed *self = TW_ACTIVITY_FEED (object);

  if (self->browser != NULL)
    g_signal_handlers_disconnect_by_data (tw_browser_get_tabs (self->browser), self);
  if (self->log != NULL)
    g_signal_handlers_disconnect_by_data (self->log, self);

  if (self->filtered != NULL)
    gtk_filter_list_model_set_model (self->filtered, NULL);

  g_clear_object (&self->log);
  g_clear_object (&self->timeline);
  g_clear_object (&self->browser);
  g_clear_object (&self->filtered);
  g_clear_object (&self->shown);
  g_hash_table_remove_all (self->dirty_rows);

  G_OBJECT_CLASS (tw_activity_feed_parent_class)->dispose (object);
}

static void
tw_activity_feed_finalize (GObject *object)
{
  TwActivityFeed *self = TW_ACTIVITY_FEED (object);

  g_clear_pointer (&self->agent_keys, g_ptr_array_unref);
  g_clear_pointer (&self->dirty_rows, g_hash_table_unref);
  g_clear_pointer (&self->tab_keys, g_ptr_array_unref);
  g_clear_pointer (&self->agent_filter, g_free);
  g_clear_pointer (&self->tab_filter, g_free);

  G_OBJECT_CLASS (tw_activity_feed_parent_class)->finalize (object);
}

static void
tw_activity_feed_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TwActivityFeed *self = TW_ACTIVITY_FEED (object);

  switch (prop_id)
    {
    case PROP_BROWSER:
      g_value_set_object (value, self->browser);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_activity_feed_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TwActivityFeed *self = TW_ACTIVITY_FEED (object);

  switch (prop_id)
    {
    case PROP_BROWSER:
      set_browser (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_activity_feed_class_init (TwActivityFeedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_activity_feed_dispose;
  object_class->finalize = tw_activity_feed_finalize;
  object_class->get_property = tw_activity_feed_get_property;
  object_class->set_property = tw_activity_feed_set_property;

  properties[PROP_BROWSER] =
    g_param_spec_object ("browser", NULL, NULL, TW_TYPE_BROWSER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwActivityFeed::entry-activated:
   * @entry: the #TwActivityEntry the person chose
   */
  signals[ENTRY_ACTIVATED] =
    g_signal_new ("entry-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_ACTIVITY_ENTRY);

  /**
   * TwActivityFeed::show-tab:
   * @browser_id: the tab a step of the timeline went to
   */
  signals[SHOW_TAB] =
    g_signal_new ("show-tab", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TwActivityFeed::timeline-opened:
   * @view: the #TwTimelineView the feed opened
   */
  signals[TIMELINE_OPENED] =
    g_signal_new ("timeline-opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TW_TYPE_TIMELINE_VIEW);

  gtk_widget_class_set_css_name (widget_class, "tw-activity-feed");
}

static GtkDropDown *
create_dropdown (GtkStringList *names,
                 const char    *tooltip)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (names)),
                                                            NULL));

  gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown), tooltip);
  gtk_widget_add_css_class (GTK_WIDGET (dropdown), "flat");
  gtk_widget_set_valign (GTK_WIDGET (dropdown), GTK_ALIGN_CENTER);

  return dropdown;
}

static void
tw_activity_feed_init (TwActivityFeed *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Activity"));
  GtkWidget *icon = gtk_image_new_from_icon_name ("view-list-symbolic");
  GtkWidget *empty = gtk_label_new (_("Every browser tool call of this workspace’s agents shows here"));
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  const char *all_agents[] = { _("All Agents"), NULL };
  const char *all_tabs[] = { _("All Tabs"), NULL };

  self->agent_keys = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->agent_keys, NULL);
  self->tab_keys = g_ptr_array_new_with_free_func (g_free);
  self->dirty_rows = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  g_ptr_array_add (self->tab_keys, NULL);

  gtk_widget_add_css_class (header, "tw-activity-header");
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_box_append (GTK_BOX (header), icon);
  gtk_box_append (GTK_BOX (header), title);

  self->agent_names = gtk_string_list_new (all_agents);
  self->agent_dropdown = create_dropdown (self->agent_names, _("Show the calls of one agent"));
  g_object_unref (self->agent_names);
  self->tab_names = gtk_string_list_new (all_tabs);
  self->tab_dropdown = create_dropdown (self->tab_names, _("Show the calls on one tab"));
  g_object_unref (self->tab_names);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->agent_dropdown));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->tab_dropdown));

  /* Shown once there is a timeline to open. */
  self->timeline_button = gtk_button_new_from_icon_name ("document-open-recent-symbolic");
  gtk_widget_set_tooltip_text (self->timeline_button,
                               _("Step through the calls shown, with the tab before and after each"));
  gtk_widget_add_css_class (self->timeline_button, "flat");
  gtk_widget_set_valign (self->timeline_button, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (self->timeline_button, FALSE);
  g_signal_connect_object (self->timeline_button, "clicked", G_CALLBACK (tw_activity_feed_open_timeline),
                           self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (header), self->timeline_button);
  g_signal_connect_object (self->agent_dropdown, "notify::selected",
                           G_CALLBACK (agent_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_dropdown, "notify::selected",
                           G_CALLBACK (tab_selected_cb), self, G_CONNECT_SWAPPED);

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (self->filter));
  /* Newest first: what an agent does now is always in view, however
   * small the person made the feed. */
  self->shown = tw_feed_model_new (G_LIST_MODEL (self->filtered));
  g_signal_connect_object (self->shown, "flushed", G_CALLBACK (refresh_rows), self,
                           G_CONNECT_SWAPPED);
  self->selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->shown)));
  g_signal_connect_object (self->shown, "items-changed", G_CALLBACK (shown_items_changed_cb), self,
                           G_CONNECT_SWAPPED);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);

  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (self->selection),
                                                      g_object_ref (factory)));
  gtk_list_view_set_single_click_activate (self->list_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "tw-activity-list");
  g_signal_connect_object (self->list_view, "activate", G_CALLBACK (list_activate_cb), self,
                           G_CONNECT_SWAPPED);

  self->scrolled = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (self->scrolled, GTK_WIDGET (self->list_view));

  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_label_set_justify (GTK_LABEL (empty), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (empty, "dim-label");

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, empty, "empty");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->scrolled), "list");

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_bin_set_child (ADW_BIN (self), box);

  update_empty (self);
}

GtkWidget *
tw_activity_feed_new (TwBrowser *browser)
{
  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);

  return g_object_new (TW_TYPE_ACTIVITY_FEED, "browser", browser, NULL);
}

TwBrowser *
tw_activity_feed_get_browser (TwActivityFeed *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_FEED (self), NULL);

  return self->browser;
}

GListModel *
tw_activity_feed_get_model (TwActivityFeed *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_FEED (self), NULL);

  return G_LIST_MODEL (self->shown);
}

void
tw_activity_feed_set_agent_filter (TwActivityFeed *self,
                                   const char     *agent_id)
{
  g_return_if_fail (TW_IS_ACTIVITY_FEED (self));

  g_free (self->agent_filter);
  self->agent_filter = g_strdup (agent_id);

  /* An agent with no calls yet still gets its item. */
  if (agent_id != NULL && find_key (self->agent_keys, agent_id) == GTK_INVALID_LIST_POSITION)
    {
      g_ptr_array_add (self->agent_keys, g_strdup (agent_id));
      self->updating_menus = TRUE;
      gtk_string_list_append (self->agent_names, agent_id);
      self->updating_menus = FALSE;
    }

  select_key (self, self->agent_dropdown, self->agent_keys, agent_id);
  apply_filters (self);
}

void
tw_activity_feed_set_tab_filter (TwActivityFeed *self,
                                 const char     *browser_id)
{
  g_return_if_fail (TW_IS_ACTIVITY_FEED (self));

  g_free (self->tab_filter);
  self->tab_filter = g_strdup (browser_id);

  if (self->browser != NULL)
    rebuild_tabs (self);
  apply_filters (self);
}

void
tw_activity_feed_activate (TwActivityFeed *self,
                           guint           position)
{
  g_autoptr(TwActivityEntry) entry = NULL;

  g_return_if_fail (TW_IS_ACTIVITY_FEED (self));

  entry = g_list_model_get_item (G_LIST_MODEL (self->shown), position);
  if (entry != NULL)
    g_signal_emit (self, signals[ENTRY_ACTIVATED], 0, entry);
}

void
tw_activity_feed_set_timeline (TwActivityFeed *self,
                               TwTimeline     *timeline)
{
  g_return_if_fail (TW_IS_ACTIVITY_FEED (self));
  g_return_if_fail (!timeline || TW_IS_TIMELINE (timeline));

  g_set_object (&self->timeline, timeline);
  gtk_widget_set_visible (self->timeline_button, timeline != NULL);
}

static void
timeline_show_tab_cb (TwActivityFeed *self,
                      const char     *browser_id)
{
  g_signal_emit (self, signals[SHOW_TAB], 0, browser_id);
}

void
tw_activity_feed_open_timeline (TwActivityFeed *self)
{
  GtkWidget *view;
  GtkRoot *root;

  g_return_if_fail (TW_IS_ACTIVITY_FEED (self));

  if (self->timeline == NULL)
    return;

  /* The timeline opens on what the feed shows: one agent, one tab, or
   * all. */
  view = tw_timeline_view_new (self->timeline, self->agent_filter, self->tab_filter);
  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (view), GTK_WINDOW (root));
  g_signal_connect_object (view, "show-tab", G_CALLBACK (timeline_show_tab_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_emit (self, signals[TIMELINE_OPENED], 0, view);
  gtk_window_present (GTK_WINDOW (view));
}

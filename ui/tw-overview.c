/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-overview.h"

#include "tw-activity-log.h"
#include "tw-agent-badge.h"
#include "tw-agent-colours.h"
#include "tw-overview-thumbnail.h"

/* A thumbnail's size: three tabs of an agent side by side, two agents a
 * row, so that four agents with three tabs each fit a 1280 × 800 window. */
#define THUMB_WIDTH  168
#define THUMB_HEIGHT 100

/* The group of the person's own tabs. */
#define PERSON_GROUP ""

typedef struct _Card  Card;
typedef struct _Group Group;

struct _TwOverview
{
  AdwBin              parent_instance;

  TwBrowser          *browser;
  TwOverviewPageFunc  page_func;
  gpointer            page_data;

  AdwWindowTitle     *title;
  GtkStack           *stack;
  GtkFlowBox         *groups_box;

  /* While shown: TwBrowserTab -> Card, agent id -> Group. */
  GHashTable         *cards;
  GHashTable         *groups;
  /* Entries whose changes the groups' headers follow. */
  GPtrArray          *watched;

  /* browser id -> why it waits (tw_overview_set_waiting()). */
  GHashTable         *waiting;

  guint               rebuild_source;
  guint               doing_source;
};

struct _Card
{
  TwOverview   *overview;
  TwBrowserTab *tab;
  char         *group;
  GtkWidget    *root;
  GtkWidget    *button;
  GtkWidget    *take_over;
  GtkLabel     *title;
  GtkLabel     *subtitle;
  GtkWidget    *state;
  GtkLabel     *state_label;
  TwAgentBadge *badge;
};

struct _Group
{
  char         *agent_id;
  GtkWidget    *root;
  GtkFlowBox   *cards;
  GtkLabel     *doing;
  GtkWidget    *spinner;
  GtkImage     *doing_icon;
  char         *doing_text;
  guint         n_tabs;
};

enum {
  TAB_ACTIVATED,
  TAKE_OVER,
  CLOSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwOverview, tw_overview, ADW_TYPE_BIN)

static void schedule_rebuild (TwOverview *self);
static void schedule_doing   (TwOverview *self);

static void
card_free (Card *card)
{
  g_signal_handlers_disconnect_by_data (card->tab, card);
  g_clear_object (&card->tab);
  g_free (card->group);
  g_free (card);
}

static void
group_free (Group *group)
{
  g_free (group->agent_id);
  g_free (group->doing_text);
  g_free (group);
}

/* Cards */

/* What the tab waits for from the person, if anything: a handoff comes
 * first, then a step waiting for the person's OK, then what others said,
 * then a pause. */
static const char *
tab_waits_for (TwOverview   *self,
               TwBrowserTab *tab,
               char        **owned)
{
  const char *reason = g_hash_table_lookup (self->waiting, tw_browser_tab_get_id (tab));
  TwApproval *approval = tw_browser_tab_get_approval (tab);

  *owned = NULL;

  if (tw_browser_tab_get_handoff_message (tab) != NULL)
    return *owned = g_strdup_printf (_("Waits for you: %s"), tw_browser_tab_get_handoff_message (tab));

  if (approval != NULL && !tw_approval_get_answered (approval))
    {
      /* Translators: a step waiting for the person's OK, e.g. "Asks to run
       * a script in the page". */
      return *owned = g_strdup_printf (_("Asks to %s"), tw_approval_get_summary (approval));
    }

  if (reason != NULL)
    return reason;

  if (tw_browser_tab_get_paused (tab))
    return _("Paused — agents wait until you resume");

  return NULL;
}

static const char *
tab_title (TwBrowserTab *tab)
{
  const char *title = tw_browser_tab_get_title (tab);
  const char *uri = tw_browser_tab_get_uri (tab);

  if (title[0] != '\0')
    return title;
  if (uri[0] != '\0' && !g_str_equal (uri, "about:blank"))
    return uri;

  return _("New Tab");
}

static void
update_card (Card *card)
{
  TwOverview *self = card->overview;
  TwBrowserTab *tab = card->tab;
  g_autofree char *owned = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *host = NULL;
  g_autofree char *label = NULL;
  const char *waits = tab_waits_for (self, tab, &owned);
  const char *uri = tw_browser_tab_get_uri (tab);
  const char *mark = NULL;
  int colour = -1;
  gboolean paused = tw_browser_tab_get_paused (tab);

  gtk_label_set_label (card->title, tab_title (tab));

  if (uri[0] != '\0')
    {
      g_autoptr(GUri) parsed = g_uri_parse (uri, G_URI_FLAGS_NONE, NULL);

      if (parsed != NULL && g_uri_get_host (parsed) != NULL)
        host = g_strdup (g_uri_get_host (parsed));
    }
  subtitle = host != NULL ? g_strdup_printf ("%s · %s", tw_browser_tab_get_id (tab), host)
                          : g_strdup (tw_browser_tab_get_id (tab));
  gtk_label_set_label (card->subtitle, subtitle);

  tw_browser_get_agent_mark (self->browser, tw_browser_tab_get_owner_id (tab), &colour, &mark);
  tw_agent_badge_set_agent (card->badge, colour, mark, tw_browser_tab_get_owner (tab));
  gtk_widget_set_visible (GTK_WIDGET (card->badge), colour >= 0);

  /* The state on the thumbnail: what the person is waited for, else that
   * an agent works in it now. */
  gtk_widget_remove_css_class (card->state, "waiting");
  gtk_widget_remove_css_class (card->button, "waiting");
  if (waits != NULL)
    {
      gtk_label_set_label (card->state_label, waits);
      gtk_widget_add_css_class (card->state, "waiting");
      gtk_widget_add_css_class (card->button, "waiting");
      gtk_widget_set_visible (card->state, TRUE);
    }
  else if (tw_browser_tab_get_busy (tab))
    {
      gtk_label_set_label (card->state_label, _("Working…"));
      gtk_widget_set_visible (card->state, TRUE);
    }
  else
    {
      gtk_widget_set_visible (card->state, FALSE);
    }
  gtk_widget_set_tooltip_text (card->state, waits);

  /* A screen reader says what the thumbnail's corner shows. */
  if (gtk_widget_get_visible (card->state))
    gtk_accessible_update_property (GTK_ACCESSIBLE (card->button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    gtk_label_get_label (card->state_label), -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (card->button),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  /* Taking over is for tabs agents drive; a paused tab offers to give it
   * back. */
  gtk_widget_set_visible (card->take_over,
                          paused || tw_browser_tab_get_owner (tab) != NULL || tw_browser_tab_get_busy (tab));
  gtk_button_set_icon_name (GTK_BUTTON (card->take_over),
                            paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (card->take_over,
                               paused ? _("Resume Agents in This Tab")
                                      : _("Take Over — pause agents in this tab and show it"));

  label = g_strdup_printf (_("Show tab %s: %s"), tw_browser_tab_get_id (tab), tab_title (tab));
  gtk_accessible_update_property (GTK_ACCESSIBLE (card->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
}

static void
card_tab_notify_cb (TwBrowserTab *tab,
                    GParamSpec   *pspec,
                    Card         *card)
{
  /* A tab that changed hands moves to another group. */
  if (g_str_equal (pspec->name, "owner") || g_str_equal (pspec->name, "owner-id"))
    schedule_rebuild (card->overview);
  else if (!g_str_equal (pspec->name, "progress"))
    update_card (card);
}

static void
card_clicked_cb (GtkButton *button,
                 Card      *card)
{
  g_autoptr(TwBrowserTab) tab = g_object_ref (card->tab);

  g_signal_emit (card->overview, signals[TAB_ACTIVATED], 0, tab);
}

static void
take_over_clicked_cb (GtkButton *button,
                      Card      *card)
{
  g_autoptr(TwBrowserTab) tab = g_object_ref (card->tab);

  /* A paused tab's button gives it back to the agents, in place. */
  if (tw_browser_tab_get_paused (tab))
    {
      tw_browser_tab_set_paused (tab, FALSE);
      return;
    }

  g_signal_emit (card->overview, signals[TAKE_OVER], 0, tab);
}

static Card *
card_new (TwOverview   *self,
          TwBrowserTab *tab,
          const char   *group)
{
  Card *card = g_new0 (Card, 1);
  GtkWidget *page = self->page_func != NULL ? self->page_func (tab, self->page_data) : NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *thumb = gtk_overlay_new ();
  GtkWidget *title_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *picture;

  card->overview = self;
  card->tab = g_object_ref (tab);
  card->group = g_strdup (group);

  /* The live page, scaled: the window keeps every tab's page drawn. */
  picture = tw_overview_thumbnail_new (page, THUMB_WIDTH, THUMB_HEIGHT);
  gtk_overlay_set_child (GTK_OVERLAY (thumb), picture);

  card->state = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  card->state_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (card->state_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (card->state_label, 22);
  gtk_box_append (GTK_BOX (card->state), GTK_WIDGET (card->state_label));
  gtk_widget_add_css_class (card->state, "tw-overview-state");
  gtk_widget_add_css_class (card->state, "osd");
  gtk_widget_set_halign (card->state, GTK_ALIGN_START);
  gtk_widget_set_valign (card->state, GTK_ALIGN_END);
  gtk_overlay_add_overlay (GTK_OVERLAY (thumb), card->state);

  card->badge = TW_AGENT_BADGE (tw_agent_badge_new (14));
  card->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (card->title, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (card->title, 0);
  gtk_label_set_max_width_chars (card->title, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (card->title), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (card->title), "heading");
  gtk_box_append (GTK_BOX (title_row), GTK_WIDGET (card->badge));
  gtk_box_append (GTK_BOX (title_row), GTK_WIDGET (card->title));

  card->subtitle = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (card->subtitle, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (card->subtitle, 0);
  gtk_label_set_max_width_chars (card->subtitle, 1);
  gtk_widget_add_css_class (GTK_WIDGET (card->subtitle), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (card->subtitle), "dim-label");

  gtk_box_append (GTK_BOX (box), thumb);
  gtk_box_append (GTK_BOX (box), title_row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (card->subtitle));

  card->button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (card->button), box);
  gtk_widget_add_css_class (card->button, "card");
  gtk_widget_add_css_class (card->button, "tw-overview-card");
  g_signal_connect (card->button, "clicked", G_CALLBACK (card_clicked_cb), card);

  card->take_over = gtk_button_new ();
  gtk_widget_add_css_class (card->take_over, "osd");
  gtk_widget_add_css_class (card->take_over, "circular");
  gtk_widget_set_halign (card->take_over, GTK_ALIGN_END);
  gtk_widget_set_valign (card->take_over, GTK_ALIGN_START);
  gtk_widget_set_margin_top (card->take_over, 12);
  gtk_widget_set_margin_end (card->take_over, 12);
  g_signal_connect (card->take_over, "clicked", G_CALLBACK (take_over_clicked_cb), card);

  card->root = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (card->root), card->button);
  gtk_overlay_add_overlay (GTK_OVERLAY (card->root), card->take_over);

  g_signal_connect (tab, "notify", G_CALLBACK (card_tab_notify_cb), card);
  update_card (card);

  return card;
}

/* Groups */

/* What an agent's newest call is, in a line: "click button “Save” · b3". */
static char *
describe_entry (TwActivityEntry *entry)
{
  const char *tool = tw_activity_entry_get_tool (entry);
  const char *browser_id = tw_activity_entry_get_browser_id (entry);
  g_autofree char *target = tw_activity_entry_dup_target_label (entry);
  const char *detail = tw_activity_entry_get_detail (entry);
  GString *text = g_string_new (g_str_has_prefix (tool, "browser_") ? tool + 8 : tool);

  if (target != NULL)
    g_string_append_printf (text, " %s", target);
  else if (detail != NULL)
    g_string_append_printf (text, " %s", detail);
  if (browser_id != NULL)
    g_string_append_printf (text, " · %s", browser_id);

  return g_string_free (text, FALSE);
}

static void
update_doing (TwOverview *self,
              Group      *group,
              GHashTable *newest)
{
  TwActivityEntry *entry = g_hash_table_lookup (newest, group->agent_id);
  g_autofree char *what = NULL;

  g_clear_pointer (&group->doing_text, g_free);

  if (entry == NULL)
    {
      group->doing_text = g_strdup (_("No browser calls yet"));
      gtk_widget_set_visible (group->spinner, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (group->doing_icon), FALSE);
    }
  else
    {
      TwActivityState state = tw_activity_entry_get_state (entry);

      what = describe_entry (entry);
      /* Translators: what an agent is doing now, e.g. "Now: click button “Save” · b3". */
      group->doing_text = g_strdup_printf (state == TW_ACTIVITY_RUNNING ? _("Now: %s") : _("Last: %s"),
                                           what);
      gtk_widget_set_visible (group->spinner, state == TW_ACTIVITY_RUNNING);
      gtk_spinner_set_spinning (GTK_SPINNER (group->spinner), state == TW_ACTIVITY_RUNNING);
      gtk_widget_set_visible (GTK_WIDGET (group->doing_icon), state != TW_ACTIVITY_RUNNING);
      gtk_image_set_from_icon_name (group->doing_icon, state == TW_ACTIVITY_FAILED ? "dialog-error-symbolic"
                                                                                  : "object-select-symbolic");
    }

  gtk_label_set_label (group->doing, group->doing_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (group->doing), group->doing_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (group->root), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  group->doing_text, -1);
}

static void
watched_entry_notify_cb (TwOverview *self)
{
  schedule_doing (self);
}

/* Each group's header says what its agent does now: its newest call. */
static gboolean
refresh_doing_cb (gpointer user_data)
{
  TwOverview *self = user_data;
  GListModel *log = G_LIST_MODEL (tw_browser_get_activity (self->browser));
  guint n = g_list_model_get_n_items (log);
  guint wanted = 0;
  g_autoptr(GHashTable) newest = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  GHashTableIter iter;
  gpointer value;

  self->doing_source = 0;

  for (guint i = 0; i < self->watched->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->watched, i), self);
  g_ptr_array_set_size (self->watched, 0);

  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    wanted += ((Group *) value)->agent_id[0] != '\0';

  /* Newest first, until every agent has its call. */
  for (guint i = n; i > 0 && g_hash_table_size (newest) < wanted; i--)
    {
      TwActivityEntry *entry = g_list_model_get_item (log, i - 1);
      const char *agent_id = tw_activity_entry_get_agent_id (entry);

      if (agent_id == NULL || g_hash_table_contains (newest, agent_id) ||
          !g_hash_table_contains (self->groups, agent_id))
        {
          g_object_unref (entry);
          continue;
        }

      g_hash_table_insert (newest, (gpointer) agent_id, entry);
      g_signal_connect_object (entry, "notify", G_CALLBACK (watched_entry_notify_cb), self,
                               G_CONNECT_SWAPPED);
      g_ptr_array_add (self->watched, g_object_ref (entry));
    }

  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Group *group = value;

      if (group->agent_id[0] != '\0')
        update_doing (self, group, newest);
    }

  return G_SOURCE_REMOVE;
}

static void
schedule_doing (TwOverview *self)
{
  if (self->doing_source == 0 && g_hash_table_size (self->groups) > 0)
    self->doing_source = g_idle_add_full (G_PRIORITY_LOW, refresh_doing_cb, self, NULL);
}

static Group *
group_new (TwOverview *self,
           const char *agent_id,
           const char *name,
           gboolean    running)
{
  Group *group = g_new0 (Group, 1);
  /* A group named after its agent, for screen readers to announce. */
  GtkWidget *box = g_object_new (GTK_TYPE_BOX,
                                 "orientation", GTK_ORIENTATION_VERTICAL,
                                 "spacing", 8,
                                 "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                 NULL);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *badge = tw_agent_badge_new (24);
  GtkWidget *label = gtk_label_new (name);
  const char *mark = NULL;
  int colour = -1;

  group->agent_id = g_strdup (agent_id);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);

  tw_browser_get_agent_mark (self->browser, agent_id, &colour, &mark);
  tw_agent_badge_set_agent (TW_AGENT_BADGE (badge), colour, mark, name);
  gtk_widget_set_visible (badge, colour >= 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_add_css_class (label, "title-4");
  gtk_box_append (GTK_BOX (header), badge);
  gtk_box_append (GTK_BOX (header), label);

  if (agent_id[0] != '\0' && !running)
    {
      GtkWidget *ended = gtk_label_new (_("Ended"));

      gtk_widget_add_css_class (ended, "dim-label");
      gtk_box_append (GTK_BOX (header), ended);
    }

  group->spinner = gtk_spinner_new ();
  group->doing_icon = GTK_IMAGE (gtk_image_new ());
  group->doing = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (group->doing, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (group->doing, 0);
  gtk_label_set_max_width_chars (group->doing, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (group->doing), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (group->doing), "dim-label");
  gtk_widget_set_margin_start (group->spinner, 6);
  gtk_widget_set_margin_start (GTK_WIDGET (group->doing_icon), 6);
  gtk_box_append (GTK_BOX (header), group->spinner);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (group->doing_icon));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (group->doing));
  gtk_widget_set_visible (group->spinner, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (group->doing_icon), FALSE);

  group->cards = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (group->cards, GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (group->cards, TRUE);
  gtk_flow_box_set_min_children_per_line (group->cards, 1);
  /* Three to a line, so that two agents share a line of the overview. */
  gtk_flow_box_set_max_children_per_line (group->cards, 3);
  gtk_flow_box_set_column_spacing (group->cards, 12);
  gtk_flow_box_set_row_spacing (group->cards, 12);
  gtk_widget_set_valign (GTK_WIDGET (group->cards), GTK_ALIGN_START);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (group->cards));
  gtk_widget_add_css_class (box, "tw-overview-group");
  group->root = box;

  g_hash_table_insert (self->groups, group->agent_id, group);
  gtk_flow_box_append (self->groups_box, box);

  return group;
}

static void
add_card (TwOverview   *self,
          Group        *group,
          TwBrowserTab *tab)
{
  Card *card = card_new (self, tab, group->agent_id);

  g_hash_table_insert (self->cards, tab, card);
  gtk_flow_box_append (group->cards, card->root);
  group->n_tabs++;
}

static void
clear (TwOverview *self)
{
  GtkWidget *child;

  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  g_clear_handle_id (&self->doing_source, g_source_remove);

  for (guint i = 0; i < self->watched->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->watched, i), self);
  g_ptr_array_set_size (self->watched, 0);

  g_hash_table_remove_all (self->cards);
  g_hash_table_remove_all (self->groups);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->groups_box))) != NULL)
    gtk_flow_box_remove (self->groups_box, child);
}

static void
rebuild (TwOverview *self)
{
  GListModel *tabs = tw_browser_get_tabs (self->browser);
  guint n_tabs = g_list_model_get_n_items (tabs);
  guint n_agents = tw_browser_get_n_agents (self->browser);
  g_autoptr(GPtrArray) person_tabs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *agents_text = NULL;
  g_autofree char *subtitle = NULL;

  clear (self);

  /* The running agents first, in the order they came, each with its tabs;
   * then agents that ended but still have tabs; the person's tabs last. */
  for (guint i = 0; i < n_agents; i++)
    {
      const char *agent_id;
      const char *agent_name;

      tw_browser_get_agent (self->browser, i, &agent_id, &agent_name);
      group_new (self, agent_id, agent_name, TRUE);
    }

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);
      const char *owner_id = tw_browser_tab_get_owner_id (tab);
      Group *group;

      /* The tabs of the person's own clients are the person's too. */
      if (tw_browser_acts_for_person (self->browser, owner_id))
        {
          g_ptr_array_add (person_tabs, g_object_ref (tab));
          continue;
        }

      group = g_hash_table_lookup (self->groups, owner_id);
      if (group == NULL)
        group = group_new (self, owner_id, tw_browser_tab_get_owner (tab),
                           tw_browser_get_agent_running (self->browser, owner_id));
      add_card (self, group, tab);
    }

  if (person_tabs->len > 0)
    {
      Group *group = group_new (self, PERSON_GROUP, _("Your Tabs"), FALSE);

      for (guint i = 0; i < person_tabs->len; i++)
        add_card (self, group, g_ptr_array_index (person_tabs, i));
    }

  /* A running agent without tabs says so, rather than show nothing. */
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, self->groups);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        Group *group = value;

        if (group->n_tabs == 0)
          {
            GtkWidget *none = gtk_label_new (_("No tabs yet"));

            gtk_widget_add_css_class (none, "dim-label");
            gtk_label_set_xalign (GTK_LABEL (none), 0);
            gtk_flow_box_append (group->cards, none);
          }
      }
  }

  agents_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u agent", "%u agents", n_agents),
                                 n_agents);
  /* Translators: the overview's subtitle, e.g. "4 agents · 12 tabs". */
  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u tab", "%s · %u tabs", n_tabs),
                              agents_text, n_tabs);
  adw_window_title_set_subtitle (self->title, subtitle);
  gtk_stack_set_visible_child_name (self->stack, n_tabs == 0 && n_agents == 0 ? "empty" : "groups");

  refresh_doing_cb (self);
}

static gboolean
rebuild_cb (gpointer user_data)
{
  TwOverview *self = user_data;

  self->rebuild_source = 0;
  rebuild (self);

  return G_SOURCE_REMOVE;
}

static void
schedule_rebuild (TwOverview *self)
{
  if (self->rebuild_source == 0 && gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->rebuild_source = g_idle_add (rebuild_cb, self);
}

static void
tabs_changed_cb (TwOverview *self)
{
  schedule_rebuild (self);
}

static void
log_changed_cb (TwOverview *self)
{
  schedule_doing (self);
}

/* Shown, hidden */

static void
tw_overview_map (GtkWidget *widget)
{
  TwOverview *self = TW_OVERVIEW (widget);

  rebuild (self);

  GTK_WIDGET_CLASS (tw_overview_parent_class)->map (widget);
}

static void
tw_overview_unmap (GtkWidget *widget)
{
  TwOverview *self = TW_OVERVIEW (widget);

  GTK_WIDGET_CLASS (tw_overview_parent_class)->unmap (widget);

  /* Hidden, it keeps no thumbnails and watches nothing. */
  clear (self);
}

static gboolean
escape_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  g_signal_emit (widget, signals[CLOSE], 0);

  return TRUE;
}

/* GObject */

static void
tw_overview_dispose (GObject *object)
{
  TwOverview *self = TW_OVERVIEW (object);

  if (self->groups_box != NULL)
    clear (self);

  if (self->browser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->browser, self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_tabs (self->browser), self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_activity (self->browser), self);
    }

  adw_bin_set_child (ADW_BIN (self), NULL);
  self->groups_box = NULL;
  self->stack = NULL;
  self->title = NULL;
  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_overview_parent_class)->dispose (object);
}

static void
tw_overview_finalize (GObject *object)
{
  TwOverview *self = TW_OVERVIEW (object);

  g_clear_pointer (&self->cards, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_hash_table_unref);
  g_clear_pointer (&self->watched, g_ptr_array_unref);
  g_clear_pointer (&self->waiting, g_hash_table_unref);

  G_OBJECT_CLASS (tw_overview_parent_class)->finalize (object);
}

static void
tw_overview_class_init (TwOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_overview_dispose;
  object_class->finalize = tw_overview_finalize;

  widget_class->map = tw_overview_map;
  widget_class->unmap = tw_overview_unmap;

  signals[TAB_ACTIVATED] =
    g_signal_new ("tab-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TW_TYPE_BROWSER_TAB);
  signals[TAKE_OVER] =
    g_signal_new ("take-over", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TW_TYPE_BROWSER_TAB);
  signals[CLOSE] =
    g_signal_new ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_cb, NULL);

  gtk_widget_class_set_css_name (widget_class, "tw-overview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tw_overview_init (TwOverview *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *close = gtk_toggle_button_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *empty = adw_status_page_new ();

  self->cards = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) card_free);
  self->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) group_free);
  self->watched = g_ptr_array_new_with_free_func (g_object_unref);
  self->waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("Overview"), NULL));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Overview"), -1);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));

  /* The same button as in the window's header bar, pressed: it closes. */
  gtk_button_set_icon_name (GTK_BUTTON (close), "view-grid-symbolic");
  gtk_widget_set_tooltip_text (close, _("Leave the Overview"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (close), "win.overview");
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), close);

  self->groups_box = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->groups_box, GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (self->groups_box, TRUE);
  gtk_flow_box_set_min_children_per_line (self->groups_box, 1);
  gtk_flow_box_set_max_children_per_line (self->groups_box, 2);
  gtk_flow_box_set_column_spacing (self->groups_box, 18);
  gtk_flow_box_set_row_spacing (self->groups_box, 18);
  gtk_widget_set_valign (GTK_WIDGET (self->groups_box), GTK_ALIGN_START);
  gtk_widget_add_css_class (GTK_WIDGET (self->groups_box), "tw-overview-groups");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->groups_box));

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "view-grid-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Tabs or Agents"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Agents you launch and the tabs they open show here"));

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, scrolled, "groups");
  gtk_stack_add_named (self->stack, empty, "empty");

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
tw_overview_new (TwBrowser          *browser,
                 TwOverviewPageFunc  page_func,
                 gpointer            user_data)
{
  TwOverview *self;

  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);

  self = g_object_new (TW_TYPE_OVERVIEW, NULL);
  self->browser = g_object_ref (browser);
  self->page_func = page_func;
  self->page_data = user_data;

  g_signal_connect_object (browser, "agents-changed", G_CALLBACK (tabs_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (tw_browser_get_tabs (browser), "items-changed",
                           G_CALLBACK (tabs_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tw_browser_get_activity (browser), "items-changed",
                           G_CALLBACK (log_changed_cb), self, G_CONNECT_SWAPPED);

  return GTK_WIDGET (self);
}

void
tw_overview_set_waiting (TwOverview   *self,
                         TwBrowserTab *tab,
                         const char   *reason)
{
  Card *card;

  g_return_if_fail (TW_IS_OVERVIEW (self));
  g_return_if_fail (TW_IS_BROWSER_TAB (tab));

  if (reason != NULL)
    g_hash_table_replace (self->waiting, g_strdup (tw_browser_tab_get_id (tab)), g_strdup (reason));
  else
    g_hash_table_remove (self->waiting, tw_browser_tab_get_id (tab));

  card = g_hash_table_lookup (self->cards, tab);
  if (card != NULL)
    update_card (card);
}

const char *
tw_overview_get_waiting (TwOverview   *self,
                         TwBrowserTab *tab)
{
  Card *card;

  g_return_val_if_fail (TW_IS_OVERVIEW (self), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  card = g_hash_table_lookup (self->cards, tab);
  if (card == NULL || !gtk_widget_get_visible (card->state) ||
      !gtk_widget_has_css_class (card->state, "waiting"))
    return NULL;

  return gtk_label_get_label (card->state_label);
}

GtkWidget *
tw_overview_get_card (TwOverview   *self,
                      TwBrowserTab *tab)
{
  Card *card;

  g_return_val_if_fail (TW_IS_OVERVIEW (self), NULL);

  card = g_hash_table_lookup (self->cards, tab);

  return card != NULL ? card->root : NULL;
}

const char *
tw_overview_get_card_group (TwOverview   *self,
                            TwBrowserTab *tab)
{
  Card *card;

  g_return_val_if_fail (TW_IS_OVERVIEW (self), NULL);

  card = g_hash_table_lookup (self->cards, tab);

  return card != NULL ? card->group : NULL;
}

const char *
tw_overview_get_agent_doing (TwOverview *self,
                             const char *agent_id)
{
  Group *group;

  g_return_val_if_fail (TW_IS_OVERVIEW (self), NULL);
  g_return_val_if_fail (agent_id != NULL, NULL);

  group = g_hash_table_lookup (self->groups, agent_id);

  return group != NULL ? group->doing_text : NULL;
}

void
tw_overview_activate_card (TwOverview   *self,
                           TwBrowserTab *tab,
                           gboolean      take_over)
{
  Card *card;

  g_return_if_fail (TW_IS_OVERVIEW (self));

  card = g_hash_table_lookup (self->cards, tab);
  if (card == NULL)
    return;

  g_signal_emit_by_name (take_over ? card->take_over : card->button, "clicked");
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-terminal.h"

#include "tw-agent-badge.h"
#include "tw-agent-colours.h"

/* Lines an agent printed stay readable after it scrolled past. */
#define SCROLLBACK_LINES 10000

struct _TwAgentTerminal
{
  AdwBin                parent_instance;

  VteTerminal          *vte;
  GtkWidget            *status_bar;
  GtkImage             *status_icon;
  GtkLabel             *status_label;
  GtkWidget            *stop_button;
  GtkWidget            *restart_button;
  GtkWidget            *menu_button;
  /* The agent's colour along the top, and its badge in the status bar. */
  GtkWidget            *stripe;
  TwAgentBadge         *badge;

  TwAgentTerminalState  state;
  char                 *text;
};

enum {
  CHILD_EXITED,
  RESTART,
  STOP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAgentTerminal, tw_agent_terminal, ADW_TYPE_BIN)

/* The GNOME palette, so agents' colours sit well with the rest of the
 * desktop; the first eight are normal, the last eight bright. */
static const char * const palette_colors[16] = {
  "#241f31", "#c01c28", "#2ec27e", "#f5c211", "#1e78e4", "#9841bb", "#0ab9dc", "#c0bfbc",
  "#5e5c64", "#ed333b", "#57e389", "#f8e45c", "#51a1ff", "#c061cb", "#4fd2fd", "#f6f5f4",
};

static void
update_colors (TwAgentTerminal *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (style);
  GdkRGBA palette[16];
  GdkRGBA foreground;
  GdkRGBA background;

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    gdk_rgba_parse (&palette[i], palette_colors[i]);

  /* The terminal sits in the window like a view: its colours follow the
   * light or dark style of the rest. */
  gdk_rgba_parse (&foreground, dark ? "#ffffff" : "#2e2e2e");
  gdk_rgba_parse (&background, dark ? "#1e1e1e" : "#ffffff");

  vte_terminal_set_colors (self->vte, &foreground, &background, palette, G_N_ELEMENTS (palette));
}

static void
style_dark_cb (TwAgentTerminal *self)
{
  update_colors (self);
}

static void
child_exited_cb (TwAgentTerminal *self,
                 int              status,
                 VteTerminal     *vte)
{
  g_signal_emit (self, signals[CHILD_EXITED], 0, status);
}

static void
stop_clicked_cb (TwAgentTerminal *self)
{
  g_signal_emit (self, signals[STOP], 0);
}

static void
restart_clicked_cb (TwAgentTerminal *self)
{
  g_signal_emit (self, signals[RESTART], 0);
}

/* Spawning */

static void
spawn_cb (VteTerminal *vte,
          GPid         pid,
          GError      *error,
          gpointer     user_data)
{
  g_autoptr(GTask) task = user_data;

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_int (task, pid);
}

void
tw_agent_terminal_spawn_async (TwAgentTerminal     *self,
                               const char          *cwd,
                               const char * const  *argv,
                               const char * const  *env,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TW_IS_AGENT_TERMINAL (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_agent_terminal_spawn_async);

  if (self->vte == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               "The terminal is closed");
      g_object_unref (task);
      return;
    }

  /* VTE adds @env to the app's own environment (and sets TERM), so the
   * agent keeps the PATH, HOME and locale the person has. */
  vte_terminal_spawn_async (self->vte,
                            VTE_PTY_DEFAULT,
                            cwd,
                            (char **) argv,
                            (char **) env,
                            G_SPAWN_SEARCH_PATH,
                            NULL, NULL, NULL,
                            -1,
                            cancellable,
                            spawn_cb,
                            task);
}

GPid
tw_agent_terminal_spawn_finish (TwAgentTerminal  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), -1);
  g_return_val_if_fail (g_task_is_valid (result, self), -1);

  return (GPid) g_task_propagate_int (G_TASK (result), error);
}

/* Status */

void
tw_agent_terminal_set_status (TwAgentTerminal      *self,
                              TwAgentTerminalState  state,
                              const char           *text)
{
  TwAgentTerminalState previous;
  const char *icon = NULL;
  gboolean running;

  g_return_if_fail (TW_IS_AGENT_TERMINAL (self));

  previous = self->state;
  self->state = state;
  g_free (self->text);
  self->text = g_strdup (text ? text : "");

  switch (state)
    {
    case TW_AGENT_TERMINAL_STARTING:
      icon = "content-loading-symbolic";
      break;

    case TW_AGENT_TERMINAL_RUNNING:
      icon = "media-playback-start-symbolic";
      break;

    case TW_AGENT_TERMINAL_EXITED:
      icon = "emblem-ok-symbolic";
      break;

    case TW_AGENT_TERMINAL_FAILED:
    default:
      icon = "dialog-warning-symbolic";
      break;
    }

  running = state == TW_AGENT_TERMINAL_STARTING || state == TW_AGENT_TERMINAL_RUNNING;

  /* An agent may outlive its window and still say how it ended. */
  if (self->vte == NULL)
    return;

  /* A cursor blinking in a terminal where nothing runs any more invites
   * typing that goes nowhere. Only changes of state touch it: while the
   * agent runs, the cursor is the agent's business. */
  if (state != previous && state == TW_AGENT_TERMINAL_STARTING)
    vte_terminal_feed (self->vte, "\x1b[?25h", -1);
  else if (state != previous && !running)
    vte_terminal_feed (self->vte, "\x1b[?25l", -1);

  gtk_image_set_from_icon_name (self->status_icon, icon);
  gtk_label_set_label (self->status_label, self->text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), self->text);
  gtk_widget_set_visible (self->stop_button, running);
  gtk_widget_set_visible (self->restart_button, !running);

  gtk_widget_remove_css_class (self->status_bar, "failed");
  gtk_widget_remove_css_class (self->status_bar, "running");
  gtk_widget_remove_css_class (self->status_bar, "ended");
  if (state == TW_AGENT_TERMINAL_FAILED)
    gtk_widget_add_css_class (self->status_bar, "failed");
  else if (running)
    gtk_widget_add_css_class (self->status_bar, "running");
  else
    gtk_widget_add_css_class (self->status_bar, "ended");
}

TwAgentTerminalState
tw_agent_terminal_get_state (TwAgentTerminal *self)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), TW_AGENT_TERMINAL_FAILED);

  return self->state;
}

const char *
tw_agent_terminal_get_text (TwAgentTerminal *self)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), NULL);

  return self->text;
}

void
tw_agent_terminal_add_notice (TwAgentTerminal *self,
                              const char      *text)
{
  g_auto(GStrv) lines = NULL;
  long column = 0;

  g_return_if_fail (TW_IS_AGENT_TERMINAL (self));
  g_return_if_fail (text != NULL);

  if (self->vte == NULL)
    return;

  /* On a line of its own, dim and italic, one terminal line per line of
   * text; the carriage returns matter because nothing translates newlines
   * here. */
  vte_terminal_get_cursor_position (self->vte, &column, NULL);
  if (column > 0)
    vte_terminal_feed (self->vte, "\r\n", -1);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strdup_printf ("\x1b[2;3m%s\x1b[0m\r\n", lines[i]);

      vte_terminal_feed (self->vte, line, -1);
    }
}

VteTerminal *
tw_agent_terminal_get_vte (TwAgentTerminal *self)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), NULL);

  return self->vte;
}

/* GObject */

static void
tw_agent_terminal_dispose (GObject *object)
{
  TwAgentTerminal *self = TW_AGENT_TERMINAL (object);

  if (self->vte != NULL)
    g_signal_handlers_disconnect_by_data (self->vte, self);

  adw_bin_set_child (ADW_BIN (self), NULL);
  self->vte = NULL;
  self->status_bar = NULL;
  self->status_icon = NULL;
  self->status_label = NULL;
  self->stop_button = NULL;
  self->restart_button = NULL;
  self->menu_button = NULL;
  self->stripe = NULL;
  self->badge = NULL;

  G_OBJECT_CLASS (tw_agent_terminal_parent_class)->dispose (object);
}

static void
tw_agent_terminal_finalize (GObject *object)
{
  TwAgentTerminal *self = TW_AGENT_TERMINAL (object);

  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (tw_agent_terminal_parent_class)->finalize (object);
}

static void
tw_agent_terminal_class_init (TwAgentTerminalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_agent_terminal_dispose;
  object_class->finalize = tw_agent_terminal_finalize;

  signals[CHILD_EXITED] =
    g_signal_new ("child-exited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);
  signals[RESTART] =
    g_signal_new ("restart",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[STOP] =
    g_signal_new ("stop",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "tw-agent-terminal");
}

static void
draw_stripe_cb (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  TwAgentTerminal *self = user_data;
  GdkRGBA rgba;

  if (self->badge == NULL || tw_agent_badge_get_colour (self->badge) < 0)
    return;

  tw_agent_colour_get_rgba (tw_agent_badge_get_colour (self->badge), &rgba);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_paint (cr);
}

static void
tw_agent_terminal_init (TwAgentTerminal *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *scrollbar;
  GtkWidget *spacer;

  self->vte = VTE_TERMINAL (vte_terminal_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->vte), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->vte), TRUE);
  vte_terminal_set_scrollback_lines (self->vte, SCROLLBACK_LINES);
  vte_terminal_set_scroll_on_keystroke (self->vte, TRUE);
  vte_terminal_set_scroll_on_output (self->vte, FALSE);
  vte_terminal_set_mouse_autohide (self->vte, TRUE);
  vte_terminal_set_bold_is_bright (self->vte, TRUE);
  vte_terminal_set_cursor_blink_mode (self->vte, VTE_CURSOR_BLINK_SYSTEM);
  g_signal_connect_object (self->vte, "child-exited", G_CALLBACK (child_exited_cb), self,
                           G_CONNECT_SWAPPED);

  scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL,
                                 gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->vte)));

  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->vte));
  gtk_box_append (GTK_BOX (row), scrollbar);

  self->stripe = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->stripe, -1, 4);
  gtk_widget_set_visible (self->stripe, FALSE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->stripe), draw_stripe_cb, self, NULL);
  gtk_box_append (GTK_BOX (box), self->stripe);
  gtk_box_append (GTK_BOX (box), row);

  self->status_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->status_bar, "tw-agent-status");

  self->status_icon = GTK_IMAGE (gtk_image_new ());
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->status_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->status_label, 0.0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->stop_button = gtk_button_new_from_icon_name ("media-playback-stop-symbolic");
  gtk_widget_set_tooltip_text (self->stop_button, _("Stop Agent"));
  gtk_widget_add_css_class (self->stop_button, "flat");
  g_signal_connect_object (self->stop_button, "clicked", G_CALLBACK (stop_clicked_cb), self,
                           G_CONNECT_SWAPPED);

  self->restart_button = gtk_button_new_with_mnemonic (_("_Restart"));
  gtk_widget_add_css_class (self->restart_button, "flat");
  gtk_widget_set_tooltip_text (self->restart_button,
                               _("Run the agent again, with a new token"));
  g_signal_connect_object (self->restart_button, "clicked", G_CALLBACK (restart_clicked_cb), self,
                           G_CONNECT_SWAPPED);

  self->badge = TW_AGENT_BADGE (tw_agent_badge_new (16));
  gtk_widget_set_visible (GTK_WIDGET (self->badge), FALSE);
  gtk_box_append (GTK_BOX (self->status_bar), GTK_WIDGET (self->badge));
  gtk_box_append (GTK_BOX (self->status_bar), GTK_WIDGET (self->status_icon));
  gtk_box_append (GTK_BOX (self->status_bar), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (self->status_bar), spacer);
  gtk_box_append (GTK_BOX (self->status_bar), self->stop_button);
  gtk_box_append (GTK_BOX (self->status_bar), self->restart_button);

  self->menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->menu_button), "view-more-symbolic");
  gtk_widget_set_tooltip_text (self->menu_button, _("Agent Menu"));
  gtk_widget_add_css_class (self->menu_button, "flat");
  gtk_widget_set_visible (self->menu_button, FALSE);
  gtk_box_append (GTK_BOX (self->status_bar), self->menu_button);
  gtk_box_append (GTK_BOX (box), self->status_bar);

  adw_bin_set_child (ADW_BIN (self), box);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_dark_cb), self, G_CONNECT_SWAPPED);
  update_colors (self);

  tw_agent_terminal_set_status (self, TW_AGENT_TERMINAL_STARTING, _("Starting…"));
}

TwAgentTerminal *
tw_agent_terminal_new (void)
{
  return g_object_new (TW_TYPE_AGENT_TERMINAL, NULL);
}

void
tw_agent_terminal_set_agent (TwAgentTerminal *self,
                             int              colour,
                             const char      *mark,
                             const char      *name)
{
  g_return_if_fail (TW_IS_AGENT_TERMINAL (self));

  if (self->badge == NULL)
    return;

  tw_agent_badge_set_agent (self->badge, colour, mark, name);
  gtk_widget_set_visible (GTK_WIDGET (self->badge), colour >= 0);
  gtk_widget_set_visible (self->stripe, colour >= 0);
  gtk_widget_queue_draw (self->stripe);
}

int
tw_agent_terminal_get_colour (TwAgentTerminal *self)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), -1);

  return self->badge != NULL ? tw_agent_badge_get_colour (self->badge) : -1;
}

/* Adds a caption for each of @menu's "caption" items to @popover. */
static void
add_captions (GtkPopoverMenu *popover,
              GMenuModel     *menu)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);
      g_autofree char *custom = NULL;
      g_autofree char *text = NULL;

      if (g_menu_model_get_item_attribute (menu, i, "custom", "s", &custom) &&
          g_str_has_prefix (custom, "caption") &&
          g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &text))
        {
          GtkWidget *label = gtk_label_new (text);

          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_widget_add_css_class (label, "caption");
          gtk_widget_add_css_class (label, "dim-label");
          gtk_widget_set_margin_start (label, 12);
          gtk_widget_set_margin_end (label, 12);
          gtk_widget_set_margin_top (label, 6);
          gtk_widget_set_margin_bottom (label, 6);
          gtk_popover_menu_add_child (popover, label, custom);
        }

      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) child = g_menu_link_iter_get_value (links);

          add_captions (popover, child);
        }
    }
}

void
tw_agent_terminal_set_menu (TwAgentTerminal *self,
                            GMenuModel      *menu)
{
  GtkPopover *popover;

  g_return_if_fail (TW_IS_AGENT_TERMINAL (self));
  g_return_if_fail (menu == NULL || G_IS_MENU_MODEL (menu));

  if (self->menu_button == NULL)
    return;

  gtk_widget_set_visible (self->menu_button, menu != NULL);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button), menu);

  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (self->menu_button));
  if (menu != NULL && GTK_IS_POPOVER_MENU (popover))
    add_captions (GTK_POPOVER_MENU (popover), menu);
}

GtkMenuButton *
tw_agent_terminal_get_menu_button (TwAgentTerminal *self)
{
  g_return_val_if_fail (TW_IS_AGENT_TERMINAL (self), NULL);

  return GTK_MENU_BUTTON (self->menu_button);
}

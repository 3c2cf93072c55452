/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-launcher.h"

struct _TwAgentLauncher
{
  AdwBin          parent_instance;

  GtkMenuButton  *button;
  GtkPopover     *popover;
  GtkListBox     *list;

  /* What the person typed last, offered again next time. */
  char           *last_command;
};

enum {
  LAUNCH,
  OPENED,
  SETUP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAgentLauncher, tw_agent_launcher, ADW_TYPE_BIN)

typedef struct
{
  char     *id;
  char     *description;
  char     *install_command;
  char     *problem;
  gboolean  needs_command;
  gboolean  installed;
} RowData;

static void
row_data_free (RowData *data)
{
  g_free (data->id);
  g_free (data->description);
  g_free (data->install_command);
  g_free (data->problem);
  g_free (data);
}

static AdwActionRow *
find_row (TwAgentLauncher *self,
          const char      *preset_id)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      RowData *data = g_object_get_data (G_OBJECT (child), "tw-row-data");

      if (data != NULL && g_str_equal (data->id, preset_id))
        return ADW_ACTION_ROW (child);
    }

  return NULL;
}

/* The custom command */

typedef struct
{
  TwAgentLauncher *self;
  GtkEditable     *entry;
  char            *preset_id;
} AskCommand;

static void
ask_command_free (AskCommand *ask)
{
  g_object_unref (ask->self);
  g_free (ask->preset_id);
  g_free (ask);
}

static void
ask_command_closure_free (gpointer  data,
                          GClosure *closure)
{
  ask_command_free (data);
}

static void
command_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     AskCommand       *ask)
{
  g_autofree char *command = NULL;

  if (!g_str_equal (response, "run"))
    return;

  command = g_strstrip (g_strdup (gtk_editable_get_text (ask->entry)));
  if (command[0] == '\0')
    return;

  g_free (ask->self->last_command);
  ask->self->last_command = g_strdup (command);

  g_signal_emit (ask->self, signals[LAUNCH], 0, ask->preset_id, command);
}

static void
command_changed_cb (GtkEditable      *entry,
                    AdwMessageDialog *dialog)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "run", text[0] != '\0');
}

static void
command_activate_cb (GtkEntry         *entry,
                     AdwMessageDialog *dialog)
{
  if (adw_message_dialog_get_response_enabled (dialog, "run"))
    {
      adw_message_dialog_response (dialog, "run");
      gtk_window_close (GTK_WINDOW (dialog));
    }
}

void
tw_agent_launcher_ask_command (TwAgentLauncher *self,
                               const char      *preset_id)
{
  GtkRoot *root;
  GtkWidget *dialog;
  GtkWidget *entry;
  AskCommand *ask;

  g_return_if_fail (TW_IS_AGENT_LAUNCHER (self));
  g_return_if_fail (preset_id != NULL);

  root = gtk_widget_get_root (GTK_WIDGET (self));

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Run a Command"),
                                   _("It runs in the workspace folder as an agent, with a token "
                                     "of its own in TABWRIGHT_MCP_URL, TABWRIGHT_MCP_TOKEN and "
                                     "TABWRIGHT_MCP_CONFIG."));

  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("e.g. node agent.mjs"));
  gtk_widget_add_css_class (entry, "monospace");
  if (self->last_command != NULL)
    gtk_editable_set_text (GTK_EDITABLE (entry), self->last_command);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "run", _("_Run"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "run",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "run");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  ask = g_new0 (AskCommand, 1);
  ask->self = g_object_ref (self);
  ask->entry = GTK_EDITABLE (entry);
  ask->preset_id = g_strdup (preset_id);

  g_signal_connect_data (dialog, "response", G_CALLBACK (command_response_cb), ask,
                         ask_command_closure_free, 0);
  g_signal_connect_object (entry, "changed", G_CALLBACK (command_changed_cb), dialog, 0);
  g_signal_connect_object (entry, "activate", G_CALLBACK (command_activate_cb), dialog, 0);
  command_changed_cb (GTK_EDITABLE (entry), ADW_MESSAGE_DIALOG (dialog));

  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

/* Rows */

static void
row_activated_cb (TwAgentLauncher *self,
                  GtkListBoxRow   *row,
                  GtkListBox      *list)
{
  RowData *data = g_object_get_data (G_OBJECT (row), "tw-row-data");
  g_autofree char *id = NULL;

  if (data == NULL || !data->installed)
    return;

  id = g_strdup (data->id);
  gtk_popover_popdown (self->popover);

  if (data->problem != NULL)
    g_signal_emit (self, signals[SETUP], 0, id, TRUE);
  else if (data->needs_command)
    tw_agent_launcher_ask_command (self, id);
  else
    g_signal_emit (self, signals[LAUNCH], 0, id, NULL);
}

static void
copy_install_cb (GtkButton *button,
                 RowData   *data)
{
  if (data->install_command == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)), data->install_command);
  gtk_button_set_icon_name (button, "object-select-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (button), _("Copied"));
}

static void
setup_clicked_cb (GtkButton *button,
                  RowData   *data)
{
  TwAgentLauncher *self = TW_AGENT_LAUNCHER (gtk_widget_get_ancestor (GTK_WIDGET (button),
                                                                      TW_TYPE_AGENT_LAUNCHER));
  g_autofree char *id = g_strdup (data->id);

  if (self == NULL)
    return;

  gtk_popover_popdown (self->popover);
  g_signal_emit (self, signals[SETUP], 0, id, FALSE);
}

static void
update_row (AdwActionRow *row)
{
  RowData *data = g_object_get_data (G_OBJECT (row), "tw-row-data");
  GtkWidget *copy = g_object_get_data (G_OBJECT (row), "tw-copy-button");
  GtkWidget *setup = g_object_get_data (G_OBJECT (row), "tw-setup-button");

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), data->installed);
  gtk_widget_set_visible (setup, data->installed && data->problem != NULL);

  if (data->installed && data->problem != NULL)
    {
      adw_action_row_set_subtitle (row, data->problem);
      gtk_widget_remove_css_class (GTK_WIDGET (row), "tw-not-installed");
      gtk_widget_set_visible (copy, FALSE);
      return;
    }

  if (data->installed)
    {
      adw_action_row_set_subtitle (row, data->description ? data->description : "");
      gtk_widget_remove_css_class (GTK_WIDGET (row), "tw-not-installed");
      gtk_widget_set_visible (copy, FALSE);
    }
  else if (data->install_command != NULL)
    {
      g_autofree char *subtitle = NULL;
      g_autofree char *tooltip = NULL;

      subtitle = g_strdup_printf (_("Not installed · %s"), data->install_command);
      tooltip = g_strdup_printf (_("Copy “%s”"), data->install_command);
      adw_action_row_set_subtitle (row, subtitle);
      gtk_widget_add_css_class (GTK_WIDGET (row), "tw-not-installed");
      gtk_button_set_icon_name (GTK_BUTTON (copy), "edit-copy-symbolic");
      gtk_widget_set_tooltip_text (copy, tooltip);
      gtk_widget_set_visible (copy, TRUE);
    }
  else
    {
      adw_action_row_set_subtitle (row, _("Not installed"));
      gtk_widget_add_css_class (GTK_WIDGET (row), "tw-not-installed");
      gtk_widget_set_visible (copy, FALSE);
    }
}

void
tw_agent_launcher_add_preset (TwAgentLauncher *self,
                              const char      *preset_id,
                              const char      *name,
                              const char      *description,
                              gboolean         needs_command)
{
  GtkWidget *row;
  GtkWidget *copy;
  GtkWidget *setup;
  RowData *data;

  g_return_if_fail (TW_IS_AGENT_LAUNCHER (self));
  g_return_if_fail (preset_id != NULL);
  g_return_if_fail (name != NULL);
  g_return_if_fail (find_row (self, preset_id) == NULL);

  data = g_new0 (RowData, 1);
  data->id = g_strdup (preset_id);
  data->description = g_strdup (description);
  data->needs_command = needs_command;
  /* A command the person types is looked for when it runs. */
  data->installed = needs_command;

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  g_object_set_data_full (G_OBJECT (row), "tw-row-data", data, (GDestroyNotify) row_data_free);

  copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (copy, "flat");
  g_signal_connect (copy, "clicked", G_CALLBACK (copy_install_cb), data);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), copy);
  g_object_set_data (G_OBJECT (row), "tw-copy-button", copy);

  setup = gtk_button_new ();
  gtk_widget_set_valign (setup, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (setup, FALSE);
  gtk_widget_set_name (setup, "setup-button");
  g_signal_connect (setup, "clicked", G_CALLBACK (setup_clicked_cb), data);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), setup);
  g_object_set_data (G_OBJECT (row), "tw-setup-button", setup);

  if (needs_command)
    adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                               gtk_image_new_from_icon_name ("document-edit-symbolic"));

  gtk_list_box_append (self->list, row);

  if (needs_command)
    update_row (ADW_ACTION_ROW (row));
  else
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Checking…"));
      gtk_widget_set_visible (copy, FALSE);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
    }
}

void
tw_agent_launcher_set_installed (TwAgentLauncher *self,
                                 const char      *preset_id,
                                 gboolean         installed,
                                 const char      *install_command)
{
  AdwActionRow *row;
  RowData *data;

  g_return_if_fail (TW_IS_AGENT_LAUNCHER (self));
  g_return_if_fail (preset_id != NULL);

  row = find_row (self, preset_id);
  if (row == NULL)
    return;

  data = g_object_get_data (G_OBJECT (row), "tw-row-data");
  data->installed = installed;
  g_free (data->install_command);
  data->install_command = g_strdup (install_command);

  update_row (row);
}

void
tw_agent_launcher_set_problem (TwAgentLauncher *self,
                               const char      *preset_id,
                               const char      *problem,
                               const char      *action)
{
  AdwActionRow *row;
  RowData *data;
  GtkWidget *setup;

  g_return_if_fail (TW_IS_AGENT_LAUNCHER (self));
  g_return_if_fail (preset_id != NULL);
  g_return_if_fail (problem == NULL || action != NULL);

  row = find_row (self, preset_id);
  if (row == NULL)
    return;

  data = g_object_get_data (G_OBJECT (row), "tw-row-data");
  g_free (data->problem);
  data->problem = g_strdup (problem);
  setup = g_object_get_data (G_OBJECT (row), "tw-setup-button");
  if (action != NULL)
    gtk_button_set_label (GTK_BUTTON (setup), action);

  /* Until the program is known to be there, it says "Checking…". */
  if (data->installed || data->needs_command)
    update_row (row);
}

void
tw_agent_launcher_remove_all (TwAgentLauncher *self)
{
  GtkWidget *child;

  g_return_if_fail (TW_IS_AGENT_LAUNCHER (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
}

static void
popover_show_cb (TwAgentLauncher *self)
{
  g_signal_emit (self, signals[OPENED], 0);
}

/* GObject */

static void
tw_agent_launcher_dispose (GObject *object)
{
  TwAgentLauncher *self = TW_AGENT_LAUNCHER (object);

  adw_bin_set_child (ADW_BIN (self), NULL);
  self->button = NULL;
  self->popover = NULL;
  self->list = NULL;

  G_OBJECT_CLASS (tw_agent_launcher_parent_class)->dispose (object);
}

static void
tw_agent_launcher_finalize (GObject *object)
{
  TwAgentLauncher *self = TW_AGENT_LAUNCHER (object);

  g_clear_pointer (&self->last_command, g_free);

  G_OBJECT_CLASS (tw_agent_launcher_parent_class)->finalize (object);
}

static void
tw_agent_launcher_class_init (TwAgentLauncherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_agent_launcher_dispose;
  object_class->finalize = tw_agent_launcher_finalize;

  signals[LAUNCH] =
    g_signal_new ("launch",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  signals[SETUP] =
    g_signal_new ("setup",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_BOOLEAN);
  signals[OPENED] =
    g_signal_new ("opened",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
tw_agent_launcher_init (TwAgentLauncher *self)
{
  GtkWidget *content = adw_button_content_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (_("Launch an Agent"));
  GtkWidget *hint = gtk_label_new (_("Each agent runs in a terminal beside the tabs, "
                                     "with a token of its own."));

  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "tw-agent-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("_Agent"));
  adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (content), TRUE);

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0.0);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_add_css_class (hint, "caption");
  gtk_label_set_xalign (GTK_LABEL (hint), 0.0);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 40);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  g_signal_connect_object (self->list, "row-activated", G_CALLBACK (row_activated_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));
  gtk_box_append (GTK_BOX (box), hint);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_size_request (box, 360, -1);

  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->popover, box);
  gtk_widget_add_css_class (GTK_WIDGET (self->popover), "tw-agent-launcher");
  g_signal_connect_object (self->popover, "show", G_CALLBACK (popover_show_cb), self,
                           G_CONNECT_SWAPPED);

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->button, content);
  gtk_menu_button_set_popover (self->button, GTK_WIDGET (self->popover));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("Launch Agent"));

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->button));
}

TwAgentLauncher *
tw_agent_launcher_new (void)
{
  return g_object_new (TW_TYPE_AGENT_LAUNCHER, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-connect-dialog.h"

#include "tw-gemini-extension.h"
#include "tw-gemini-install.h"
#include "tw-mcp-snippets.h"

/* Stands in for the token on screen until the person asks to see it. */
#define HIDDEN_TOKEN "••••••••••••••••"

struct _TwConnectDialog
{
  AdwWindow             parent_instance;

  char                 *url;
  char                 *token;
  char                 *workspace_path;

  AdwToastOverlay      *toast_overlay;
  AdwActionRow         *url_row;
  AdwActionRow         *token_row;
  GtkToggleButton      *reveal_button;
  GtkWidget            *copy_url_button;
  GtkWidget            *copy_token_button;
  GtkWidget            *agents_box;
  GtkLabel             *stdio_label;
  /* One snippet label per row of agent_snippets, in its order. */
  GtkLabel             *agent_labels[6];

  /* Whether Gemini CLI's extension is installed, and the button that
   * installs it once the person agrees. */
  AdwActionRow         *gemini_row;
  GtkWidget            *gemini_button;
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (TwConnectDialog, tw_connect_dialog, ADW_TYPE_WINDOW)

/* The agents the dialog tells how to connect, the same snippets as
 * --print-mcp-config. Gemini CLI's first line installs its extension; the
 * Install button below it writes the same file, once the person has seen
 * it and said yes. */
static const struct {
  const char *title;
  const char *description;
  const char *copied;
  char     *(*snippet) (const char *url,
                        const char *token);
} agent_snippets[] = {
  { N_("Claude Code"), N_("Start Claude Code with this MCP configuration"),
    N_("Claude Code command"), tw_mcp_snippet_claude_command },
  { N_("Codex"), N_("Put the token in the environment, then start Codex with the server"),
    N_("Codex commands"), tw_mcp_snippet_codex },
  { N_("OpenCode"), N_("Start OpenCode with the server added for this run only"),
    N_("OpenCode command"), tw_mcp_snippet_opencode },
  { N_("Gemini CLI"),
    N_("Once, install the tabwright extension, with the Install button below or the first "
       "line (either writes ~/.gemini/extensions/tabwright/gemini-extension.json, which reads "
       "the URL and token from the environment); then set them and start Gemini CLI. Agents "
       "Tabwright launches use the same extension with their own token"),
    N_("Gemini CLI commands"), tw_mcp_snippet_gemini },
  { N_("Copilot CLI"),
    N_("Start GitHub Copilot CLI with the server added for this session only"),
    N_("Copilot CLI command"), tw_mcp_snippet_copilot },
  { N_("Qwen Code"), N_("Start Qwen Code with this MCP configuration"),
    N_("Qwen Code command"), tw_mcp_snippet_qwen },
};

G_STATIC_ASSERT (G_N_ELEMENTS (agent_snippets) == G_N_ELEMENTS (((TwConnectDialog *) NULL)->agent_labels));

/* The row of agent_snippets that gets the Install button. */
#define GEMINI_SNIPPET 3

static gboolean
is_serving (TwConnectDialog *self)
{
  return self->url != NULL && self->token != NULL;
}

static void
update_labels (TwConnectDialog *self)
{
  gboolean revealed = gtk_toggle_button_get_active (self->reveal_button);
  g_autofree char *stdio = tw_mcp_snippet_stdio (self->workspace_path);

  gtk_label_set_label (self->stdio_label, stdio);

  gtk_widget_set_visible (self->agents_box, is_serving (self));
  gtk_widget_set_sensitive (self->copy_url_button, is_serving (self));
  gtk_widget_set_sensitive (self->copy_token_button, is_serving (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->reveal_button), is_serving (self));

  if (is_serving (self))
    {
      /* The snippets carry the token too, so they hide it along with the
       * token row; copying always copies the real thing. */
      const char *shown = revealed ? self->token : HIDDEN_TOKEN;
      adw_action_row_set_subtitle (self->url_row, self->url);
      adw_action_row_set_subtitle (self->token_row, shown);
      for (guint i = 0; i < G_N_ELEMENTS (agent_snippets); i++)
        {
          g_autofree char *snippet = agent_snippets[i].snippet (self->url, shown);

          gtk_label_set_label (self->agent_labels[i], snippet);
        }
    }
  else
    {
      adw_action_row_set_subtitle (self->url_row, _("Not running"));
      adw_action_row_set_subtitle (self->token_row, _("Not running"));
    }

  gtk_button_set_icon_name (GTK_BUTTON (self->reveal_button),
                            revealed ? "view-conceal-symbolic" : "view-reveal-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->reveal_button),
                               revealed ? _("Hide Token") : _("Show Token"));
}

static void
copy_text (TwConnectDialog *self,
           const char      *text,
           const char      *what)
{
  g_autofree char *message = NULL;

  if (text == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);

  message = g_strdup_printf (_("%s copied"), what);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

static void
reveal_toggled_cb (TwConnectDialog *self,
                   GtkToggleButton *button)
{
  update_labels (self);
}

static void
copy_url_cb (TwConnectDialog *self,
             GtkButton       *button)
{
  copy_text (self, self->url, _("URL"));
}

static void
copy_token_cb (TwConnectDialog *self,
               GtkButton       *button)
{
  copy_text (self, self->token, _("Token"));
}

static void
copy_agent_cb (GtkButton *button,
               gpointer   user_data)
{
  TwConnectDialog *self = TW_CONNECT_DIALOG (gtk_widget_get_root (GTK_WIDGET (button)));
  guint i = GPOINTER_TO_UINT (user_data);
  g_autofree char *text = NULL;

  if (is_serving (self))
    text = agent_snippets[i].snippet (self->url, self->token);

  copy_text (self, text, _(agent_snippets[i].copied));
}

/* Gemini CLI's extension */

static void
show_gemini_state (TwConnectDialog        *self,
                   TwGeminiExtensionState  state)
{
  switch (state)
    {
    case TW_GEMINI_EXTENSION_MISSING:
      adw_action_row_set_subtitle (self->gemini_row,
                                   _("Not installed: Gemini CLI gets no browser tools"));
      break;
    case TW_GEMINI_EXTENSION_INSTALLED:
      adw_action_row_set_subtitle (self->gemini_row, _("Installed"));
      break;
    case TW_GEMINI_EXTENSION_DIFFERENT:
      adw_action_row_set_subtitle (self->gemini_row,
                                   _("A different gemini-extension.json is there"));
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
gemini_checked_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TwConnectDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  TwGeminiExtensionState state;

  if (!tw_gemini_extension_check_finish (result, &state, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        adw_action_row_set_subtitle (self->gemini_row, error->message);
      return;
    }

  show_gemini_state (self, state);
}

static void
check_gemini (TwConnectDialog *self)
{
  tw_gemini_extension_check_async (NULL, self->cancellable, gemini_checked_cb,
                                   g_object_ref (self));
}

static void
gemini_installed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(TwConnectDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  gtk_widget_set_sensitive (self->gemini_button, TRUE);
  if (tw_gemini_install_run_finish (result, &error))
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Gemini CLI extension installed")));
  check_gemini (self);
}

static void
install_gemini_cb (TwConnectDialog *self,
                   GtkButton       *button)
{
  gtk_widget_set_sensitive (self->gemini_button, FALSE);
  tw_gemini_install_run_async (GTK_WINDOW (self), NULL, self->cancellable, gemini_installed_cb,
                               g_object_ref (self));
}

static void
add_gemini_row (TwConnectDialog *self,
                GtkWidget       *group)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Install…"));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Tabwright Extension"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Checking…"));
  gtk_widget_set_name (button, "gemini-install-button");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Install Gemini CLI Extension…"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (install_gemini_cb), self,
                           G_CONNECT_SWAPPED);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);

  self->gemini_row = ADW_ACTION_ROW (row);
  self->gemini_button = button;
  check_gemini (self);
}

static void
add_agent_groups (TwConnectDialog *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (agent_snippets); i++)
    {
      GtkWidget *group = adw_preferences_group_new ();
      GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
      GtkWidget *label = gtk_label_new (NULL);

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _(agent_snippets[i].title));
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                             _(agent_snippets[i].description));
      gtk_widget_set_tooltip_text (copy, _("Copy"));
      gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (copy, "flat");
      g_signal_connect (copy, "clicked", G_CALLBACK (copy_agent_cb), GUINT_TO_POINTER (i));
      adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (group), copy);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "card");
      gtk_widget_add_css_class (label, "tw-snippet");
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), label);

      self->agent_labels[i] = GTK_LABEL (label);
      if (i == GEMINI_SNIPPET)
        add_gemini_row (self, group);
      gtk_box_append (GTK_BOX (self->agents_box), group);
    }
}

static void
copy_stdio_cb (TwConnectDialog *self,
               GtkButton       *button)
{
  g_autofree char *text = tw_mcp_snippet_stdio (self->workspace_path);

  copy_text (self, text, _("Command"));
}

static void
tw_connect_dialog_dispose (GObject *object)
{
  TwConnectDialog *self = TW_CONNECT_DIALOG (object);

  /* Replies still on their way hold the dialog, and see this. */
  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (object), TW_TYPE_CONNECT_DIALOG);

  G_OBJECT_CLASS (tw_connect_dialog_parent_class)->dispose (object);
}

static void
tw_connect_dialog_finalize (GObject *object)
{
  TwConnectDialog *self = TW_CONNECT_DIALOG (object);

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->token, g_free);
  g_clear_pointer (&self->workspace_path, g_free);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (tw_connect_dialog_parent_class)->finalize (object);
}

static void
tw_connect_dialog_class_init (TwConnectDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_connect_dialog_dispose;
  object_class->finalize = tw_connect_dialog_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/tabwright/Tabwright/ui/tw-connect-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, token_row);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, reveal_button);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, copy_url_button);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, copy_token_button);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, agents_box);
  gtk_widget_class_bind_template_child (widget_class, TwConnectDialog, stdio_label);
  gtk_widget_class_bind_template_callback (widget_class, reveal_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_url_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_token_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_stdio_cb);
}

static void
tw_connect_dialog_init (TwConnectDialog *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  add_agent_groups (self);
}

GtkWindow *
tw_connect_dialog_new (GtkWindow  *parent,
                       const char *url,
                       const char *token,
                       const char *workspace_path)
{
  TwConnectDialog *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (workspace_path != NULL, NULL);

  self = g_object_new (TW_TYPE_CONNECT_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->url = g_strdup (url);
  self->token = g_strdup (token);
  self->workspace_path = g_strdup (workspace_path);
  update_labels (self);

  return GTK_WINDOW (self);
}

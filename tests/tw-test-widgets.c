/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-widgets.h"

GtkWidget *
tw_test_find_matching (GtkWidget         *root,
                       TwTestWidgetMatch  match,
                       gconstpointer      data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = tw_test_find_matching (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* What a finder looks for: a widget of @type, or else one whose name,
 * style class, button label or label text (@by) is @text. */
typedef struct
{
  GType         type;
  TwTestFindBy  by;
  const char   *text;
} Wanted;

static gboolean
is_wanted (GtkWidget     *widget,
           gconstpointer  data)
{
  const Wanted *wanted = data;

  if (wanted->type != G_TYPE_INVALID)
    return G_TYPE_CHECK_INSTANCE_TYPE (widget, wanted->type);

  switch (wanted->by)
    {
    case TW_TEST_FIND_NAME:
      return g_strcmp0 (gtk_widget_get_name (widget), wanted->text) == 0;
    case TW_TEST_FIND_CLASS:
      return gtk_widget_has_css_class (widget, wanted->text);
    case TW_TEST_FIND_BUTTON:
      return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), wanted->text) == 0;
    case TW_TEST_FIND_LABEL:
      return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), wanted->text) == 0;
    default:
      g_assert_not_reached ();
    }
}

GtkWidget *
tw_test_find_widget (GtkWidget *root,
                     GType      type)
{
  Wanted wanted = { type, 0, NULL };

  g_assert (type != G_TYPE_INVALID);

  return tw_test_find_matching (root, is_wanted, &wanted);
}

GtkWidget *
tw_test_find (GtkWidget    *root,
              TwTestFindBy  by,
              const char   *text)
{
  Wanted wanted = { G_TYPE_INVALID, by, text };

  return tw_test_find_matching (root, is_wanted, &wanted);
}

GtkWidget *
tw_test_find_named (GtkWidget  *root,
                    const char *name)
{
  return tw_test_find (root, TW_TEST_FIND_NAME, name);
}

gboolean
tw_test_label_shows (GtkWidget  *root,
                     const char *text)
{
  return tw_test_find (root, TW_TEST_FIND_LABEL, text) != NULL;
}

gboolean
tw_test_widget_shown (gpointer widget)
{
  return gtk_widget_get_visible (widget);
}

gboolean
tw_test_widget_hidden (gpointer widget)
{
  return !gtk_widget_get_visible (widget);
}

gboolean
tw_test_window_active (gpointer window)
{
  return gtk_window_is_active (window);
}

gboolean
tw_test_menu_has_label (GMenuModel *menu,
                        const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &text) &&
          g_str_equal (text, label))
        return TRUE;

      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) child = g_menu_link_iter_get_value (links);

          if (tw_test_menu_has_label (child, label))
            return TRUE;
        }
    }

  return FALSE;
}

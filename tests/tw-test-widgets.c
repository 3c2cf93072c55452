/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-widgets.h"

GtkWidget *
tw_test_find_widget (GtkWidget *root,
                     GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = tw_test_find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
tw_test_find_named (GtkWidget  *root,
                    const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = tw_test_find_named (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

gboolean
tw_test_label_shows (GtkWidget  *root,
                     const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (tw_test_label_shows (child, text))
        return TRUE;
    }

  return FALSE;
}

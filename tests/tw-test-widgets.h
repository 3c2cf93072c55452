/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What the C tests of the app's windows and dialogs share: finding a
 * widget in a tree of widgets, depth first, as a person finds it on the
 * screen, by what it is, its name or the text it shows. */

/* The first widget of @type in the tree under @root (@root included), or
 * NULL. */
GtkWidget *tw_test_find_widget (GtkWidget  *root,
                                GType       type);
/* The first widget named @name (gtk_widget_set_name(), or the id of a
 * template's object that sets it), or NULL. */
GtkWidget *tw_test_find_named  (GtkWidget  *root,
                                const char *name);
/* TRUE when a label in the tree shows exactly @text. */
gboolean   tw_test_label_shows (GtkWidget  *root,
                                const char *text);

G_END_DECLS

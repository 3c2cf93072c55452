/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What the C tests of the app's windows and dialogs share: finding a
 * widget in a tree of widgets, depth first, as a person finds it on the
 * screen, by what it is, its name or the text it shows, and waiting for
 * one to show or hide. */

/* Whether @widget is the one a search looks for, given the search's @data. */
typedef gboolean (*TwTestWidgetMatch) (GtkWidget     *widget,
                                       gconstpointer  data);

/* The first widget in the tree under @root (@root included) that @match
 * accepts, or NULL. */
GtkWidget *tw_test_find_matching   (GtkWidget         *root,
                                    TwTestWidgetMatch  match,
                                    gconstpointer      data);

/* What tw_test_find() compares its text with. */
typedef enum
{
  TW_TEST_FIND_NAME,     /* the widget's name */
  TW_TEST_FIND_CLASS,    /* one of its style classes */
  TW_TEST_FIND_BUTTON,   /* a button's label, mnemonic included */
  TW_TEST_FIND_LABEL,    /* a label's text */
} TwTestFindBy;

/* The first widget whose @by is @text, or NULL. */
GtkWidget *tw_test_find            (GtkWidget    *root,
                                    TwTestFindBy  by,
                                    const char   *text);
/* The first widget of @type, or NULL. */
GtkWidget *tw_test_find_widget     (GtkWidget  *root,
                                    GType       type);
/* The first widget named @name (gtk_widget_set_name(), or the id of a
 * template's object that sets it), or NULL: TW_TEST_FIND_NAME. */
GtkWidget *tw_test_find_named      (GtkWidget  *root,
                                    const char *name);
/* TRUE when a label in the tree shows exactly @text. */
gboolean   tw_test_label_shows     (GtkWidget  *root,
                                    const char *text);

/* Conditions for tw_test_wait_until(): whether the GtkWidget @widget is
 * visible, or not; whether the GtkWindow @window has the keyboard. */
gboolean   tw_test_widget_shown    (gpointer    widget);
gboolean   tw_test_widget_hidden   (gpointer    widget);
gboolean   tw_test_window_active   (gpointer    window);

/* Whether @menu, or a section or submenu of it, has an item labelled
 * @label. */
gboolean   tw_test_menu_has_label  (GMenuModel *menu,
                                    const char *label);

G_END_DECLS

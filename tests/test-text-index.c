/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-text-index.h"

#include "tw-error.h"

/* The tabs' full-text index (browser_find_in_tabs): ranking, snippets, a
 * query's syntax characters taken as text, versions and removal. */

static TwTextIndex *
new_index (void)
{
  g_autoptr(GError) error = NULL;
  TwTextIndex *index = tw_text_index_new (&error);

  g_assert_no_error (error);
  g_assert_nonnull (index);

  g_assert_true (tw_text_index_put (index, "b1", "v1", "http://127.0.0.1/recipes", "Recipes",
                                    "Bake bread with flour, water and salt. Knead the dough.",
                                    &error));
  g_assert_no_error (error);
  g_assert_true (tw_text_index_put (index, "b2", "v1", "http://127.0.0.1/checkout", "Checkout",
                                    "Enter your card number to pay. Payment is due on delivery. "
                                    "The drop-down lists every country.", &error));
  g_assert_no_error (error);
  g_assert_true (tw_text_index_put (index, "b3", "v1", "http://127.0.0.1/news", "Café news",
                                    "Prices of flour rose. A \"quoted\" word and NEAR a title: "
                                    "column.", &error));
  g_assert_no_error (error);

  return index;
}

static GPtrArray *
search (TwTextIndex *index,
        const char  *query)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *hits = tw_text_index_search (index, query, 10, &error);

  g_assert_no_error (error);
  g_assert_nonnull (hits);

  return hits;
}

static const char *
hit_id (GPtrArray *hits,
        guint      i)
{
  return ((TwTextHit *) g_ptr_array_index (hits, i))->id;
}

static void
test_rank (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  g_autoptr(GPtrArray) hits = NULL;
  TwTextHit *best;

  /* Two pages have "flour"; the one with "bread" and "dough" too is first. */
  hits = search (index, "flour bread dough");
  g_assert_cmpuint (hits->len, ==, 2);
  best = g_ptr_array_index (hits, 0);
  g_assert_cmpstr (best->id, ==, "b1");
  g_assert_cmpstr (best->url, ==, "http://127.0.0.1/recipes");
  g_assert_cmpstr (best->title, ==, "Recipes");
  g_assert_cmpfloat (best->score, >, ((TwTextHit *) g_ptr_array_index (hits, 1))->score);
  g_assert_nonnull (strstr (best->snippet, "**bread**"));
  g_assert_nonnull (strstr (best->snippet, "**dough**"));
  g_assert_cmpstr (hit_id (hits, 1), ==, "b3");
}

static void
test_snippet_and_title (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GPtrArray) by_title = NULL;
  TwTextHit *hit;

  hits = search (index, "PAYMENT");
  g_assert_cmpuint (hits->len, ==, 1);
  hit = g_ptr_array_index (hits, 0);
  g_assert_cmpstr (hit->id, ==, "b2");
  g_assert_nonnull (strstr (hit->snippet, "**Payment** is due"));

  /* English words are stemmed: "kneading" finds "Knead". Snippets are one
   * line. */
  {
    g_autoptr(GPtrArray) stemmed = search (index, "kneading");

    g_assert_cmpuint (stemmed->len, ==, 1);
    hit = g_ptr_array_index (stemmed, 0);
    g_assert_cmpstr (hit->snippet, ==, "Bake bread with flour, water and salt. **Knead** the dough.");
  }

  /* Accents are folded, and a word only in the title gives the title. */
  by_title = search (index, "cafe");
  g_assert_cmpuint (by_title->len, ==, 1);
  hit = g_ptr_array_index (by_title, 0);
  g_assert_cmpstr (hit->id, ==, "b3");
  g_assert_cmpstr (hit->snippet, ==, "**Café** news");
}

static void
test_syntax_is_text (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  static const char * const queries[] = {
    "\"quoted", "quoted\"", "title: column", "NEAR(flour salt)", "drop-down", "-flour",
    "flour*", "^flour", "flour AND OR NOT", "body:flour", "((( flour", "a\"\"b", "{url title}: x",
    NULL,
  };

  for (guint i = 0; queries[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) hits = tw_text_index_search (index, queries[i], 10, &error);

      g_test_message ("query %s", queries[i]);
      g_assert_no_error (error);
      g_assert_nonnull (hits);
    }

  /* A hyphenated word is a phrase of its words. */
  {
    g_autoptr(GPtrArray) hits = search (index, "drop-down");

    g_assert_cmpuint (hits->len, ==, 1);
    g_assert_cmpstr (hit_id (hits, 0), ==, "b2");
  }

  /* NEAR and column names are words to find, not operators. */
  {
    g_autoptr(GPtrArray) hits = search (index, "NEAR title:");

    g_assert_cmpuint (hits->len, ==, 1);
    g_assert_cmpstr (hit_id (hits, 0), ==, "b3");
  }

  /* A minus is no NOT: "-flour" finds the pages with flour. */
  {
    g_autoptr(GPtrArray) hits = search (index, "-flour");

    g_assert_cmpuint (hits->len, ==, 2);
  }
}

static void
test_no_match_and_no_words (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  g_autoptr(GPtrArray) hits = search (index, "zeppelin");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) none = NULL;

  g_assert_cmpuint (hits->len, ==, 0);

  none = tw_text_index_search (index, " \"*\" - ", 10, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_null (none);
  g_assert_null (tw_text_index_build_match ("*-\"()"));
}

static void
test_versions (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  g_autofree char *version = tw_text_index_get_version (index, "b2");
  g_autofree char *replaced = NULL;
  g_autoptr(GPtrArray) old_text = NULL;
  g_autoptr(GPtrArray) new_text = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const open_tabs[] = { "b2", NULL };

  g_assert_cmpstr (version, ==, "v1");
  g_assert_null (tw_text_index_get_version (index, "b9"));

  /* A page read again replaces its row. */
  g_assert_true (tw_text_index_put (index, "b2", "v2", "http://127.0.0.1/done", "Done",
                                    "Thank you for your order.", &error));
  g_assert_no_error (error);
  replaced = tw_text_index_get_version (index, "b2");
  g_assert_cmpstr (replaced, ==, "v2");
  g_assert_cmpuint (tw_text_index_get_n_rows (index), ==, 3);
  old_text = search (index, "payment");
  g_assert_cmpuint (old_text->len, ==, 0);
  new_text = search (index, "order");
  g_assert_cmpuint (new_text->len, ==, 1);
  g_assert_cmpstr (((TwTextHit *) g_ptr_array_index (new_text, 0))->url, ==,
                   "http://127.0.0.1/done");

  /* Closed tabs leave the index. */
  tw_text_index_retain (index, open_tabs);
  g_assert_cmpuint (tw_text_index_get_n_rows (index), ==, 1);
  tw_text_index_remove (index, "b2");
  g_assert_cmpuint (tw_text_index_get_n_rows (index), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&index));
}

static void
test_limit (void)
{
  g_autoptr(TwTextIndex) index = new_index ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) hits = tw_text_index_search (index, "flour", 1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/webview/text-index/rank", test_rank);
  g_test_add_func ("/webview/text-index/snippet-and-title", test_snippet_and_title);
  g_test_add_func ("/webview/text-index/syntax-is-text", test_syntax_is_text);
  g_test_add_func ("/webview/text-index/no-match", test_no_match_and_no_words);
  g_test_add_func ("/webview/text-index/versions", test_versions);
  g_test_add_func ("/webview/text-index/limit", test_limit);

  return g_test_run ();
}

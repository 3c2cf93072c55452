/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>

#include "tw-error.h"
#include "tw-page-runtime.h"
#include "tw-test-webview.h"

/* Snapshot diffs as an agent meets them: a real web view shows
 * tests/fixtures/snapshot-diff/diff.html, the page changes the way an app
 * would (a row added, a button renamed, a node moved, text changed in a
 * shadow root or a frame, a subtree hidden by a class), and the text of
 * browser_snapshot with diff: true must list exactly the lines that
 * changed, each with its mark and ref, under the lines of its ancestors. */

#define CALL_TIMEOUT_MS TW_TEST_TAB_CALL_TIMEOUT_MS

static SoupServer *server;
static char *base;

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  /* /snapshot/… are the pages of the snapshot tests, with both of their
   * servers' names pointing here: {{B}} by another host name, so its
   * frames are of another origin. */
  if (g_str_has_prefix (path, "/snapshot/"))
    {
      g_autofree char *a = g_strconcat (base, "/snapshot", NULL);
      g_autofree char *b = g_strdup_printf ("http://localhost:%s/snapshot", strrchr (base, ':') + 1);

      tw_test_serve_file_of_two (msg, "fixtures", path, a, b);
    }
  else
    {
      tw_test_serve_file (msg, "fixtures/snapshot-diff", path, TRUE);
    }
}

static void
tab_load (TwTestTab  *tab,
          const char *path)
{
  g_autofree char *url = g_strconcat (base, path, NULL);

  tw_test_tab_load (tab, url);
}

/* The fixture of most tests: a tab showing diff.html. */
static void
diff_page_set_up (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  g_autofree char *url = g_strconcat (base, "/diff.html", NULL);

  tw_test_tab_fixture_set_up (fixture, url);
}

static JsonObject *
tab_snapshot (TwTestTab  *tab,
              const char *options_json)
{
  g_autoptr(GError) error = NULL;
  JsonObject *result = tw_test_tab_snapshot (tab, options_json ? options_json : "{}", &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);

  return result;
}

static char *
tab_snapshot_text (TwTestTab  *tab,
                   const char *options_json)
{
  g_autoptr(JsonObject) result = tab_snapshot (tab, options_json);

  return g_strdup (json_object_get_string_member (result, "text"));
}

/* The marked lines of a diff (every line after the first two but the
 * context ones), each as its mark, a space and the line without its
 * indent: "+ - listitem @e12: Row 4". */
static GPtrArray *
marked_lines (const char *diff)
{
  g_auto(GStrv) lines = g_strsplit (diff, "\n", -1);
  GPtrArray *marked = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 2; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *body = line + 1;

      if (line[0] == ' ' || line[0] == '\0' || g_str_has_prefix (line, "… cut at"))
        continue;
      g_assert_true (strchr ("+-~>", line[0]) != NULL);
      while (*body == ' ')
        body++;
      g_ptr_array_add (marked, g_strdup_printf ("%c %s", line[0], body));
    }

  return marked;
}

/* Whether a context line (no mark) of the diff matches @pattern. */
static gboolean
has_context (const char *diff,
             const char *pattern)
{
  g_auto(GStrv) lines = g_strsplit (diff, "\n", -1);

  for (guint i = 2; lines[i] != NULL; i++)
    {
      if (lines[i][0] == ' ' && g_pattern_match_simple (pattern, g_strchug (lines[i])))
        return TRUE;
    }

  return FALSE;
}

typedef struct
{
  const char *name;
  /* What the page does, in its own world. */
  const char *script;
  /* Part of the first line: how much changed. */
  const char *summary;
  /* Every marked line the diff must have, as glob patterns, and no other. */
  const char *marked[4];
  /* A line of an ancestor that must be shown as context. */
  const char *context;
  /* Part of the line of an element of the first snapshot whose ref the
   * marked line keeps. */
  const char *same_ref;
} DiffCase;

static const DiffCase cases[] = {
  {
    "add-row",
    "const li = document.createElement('li'); li.textContent = 'Row 4';"
    "document.getElementById('list').append(li);",
    "1 line added, 0 removed, 0 changed, 0 moved",
    { "+ - listitem @e*: Row 4" },
    "- list @e*",
    NULL,
  },
  {
    "remove-row",
    "document.querySelectorAll('#list li')[1].remove();",
    "0 lines added, 1 removed, 0 changed, 0 moved",
    { "- - listitem @e*: Row 2" },
    "- list @e*",
    NULL,
  },
  {
    "rename-button",
    "document.getElementById('rename').textContent = 'Submit';",
    "0 lines added, 0 removed, 1 changed, 0 moved",
    { "~ - button \"Submit\" @e* (was: button \"Save\")" },
    "- main @e*",
    "button \"Save\"",
  },
  {
    "toggle-checkbox",
    "document.getElementById('agree').click();",
    "0 lines added, 0 removed, 1 changed, 0 moved",
    { "~ - checkbox \"Agree\" @e* [checked] (was: checkbox \"Agree\")" },
    "- main @e*",
    "checkbox \"Agree\"",
  },
  {
    "open-dialog",
    "document.getElementById('dlg').show();",
    "3 lines added, 0 removed, 0 changed, 0 moved",
    { "+ - dialog @e*", "+ - paragraph @e*: Really delete?", "+ - button \"Confirm\" @e*" },
    "- main @e*",
    NULL,
  },
  {
    "type-in-field",
    "const e = document.getElementById('email'); e.value = 'a@b.c';"
    "e.dispatchEvent(new Event('input', { bubbles: true }));",
    "0 lines added, 0 removed, 1 changed, 0 moved",
    { "~ - textbox \"Email\" @e* [value=\"a@b.c\"] (was: textbox \"Email\")" },
    "- main @e*",
    "textbox \"Email\"",
  },
  {
    "move-between-parents",
    "document.getElementById('right').append(document.getElementById('mover'));",
    "0 lines added, 0 removed, 0 changed, 1 moved",
    { "> - button \"Mover\" @e* (moved from under @e*)" },
    "- region \"Right\" @e*",
    "button \"Mover\"",
  },
  {
    "shadow-root-text",
    "document.getElementById('host').shadowRoot.getElementById('sp').textContent = "
    "'Shadow changed';",
    "0 lines added, 0 removed, 1 changed, 0 moved",
    { "~ - paragraph @e*: Shadow changed (was: paragraph: Shadow text)" },
    "- main @e*",
    ": Shadow text",
  },
  {
    "iframe-text",
    "document.querySelector('iframe').contentDocument.getElementById('fp').textContent = "
    "'Frame changed';",
    "0 lines added, 0 removed, 1 changed, 0 moved",
    { "~ - paragraph @e*: Frame changed (was: paragraph: Frame text)" },
    "- iframe \"Embedded\" @e*",
    NULL,
  },
  {
    "hide-with-css",
    "document.getElementById('extra').classList.add('gone');",
    "0 lines added, 2 removed, 0 changed, 0 moved",
    { "- - heading \"Extras\" @e* [level=2]", "- - paragraph @e*: Extra text" },
    "- main @e*",
    NULL,
  },
};

static void
test_case (TwTestTabFixture *fixture,
           gconstpointer     data)
{
  const DiffCase *c = data;
  g_autofree char *before = tab_snapshot_text (fixture->tab, NULL);
  g_autofree char *diff = NULL;
  g_autofree char *again = NULL;
  g_autoptr(GPtrArray) marked = NULL;
  guint expected = 0;

  tw_test_tab_eval (fixture->tab, c->script);
  diff = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  g_test_message ("%s", diff);

  /* The first line says how much changed; the page's line follows. */
  g_assert_true (g_str_has_prefix (diff, "Changes since the previous snapshot: "));
  g_assert_nonnull (strstr (diff, c->summary));
  g_assert_nonnull (strstr (diff, "\nPage: Diff — "));

  marked = marked_lines (diff);
  for (guint i = 0; i < G_N_ELEMENTS (c->marked) && c->marked[i] != NULL; i++, expected++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < marked->len && !found; j++)
        found = g_pattern_match_simple (c->marked[i], g_ptr_array_index (marked, j));
      if (!found)
        g_error ("no marked line like %s in:\n%s", c->marked[i], diff);
    }
  g_assert_cmpuint (marked->len, ==, expected);
  if (!has_context (diff, c->context))
    g_error ("no context line like %s in:\n%s", c->context, diff);

  /* Refs mean what they meant: the changed element keeps its ref. */
  if (c->same_ref != NULL)
    {
      g_autofree char *ref = tw_test_find_ref (before, c->same_ref);

      g_assert_nonnull (strstr (g_ptr_array_index (marked, 0), ref));
    }

  /* The diff became the base: nothing has changed since. */
  again = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  g_assert_true (g_str_has_prefix (again, "No changes since the previous snapshot ("));
}

/* The first diff of a tab has nothing to compare with, and one after a
 * navigation knows the document is new: both give the whole tree. New
 * refs from a diff act like refs from a full snapshot. */
static void
test_first_and_navigation (TwTestTabFixture *fixture,
                           gconstpointer     data)
{
  g_autofree char *first = NULL;
  g_autofree char *none = NULL;
  g_autofree char *added = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) info = NULL;
  g_autoptr(GError) error = NULL;

  first = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  g_assert_true (g_str_has_prefix (first, "No earlier snapshot of this tab to compare with; "
                                   "the full snapshot follows ("));
  g_assert_nonnull (strstr (first, "\n- main @e"));
  g_assert_nonnull (strstr (first, "button \"Save\" @e"));

  none = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  g_assert_true (g_str_has_prefix (none, "No changes since the previous snapshot ("));

  tw_test_tab_eval (fixture->tab, "const b = document.createElement('button'); b.textContent = 'Fresh';"
                    "document.querySelector('main').prepend(b);");
  added = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  ref = tw_test_find_ref (added, "button \"Fresh\"");
  info = tw_test_tab_resolve (fixture->tab, ref, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "role"), ==, "button");
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "Fresh");

  tab_load (fixture->tab, "/frame.html");
  after = tab_snapshot_text (fixture->tab, "{\"diff\": true}");
  g_assert_true (g_str_has_prefix (after, "The page is a new document since the previous "
                                   "snapshot (it navigated or reloaded); the full "
                                   "snapshot follows ("));
  g_assert_nonnull (strstr (after, "\n- button \"In frame\" @e"));
}

/* A diff longer than a reply is cut like a snapshot, and its cursor goes
 * on with the rest of the diff. */
static void
test_paging (TwTestTabFixture *fixture,
             gconstpointer     data)
{
  g_autofree char *base_text = tab_snapshot_text (fixture->tab, NULL);
  g_autoptr(JsonObject) first = NULL;
  g_autoptr(JsonObject) rest = NULL;
  g_autofree char *options = NULL;
  const char *text;
  const char *cursor;

  tw_test_tab_eval (fixture->tab, "for (let i = 0; i < 100; i++) { const li = document.createElement('li');"
                    "li.textContent = 'Added row ' + i; document.getElementById('list').append(li); }");
  first = tab_snapshot (fixture->tab, "{\"diff\": true, \"maxChars\": 1000}");
  text = json_object_get_string_member (first, "text");
  g_assert_true (g_str_has_prefix (text, "Changes since the previous snapshot: 100 lines added, "
                                   "0 removed"));
  g_assert_true (json_object_get_boolean_member (first, "truncated"));
  g_assert_cmpuint (strlen (text), <=, 1000 * 3);
  g_assert_nonnull (strstr (text, "Added row 0"));
  g_assert_null (strstr (text, "Added row 99"));
  cursor = json_object_get_string_member (first, "nextCursor");
  g_assert_nonnull (cursor);

  options = g_strdup_printf ("{\"cursor\": \"%s\", \"maxChars\": 1000000}", cursor);
  rest = tab_snapshot (fixture->tab, options);
  text = json_object_get_string_member (rest, "text");
  g_assert_true (g_str_has_prefix (text, "Page: Diff — "));
  g_assert_nonnull (strstr (text, "(continued from line "));
  g_assert_nonnull (strstr (text, "\n+     - listitem @e"));
  g_assert_nonnull (strstr (text, ": Added row 99"));
  g_assert_false (json_object_get_boolean_member (rest, "truncated"));
}

/* Interactive snapshots and full ones are compared each with their own
 * kind, and bad values of diff are refused. */
static void
test_modes (TwTestTabFixture *fixture,
            gconstpointer     data)
{
  g_autofree char *full = tab_snapshot_text (fixture->tab, NULL);
  g_autofree char *inter = tab_snapshot_text (fixture->tab, "{\"diff\": true, \"interactive\": true}");
  g_autofree char *inter_again = NULL;
  g_autoptr(JsonObject) refused = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_prefix (inter, "No earlier snapshot with these options"));
  tw_test_tab_eval (fixture->tab, "document.getElementById('rename').disabled = true;");
  inter_again = tab_snapshot_text (fixture->tab, "{\"diff\": true, \"interactive\": true}");
  g_assert_nonnull (strstr (inter_again, "0 lines added, 0 removed, 1 changed, 0 moved"));
  g_assert_nonnull (strstr (inter_again, "[disabled] (was: button \"Save\")"));

  refused = tw_test_tab_snapshot (fixture->tab, "{\"diff\": \"yes\"}", &error);
  g_assert_null (refused);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "diff must be true or false");
}

/* The diff of two lists of snapshot lines both ways (snapshot-diff.js):
 * compared only where they differ, and line by line. Where the first
 * applies, it must say exactly what the second says. Answers whether it
 * applied. */
static gboolean
diff_check (TwTestTab  *tab,
            GPtrArray  *before,
            GPtrArray  *after,
            const char *what)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) args = NULL;
  g_autofree char *args_json = NULL;
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *local = NULL;
  g_autofree char *full = NULL;
  JsonObject *object;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "before");
  json_builder_begin_array (builder);
  for (guint i = 0; i < before->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (before, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "after");
  json_builder_begin_array (builder);
  for (guint i = 0; i < after->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (after, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  args = json_builder_get_root (builder);
  args_json = json_to_string (args, FALSE);

  answer = tw_test_tab_call (tab, "diffCheck", args_json, CALL_TIMEOUT_MS, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (answer));
  object = json_node_get_object (answer);
  if (JSON_NODE_HOLDS_NULL (json_object_get_member (object, "local")))
    return FALSE;

  local = json_to_string (json_object_get_member (object, "local"), TRUE);
  full = json_to_string (json_object_get_member (object, "full"), TRUE);
  if (g_strcmp0 (local, full) != 0)
    g_error ("%s: the diff of the lines that differ says\n%s\nbut the diff of every line\n%s",
             what, local, full);
  return TRUE;
}

/* The lines of a snapshot's text, without its header. */
static GPtrArray *
tree_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 1; lines[i] != NULL; i++)
    g_ptr_array_add (out, g_strdup (lines[i]));
  return out;
}

/* A made-up tree of elements and text for the diff, with few names and
 * texts, so that lines repeat under one parent. */
typedef struct
{
  char      *line;      /* without indent or children */
  GPtrArray *kids;      /* of Node, NULL for text */
} Node;

static void
node_free (Node *node)
{
  g_free (node->line);
  g_clear_pointer (&node->kids, g_ptr_array_unref);
  g_free (node);
}

static const char * const texts[] = { "a", "a", "b", "a b" };

static Node *
node_new (GRand *rand,
          guint *next_ref,
          int    depth)
{
  Node *node = g_new0 (Node, 1);
  static const char * const roles[] = { "button", "row", "cell", "list" };

  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      node->line = g_strdup_printf ("- text: %s", texts[g_rand_int_range (rand, 0, 4)]);
      return node;
    }
  node->line = g_strdup_printf ("- %s \"%s\" @e%u", roles[g_rand_int_range (rand, 0, 4)],
                                texts[g_rand_int_range (rand, 0, 4)], (*next_ref)++);
  node->kids = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  for (int k = depth > 4 ? 0 : g_rand_int_range (rand, 0, 6); k > 0; k--)
    g_ptr_array_add (node->kids, node_new (rand, next_ref, depth + 1));
  return node;
}

static void
node_print (GPtrArray *kids,
            guint      level,
            GPtrArray *out)
{
  for (guint i = 0; i < kids->len; i++)
    {
      Node *node = g_ptr_array_index (kids, i);

      g_ptr_array_add (out, g_strdup_printf ("%*s%s", (int) level * 2, "", node->line));
      if (node->kids != NULL)
        node_print (node->kids, level + 1, out);
    }
}

/* Every list of children in the tree, with the index of each child. */
static void
node_places (GPtrArray *kids,
             GPtrArray *lists,
             GArray    *indexes)
{
  for (guint i = 0; i < kids->len; i++)
    {
      Node *node = g_ptr_array_index (kids, i);

      g_ptr_array_add (lists, kids);
      g_array_append_val (indexes, i);
      if (node->kids != NULL)
        node_places (node->kids, lists, indexes);
    }
}

/* One change: a line's text or state, a node removed, added, moved
 * elsewhere or among its siblings, a child appended. */
static void
node_mutate (GPtrArray *root,
             GRand     *rand,
             guint     *next_ref)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();
  g_autoptr(GArray) indexes = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *list;
  guint i, pick;
  Node *node;

  node_places (root, lists, indexes);
  if (lists->len == 0)
    {
      g_ptr_array_add (root, node_new (rand, next_ref, 4));
      return;
    }
  pick = g_rand_int_range (rand, 0, lists->len);
  list = g_ptr_array_index (lists, pick);
  i = g_array_index (indexes, guint, pick);
  node = g_ptr_array_index (list, i);

  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      {
        char *line = node->kids == NULL
          ? g_strdup_printf ("- text: %s", texts[g_rand_int_range (rand, 0, 4)])
          : g_str_has_suffix (node->line, " [checked]")
          ? g_strndup (node->line, strlen (node->line) - strlen (" [checked]"))
          : g_strconcat (node->line, " [checked]", NULL);

        g_free (node->line);
        node->line = line;
        break;
      }
    case 1:
      g_ptr_array_remove_index (list, i);
      break;
    case 2:
      g_ptr_array_insert (list, i, node_new (rand, next_ref, 4));
      break;
    case 3:
      {
        g_autoptr(GPtrArray) targets = g_ptr_array_new ();
        g_autoptr(GArray) unused = g_array_new (FALSE, FALSE, sizeof (guint));
        GPtrArray *target;

        g_ptr_array_steal_index (list, i);
        node_places (root, targets, unused);
        target = targets->len > 0 ? g_ptr_array_index (targets, g_rand_int_range (rand, 0, targets->len))
                                  : root;
        g_ptr_array_insert (target, g_rand_int_range (rand, 0, target->len + 1), node);
        break;
      }
    case 4:
      if (i > 0)
        {
          g_ptr_array_steal_index (list, i);
          g_ptr_array_insert (list, i - 1, node);
        }
      break;
    default:
      if (node->kids != NULL)
        g_ptr_array_add (node->kids, node_new (rand, next_ref, 5));
      break;
    }
}

/* The diff of a small change compares only the lines that differ, and
 * says exactly what comparing every line says: seeded made-up trees whose
 * lines repeat under one parent, changed one or two ways at a time. */
static void
test_local (TwTestTabFixture *fixture,
            gconstpointer     data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  guint next_ref = 1;
  guint applied = 0;
  guint total = 0;

  for (guint t = 0; t < 150; t++)
    {
      g_autoptr(GPtrArray) root = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);

      for (int k = 1 + g_rand_int_range (rand, 0, 4); k > 0; k--)
        g_ptr_array_add (root, node_new (rand, &next_ref, 0));
      for (guint round = 0; round < 4; round++)
        {
          g_autoptr(GPtrArray) before = g_ptr_array_new_with_free_func (g_free);
          g_autoptr(GPtrArray) after = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *what = g_strdup_printf ("tree %u, change %u", t, round);

          node_print (root, 0, before);
          for (int k = 1 + g_rand_int_range (rand, 0, 2); k > 0; k--)
            node_mutate (root, rand, &next_ref);
          node_print (root, 0, after);
          if (diff_check (fixture->tab, before, after, what))
            applied++;
          total++;
        }
    }
  g_test_message ("%u of %u diffs compared only the lines that differ", applied, total);
  g_assert_cmpuint (applied, >, total / 3);
}

/* The incremental page model: whatever the page did, a snapshot that may
 * reuse what the last walk printed, or walk only what changed, says exactly
 * what a full walk says. Random changes (seeded, so a failure repeats; each
 * page its own seeds) on the pages of the snapshot tests: shadow roots,
 * frames, hidden content, live regions, forms, a modal dialog, names from
 * other elements, tables, states; among them changes no mutation records
 * (a value, checked or selected set by script, a focus, a style sheet
 * grown). Rounds without a change must be served from the model. */
static const char * const model_pages[] = {
  "/diff.html",
  "/snapshot/shadow.html",
  "/snapshot/frames.html",
  "/snapshot/hidden.html",
  "/snapshot/forms.html",
  "/snapshot/roles-implicit.html",
  "/snapshot/modal.html",
  /* Past MODEL_STRICT_PAGES, only the comparison with a full walk: events
   * the page fires late (a blur after hiding the focused element) may
   * keep a round without a change from being served from the model. */
  "/snapshot/hidden-fast.html",
  "/snapshot/roles-context.html",
  "/snapshot/roles-explicit.html",
  "/snapshot/names-aria.html",
  "/snapshot/names-content.html",
  "/snapshot/names-native.html",
  "/snapshot/shaping.html",
  "/snapshot/states.html",
};

#define MODEL_STRICT_PAGES 7
#define MODEL_ROUNDS 60

static JsonObject *
runtime_snapshot (TwTestTab  *tab,
                  const char *args_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tw_test_tab_call (tab, "snapshot", args_json, CALL_TIMEOUT_MS, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

/* The snapshot options the model tests compare: quick ones may reuse what
 * the page model kept, full ones (noCache) walk the whole page. */
static const char model_quick[] = "{\"maxChars\": 1000000, \"budgetMs\": 20000}";
static const char model_full[] = "{\"maxChars\": 1000000, \"budgetMs\": 20000, \"noCache\": true}";
static const char model_interactive[] =
  "{\"maxChars\": 1000000, \"budgetMs\": 20000, \"interactive\": true}";
static const char model_interactive_full[] =
  "{\"maxChars\": 1000000, \"budgetMs\": 20000, \"interactive\": true, \"noCache\": true}";

/* The four snapshots of a model test's turn: each quick one after one of
 * its own kind, so that it takes lines from that print (the whole page's
 * first in even turns, the interactive one's in odd ones). TRUE when the
 * quick ones print what the full walks print. */
static gboolean
model_snapshots (TwTestTab   *tab,
                 guint        turn,
                 JsonObject **quick,
                 JsonObject **full,
                 JsonObject **interactive,
                 JsonObject **interactive_full)
{
  if (turn % 2 == 0)
    {
      *quick = runtime_snapshot (tab, model_quick);
      *interactive = runtime_snapshot (tab, model_interactive);
      *full = runtime_snapshot (tab, model_full);
      *interactive_full = runtime_snapshot (tab, model_interactive_full);
    }
  else
    {
      *interactive = runtime_snapshot (tab, model_interactive);
      *quick = runtime_snapshot (tab, model_quick);
      *interactive_full = runtime_snapshot (tab, model_interactive_full);
      *full = runtime_snapshot (tab, model_full);
    }

  return g_strcmp0 (json_object_get_string_member (*quick, "text"),
                    json_object_get_string_member (*full, "text")) == 0 &&
         g_strcmp0 (json_object_get_string_member (*interactive, "text"),
                    json_object_get_string_member (*interactive_full, "text")) == 0;
}

/* Makes @change in the page of @tab and returns the quick snapshot after
 * it, checked to print, character for character, what a full walk prints,
 * and to differ from @before_text. */
static JsonObject *
model_snapshot_after (TwTestTab  *tab,
                      const char *change,
                      const char *before_text)
{
  g_autoptr(JsonObject) after = NULL;
  g_autoptr(JsonObject) walk = NULL;

  tw_test_tab_eval (tab, change);
  after = runtime_snapshot (tab, model_quick);
  walk = runtime_snapshot (tab, model_full);
  g_assert_cmpstr (json_object_get_string_member (after, "text"), ==,
                   json_object_get_string_member (walk, "text"));
  g_assert_cmpstr (json_object_get_string_member (after, "text"), !=, before_text);

  return g_steal_pointer (&after);
}

/* What gave a model test's quick snapshots, over its rounds. */
typedef struct
{
  guint  served;
  guint  incremental;
  gint64 reused;
  guint  walked;
  /* The rounds after one that changed nothing, and how many of them the
   * model answered. */
  guint  quiet;
  guint  quiet_served;
} ModelTally;

static void
model_tally_add (ModelTally *tally,
                 JsonObject *quick,
                 gboolean    quiet)
{
  if (json_object_get_boolean_member (quick, "cached"))
    tally->served++;
  else if (json_object_get_boolean_member (quick, "incremental"))
    {
      tally->incremental++;
      tally->reused += json_object_get_int_member (quick, "reused");
    }
  else
    tally->walked++;
  if (quiet)
    {
      tally->quiet++;
      if (json_object_get_boolean_member (quick, "cached"))
        tally->quiet_served++;
    }
}

static void
test_model (gconstpointer data)
{
  const char *page = data;
  g_autoptr(TwTestTab) tab = tw_test_tab_new (TRUE);
  g_autofree char *script_file = g_test_build_filename (G_TEST_DIST, "fixtures", "snapshot-diff",
                                                        "mutate.js", NULL);
  g_autofree char *script = NULL;
  ModelTally tally = { 0 };
  guint index = 0;
  g_autofree char *last = NULL;

  while (model_pages[index] != page)
    index++;

  g_assert_true (g_file_get_contents (script_file, &script, NULL, NULL));
  tab_load (tab, page);
  tw_test_tab_eval (tab, script);

  for (guint round = 0; round < (index < MODEL_STRICT_PAGES ? 40 : MODEL_ROUNDS); round++)
    {
      g_autoptr(JsonObject) a = NULL;
      g_autoptr(JsonObject) b = NULL;
      g_autoptr(JsonObject) c = NULL;
      g_autoptr(JsonObject) d = NULL;
      /* One round in three changes nothing. */
      guint changes = round % 3 == 2 ? 0 : 1 + round % 2;
      g_autofree char *call = g_strdup_printf ("String(window.__mutate(%u, %u))",
                                               7919 * (round + 1) +
                                               (index < MODEL_STRICT_PAGES ? 0 : 104729 * index),
                                               changes);
      g_autoptr(JSCValue) what = tw_test_view_evaluate (tab->view, call, CALL_TIMEOUT_MS);
      g_autofree char *done = jsc_value_to_string (what);

      if (!model_snapshots (tab, round, &a, &b, &c, &d))
        g_error ("%s, round %u (%s): the model printed\n%s\n%s\nbut a full walk\n%s\n%s", page,
                 round, done, json_object_get_string_member (a, "text"),
                 json_object_get_string_member (c, "text"),
                 json_object_get_string_member (b, "text"),
                 json_object_get_string_member (d, "text"));
      g_assert_false (json_object_get_boolean_member (b, "cached"));
      g_assert_false (json_object_get_boolean_member (b, "incremental"));
      /* The diff of the lines that differ says what the diff of all says. */
      if (last != NULL)
        {
          g_autoptr(GPtrArray) before = tree_lines (last);
          g_autoptr(GPtrArray) after = tree_lines (json_object_get_string_member (b, "text"));
          g_autofree char *label = g_strdup_printf ("%s, round %u (%s)", page, round, done);

          diff_check (tab, before, after, label);
        }
      g_free (last);
      last = g_strdup (json_object_get_string_member (b, "text"));
      g_assert_false (json_object_get_boolean_member (d, "incremental"));

      model_tally_add (&tally, a, changes == 0 && round > 0 && index < MODEL_STRICT_PAGES);
    }
  g_test_message ("%s: %u snapshots from the model, %u incremental walks (%" G_GINT64_FORMAT
                  " elements taken from the model), %u full walks", page, tally.served,
                  tally.incremental, tally.reused, tally.walked);
  g_assert_cmpuint (tally.served, >, 0);
  /* Nothing happened since the last walk: the model answers, unless an
   * event of the last change arrived only now (a loaded machine). */
  if (tally.quiet > 0)
    g_assert_cmpuint (tally.quiet_served, >, 0);
}

/* Changes made one at a time, and how the model takes them: changes no
 * mutation records must each reach the next snapshot, which walks again;
 * after a change the model follows, the walk takes what nothing changed
 * under from the model. Either way the snapshot prints what a full walk
 * prints. */
typedef struct
{
  gboolean            silent;
  const char * const *scripts;
  guint               n_scripts;
} ModelChanges;

static const char * const silent_scripts[] = {
  "document.getElementById('agree').checked = true;",
  "document.getElementById('email').value = 'quiet@example.com';",
  "(() => { const s = new CSSStyleSheet(); s.replaceSync('#rename { display: none; }');"
  "  document.adoptedStyleSheets = [s]; })();",
  "document.adoptedStyleSheets[0].insertRule('#list { display: none; }');",
  "document.styleSheets[0].insertRule('h1 { visibility: hidden; }');",
  "document.getElementById('mover').focus();",
  "document.querySelector('iframe').contentDocument.getElementById('fp').hidden = true;",
};

static const char * const followed_scripts[] = {
  "document.getElementById('agree').click();",
  "document.getElementById('email').value = 'typed@example.com';",
  "document.getElementById('rename').textContent = 'Renamed';",
  "document.getElementById('list').append(document.createElement('li'));",
};

static const ModelChanges silent_changes = {
  TRUE, silent_scripts, G_N_ELEMENTS (silent_scripts)
};
static const ModelChanges followed_changes = {
  FALSE, followed_scripts, G_N_ELEMENTS (followed_scripts)
};

static void
test_model_changes (TwTestTabFixture *fixture,
                    gconstpointer     data)
{
  const ModelChanges *changes = data;

  for (guint i = 0; i < changes->n_scripts; i++)
    {
      g_autoptr(JsonObject) before = runtime_snapshot (fixture->tab, model_quick);
      g_autoptr(JsonObject) after = NULL;

      if (changes->silent)
        {
          g_autoptr(JsonObject) same = runtime_snapshot (fixture->tab, model_quick);

          g_assert_true (json_object_get_boolean_member (same, "cached"));
        }
      after = model_snapshot_after (fixture->tab, changes->scripts[i],
                                    json_object_get_string_member (before, "text"));
      if (changes->silent)
        {
          g_assert_false (json_object_get_boolean_member (after, "cached"));
        }
      else
        {
          g_assert_true (json_object_get_boolean_member (after, "incremental"));
          g_assert_cmpint (json_object_get_int_member (after, "reused"), >, 0);
          g_assert_cmpint (json_object_get_int_member (after, "reused"), <,
                           json_object_get_int_member (after, "elements"));
        }
    }
}

/* A series of changes of every kind, one after another on one page. */
static const char * const series_changes[] = {
  /* An attribute, text, an element added and one removed. */
  "document.getElementById('rename').setAttribute('aria-label', 'Store');",
  "document.querySelector('#list li').textContent = 'Row one';",
  "document.querySelector('#list li').firstChild.data = 'Row 1 again';",
  "document.getElementById('list').append(Object.assign(document.createElement('li'), "
  "{ textContent: 'Row 4' }));",
  "document.querySelector('#list li:last-child').remove();",
  /* Style: display by the style attribute, by a class, by a rule. */
  "document.getElementById('right').style.display = 'none';",
  "document.getElementById('right').style.display = '';",
  "document.getElementById('extra').classList.add('gone');",
  "document.getElementById('extra').classList.remove('gone');",
  "document.getElementById('left').hidden = true;",
  "document.getElementById('left').hidden = false;",
  /* Form state no mutation records. */
  "document.getElementById('email').value = 'series@example.com';",
  "document.getElementById('agree').checked = true;",
  "document.getElementById('agree').indeterminate = true;",
  /* A shadow root's content, and a shadow root attached to an element
   * already in the page. */
  "document.getElementById('host').shadowRoot.getElementById('sp').textContent = 'Shadow changed';",
  "document.getElementById('host').shadowRoot.append(Object.assign(document.createElement('button'), "
  "{ textContent: 'In the shadow' }));",
  "document.getElementById('right').attachShadow({ mode: 'open' }).innerHTML = "
  "'<h3>Right, from its shadow</h3>';",
  /* A frame's content: text, an element added, one hidden. */
  "document.querySelector('iframe').contentDocument.body.append(Object.assign("
  "document.querySelector('iframe').contentDocument.createElement('button'), "
  "{ textContent: 'Frame button' }));",
  "document.querySelector('iframe').contentDocument.querySelector('button').hidden = true;",
  /* An element moved, and a dialog opened. */
  "document.getElementById('right').append(document.getElementById('mover'));",
  "document.getElementById('dlg').show();",
};

/* Makes each of @changes in the page of @tab, and after each checks that
 * the snapshot that may reuse or walk only what changed prints, character
 * for character, what a full walk prints (of the whole page and
 * interactive only), and differs from the one before; more than half of
 * them must have walked only what changed. Returns the last text. */
static char *
check_model_changes (TwTestTab          *tab,
                     const char * const *changes,
                     gsize               n_changes)
{
  g_autoptr(JsonObject) first = runtime_snapshot (tab, model_quick);
  char *last = g_strdup (json_object_get_string_member (first, "text"));
  guint incremental = 0;

  for (gsize i = 0; i < n_changes; i++)
    {
      g_autoptr(JsonObject) a = NULL;
      g_autoptr(JsonObject) b = NULL;
      g_autoptr(JsonObject) c = NULL;
      g_autoptr(JsonObject) d = NULL;
      g_autofree char *change = g_strdup_printf ("%s; 0", changes[i]);

      tw_test_tab_eval (tab, change);
      if (!model_snapshots (tab, i, &a, &b, &c, &d))
        g_error ("after %s\nthe model printed\n%s\n%s\nbut a full walk\n%s\n%s", changes[i],
                 json_object_get_string_member (a, "text"),
                 json_object_get_string_member (c, "text"),
                 json_object_get_string_member (b, "text"),
                 json_object_get_string_member (d, "text"));
      if (g_strcmp0 (json_object_get_string_member (a, "text"), last) == 0)
        g_error ("after %s the snapshot did not change:\n%s", changes[i], last);
      if (json_object_get_boolean_member (a, "incremental"))
        incremental++;
      g_free (last);
      last = g_strdup (json_object_get_string_member (b, "text"));
    }
  g_test_message ("%u of %" G_GSIZE_FORMAT " snapshots walked only what changed", incremental,
                  n_changes);
  g_assert_cmpuint (incremental, >, n_changes / 2);

  return last;
}

/* Each change of the series followed by a snapshot that may reuse or walk
 * only what changed, which must print, character for character, what a
 * full walk prints (of the whole page and interactive only), and differ
 * from the one before. */
static void
test_model_series (TwTestTabFixture *fixture,
                   gconstpointer     data)
{
  g_autofree char *last = NULL;

  last = check_model_changes (fixture->tab, series_changes, G_N_ELEMENTS (series_changes));
}

/* Changes inside a wide table (the kind of page where the walk takes the
 * rows nothing changed under from the layout it kept, and the printer
 * their lines from where it printed them): after each, the snapshot that
 * walks only what changed prints, character for character, what a full
 * walk prints, of the whole page and interactive only. The drop-downs of
 * the rows share their options, which only the first prints, so the lines
 * of a row taken again depend on the rows before it. */
static const char * const wide_changes[] = {
  "document.querySelector('#wide tr:nth-child(3) input').click();",
  "document.querySelector('#wide tr:nth-child(5) input').checked = true;",
  "document.querySelector('#wide tr:nth-child(6) input').indeterminate = true;",
  "document.querySelector('#wide tr:nth-child(7) select').selectedIndex = 2;",
  "document.querySelector('#wide tr:nth-child(8) a').textContent = 'Renamed item';",
  "document.querySelector('#wide tr:nth-child(9) td').firstChild.data = 'Cell text again';",
  "document.querySelector('#wide tr:nth-child(10) button').focus();",
  "document.querySelector('#wide tr:nth-child(11) button').focus();",
  "document.querySelector('#wide tr:nth-child(12)').style.display = 'none';",
  "document.querySelector('#wide tr:nth-child(12)').style.display = '';",
  "document.querySelector('#wide tr:nth-child(4)').remove();",
  "document.querySelector('#wide tbody').prepend(document.querySelector('#wide tr:nth-child(20)'));",
  "document.querySelector('#wide tbody').append(document.querySelector('#wide tr:nth-child(2)').cloneNode(true));",
  "document.querySelector('#wide tr:nth-child(13) input').setAttribute('aria-label', 'Pick me');",
  "document.querySelector('#wide tbody').insertBefore(document.createTextNode('Loose text'), "
  "document.querySelector('#wide tr:nth-child(15)'));",
  "document.querySelector('#wide tr:nth-child(16) input').disabled = true;",
  "document.querySelector('#wide tr:nth-child(3) input').click();"
  "document.querySelector('#wide tr:nth-child(17) input').click();",
  "document.getElementById('wide').setAttribute('aria-label', 'Wide table');",
  "document.querySelector('#wide tr:nth-child(18) select').value = 'Closed';",
  "document.querySelector('#wide tr:nth-child(19) a').hidden = true;",
  "document.querySelector('#wide tr:nth-child(23) select').selectedIndex = 1;",
  "document.querySelector('#wide select').hidden = true;",
  "document.querySelector('#wide tr:nth-child(24) select').selectedIndex = 1;",
  "document.querySelector('#wide select').hidden = false;",
};

static void
test_model_wide (TwTestTabFixture *fixture,
                 gconstpointer     data)
{
  g_autofree char *last = NULL;

  tw_test_tab_eval (fixture->tab, "(() => { const t = document.createElement('table');"
                    "  t.id = 'wide';"
                    "  const body = t.createTBody();"
                    "  for (let i = 1; i <= 40; i++) {"
                    "    const tr = body.insertRow();"
                    "    tr.innerHTML = '<td>Cell ' + i + '</td>"
                    "<td><input type=\"checkbox\" aria-label=\"Select item ' + i + '\"></td>"
                    "<td><a href=\"#' + i + '\">Item ' + i + '</a></td>"
                    "<td><select aria-label=\"Status ' + i + '\"><option>Open</option>"
                    "<option>Pending</option><option>Closed</option></select></td>"
                    "<td><button>Delete item ' + i + '</button></td>';"
                    "    body.append(document.createTextNode('\\n'));"
                    "  }"
                    "  document.querySelector('main').append(t); })();");
  last = check_model_changes (fixture->tab, wide_changes, G_N_ELEMENTS (wide_changes));

  /* A scroll changes nothing the walk reads: a click on a row scrolled
   * into view is read from what changed, like any other. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) scrolled = tw_test_tab_call (fixture->tab, "actions.scroll", "{\"deltaY\": 300}",
                                                     CALL_TIMEOUT_MS, &error);
    const char *click = "document.querySelector('#wide tr:nth-child(30) input').click(); 0";
    g_autoptr(JsonObject) clicked = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (scrolled), "movedY"), >, 0);
    clicked = model_snapshot_after (fixture->tab, click, last);
    g_assert_true (json_object_get_boolean_member (clicked, "incremental"));
    g_free (last);
    last = g_strdup (json_object_get_string_member (clicked, "text"));
  }

  /* Rows that come or go leave the other rows' walks as they were: the
   * walk after each takes the table's other rows again (ten elements a
   * row) and walks only what came. */
  {
    static const char * const reshapes[] = {
      "document.querySelector('#wide tbody').insertBefore("
      "document.querySelector('#wide tr:nth-child(2)').cloneNode(true), "
      "document.querySelector('#wide tr:nth-child(5)')); 0",
      "document.querySelector('#wide tr:nth-child(7)').remove(); 0",
      "document.querySelector('#wide tr:nth-child(9)').replaceWith("
      "document.querySelector('#wide tr:nth-child(3)').cloneNode(true)); 0",
      "document.querySelector('#wide tbody').append("
      "document.querySelector('#wide tr:nth-child(11)')); 0",
    };

    for (guint i = 0; i < G_N_ELEMENTS (reshapes); i++)
      {
        g_autoptr(JsonObject) after = model_snapshot_after (fixture->tab, reshapes[i], last);
        gint64 reused = json_object_get_int_member (after, "reused");

        g_test_message ("%s: %" G_GINT64_FORMAT " elements taken again", reshapes[i], reused);
        g_assert_true (json_object_get_boolean_member (after, "incremental"));
        g_assert_cmpint (reused, >=, 10 * 36);
        g_free (last);
        last = g_strdup (json_object_get_string_member (after, "text"));
      }
  }
}

/* The text of a snapshot comes from the page once: the same text again
 * (a page that did not change) comes as the id of the text the tab holds,
 * and the tab puts it back. After every change of the series, and after
 * changes no mutation records (a value, a check, the focus, a style rule,
 * a scroll), the first snapshot must be the page's
 * new text, character for character what a full walk prints, and the next
 * one, of the unchanged page, the same text from what the tab holds. */
static void
test_model_held (TwTestTabFixture *fixture,
                 gconstpointer     data)
{
  static const char * const silent[] = {
    "document.getElementById('email').value = 'held@example.com';",
    "document.getElementById('agree').indeterminate = false;",
    "document.getElementById('mover').focus();",
    "document.styleSheets[0].insertRule('#extra { display: none; }');",
    "window.scrollTo(0, 400);",
    "document.getElementById('email').value = 'held again';",
  };
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *last = NULL;
  guint held = 0;

  /* Long enough for its text to travel apart from the reply's JSON. */
  tw_test_tab_eval (fixture->tab, "(() => { const s = document.createElement('section');"
                    "  s.setAttribute('aria-label', 'Filler');"
                    "  for (let i = 0; i < 150; i++) {"
                    "    const p = document.createElement('p');"
                    "    p.textContent = 'Filler paragraph number ' + i + ' of the long page';"
                    "    s.append(p);"
                    "  }"
                    "  document.body.append(s); })();");
  for (guint i = 0; i < G_N_ELEMENTS (series_changes); i++)
    g_ptr_array_add (all, (gpointer) series_changes[i]);
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    g_ptr_array_add (all, (gpointer) silent[i]);

  {
    g_autoptr(JsonObject) first = runtime_snapshot (fixture->tab, model_quick);

    last = g_strdup (json_object_get_string_member (first, "text"));
    g_assert_cmpuint (strlen (last), >, 4096);
  }
  for (guint i = 0; i < all->len; i++)
    {
      const char *change = g_ptr_array_index (all, i);
      g_autoptr(JsonObject) a = NULL;
      g_autoptr(JsonObject) again = NULL;
      g_autoptr(JsonObject) b = NULL;
      g_autoptr(JsonObject) c = NULL;
      const char *text;

      tw_test_tab_eval (fixture->tab, change);
      a = runtime_snapshot (fixture->tab, model_quick);
      again = runtime_snapshot (fixture->tab, model_quick);
      b = runtime_snapshot (fixture->tab, model_full);
      text = json_object_get_string_member (a, "text");
      g_assert_cmpstr (text, ==, json_object_get_string_member (b, "text"));
      g_assert_cmpstr (json_object_get_string_member (again, "text"), ==, text);
      /* A scroll changes no line: the same text again. */
      if (strstr (change, "scroll") == NULL)
        {
          g_assert_cmpstr (text, !=, last);
          g_assert_false (json_object_get_boolean_member_with_default (a, "held", FALSE));
        }
      /* The same text as the one just sent, unless a late event of the
       * change made the page differ in between (a loaded machine). */
      if (json_object_get_boolean_member_with_default (again, "held", FALSE))
        held++;
      /* Another kind of snapshot sends its own text; the next snapshot of
       * the page sends the page's again. */
      c = runtime_snapshot (fixture->tab, model_interactive);
      g_assert_false (json_object_get_boolean_member_with_default (c, "held", FALSE));
      g_free (last);
      last = g_strdup (text);
    }
  g_test_message ("%u of %u unchanged snapshots came from the text the tab held", held, all->len);
  g_assert_cmpuint (held, >, all->len / 2);
}

static const TwTestFixtureCase diff_page_cases[] = {
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/local", test_local),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/model/series", test_model_series),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/model/held", test_model_held),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/model/wide", test_model_wide),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/first-and-navigation", test_first_and_navigation),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/paging", test_paging),
  TW_TEST_FIXTURE_CASE ("/snapshot-diff/modes", test_modes),
};

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_init ();
  g_test_init (&argc, &argv, NULL);

  server = tw_test_server_new (serve_cb, &base);
  /* "http://127.0.0.1:port/" without the last slash. */
  base[strlen (base) - 1] = '\0';

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/snapshot-diff/change/", cases[i].name, NULL);

      g_test_add (path, TwTestTabFixture, &cases[i], diff_page_set_up, test_case, tw_test_tab_fixture_tear_down);
    }
  for (guint i = 0; i < G_N_ELEMENTS (model_pages); i++)
    {
      g_autofree char *path = g_strconcat ("/snapshot-diff/model/", strrchr (model_pages[i], '/') + 1, NULL);

      g_test_add_data_func (path, model_pages[i], test_model);
    }
  TW_TEST_ADD_FIXTURE_CASES (TwTestTabFixture, diff_page_cases, diff_page_set_up, tw_test_tab_fixture_tear_down);
  g_test_add ("/snapshot-diff/model/silent-changes", TwTestTabFixture, &silent_changes, diff_page_set_up,
              test_model_changes, tw_test_tab_fixture_tear_down);
  g_test_add ("/snapshot-diff/model/incremental", TwTestTabFixture, &followed_changes, diff_page_set_up,
              test_model_changes, tw_test_tab_fixture_tear_down);

  ret = g_test_run ();

  g_clear_object (&server);
  tw_test_tab_clear_session ();
  g_free (base);

  return ret;
}

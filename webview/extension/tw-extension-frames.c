/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Frames of another origin (webview/runtime/frames.js). The page runtime
 * runs in the isolated world of every frame, but the UI process can only
 * call into the main frame's copy, and one copy cannot reach into a frame
 * of another origin. Here, in the web process, where every frame of the
 * page is at hand, the frames of each page get numbers, which refs printed
 * in them carry, and each frame's runtime gets one native function in its
 * isolated world, __tabwrightFrames(target, fn, argsJson, nextRef). It
 * runs a function of the runtime of another frame of the page, the frame
 * at that index path from the top ("0.1", as frames.js names frames) or of
 * that number ("#2"), and answers what that runtime answers: its JSON
 * reply, or the promise of one.
 *
 * The tab's calls to a frame go through the main frame's runtime this
 * way, so they run within the call the UI process made, as a user gesture:
 * the engine lets a frame of another origin move the focus only then.
 * Page scripts run in another world: they can neither see the native
 * function nor forge what it answers.
 *
 * A second native function, __tabwrightPageCall(source, nonce, maxBytes),
 * runs browser_evaluate's function in the page's own world of the frame
 * whose runtime calls it: the UI process can only run scripts in the main
 * frame's, and a frame of another origin keeps its globals and elements to
 * itself. It answers what the function expression source, called with
 * nonce and maxBytes, returns (evaluate-call.js's promise of a JSON
 * string), or null when it could not run. */

#include "config.h"

#include <webkit/webkit-web-process-extension.h>

#include "tw-extension-frames.h"
#include "tw-extension-native.h"
#include "tw-web-process-extension.h"

static WebKitScriptWorld *runtime_world;

/* The frames of one page. Every frame is known from its first document
 * on; a frame gets its number when a snapshot first reads it, so numbers
 * follow the order of the page, not the order in which frames loaded. */
typedef struct
{
  GHashTable *known;    /* frame id (gint64 *) → GWeakRef * of its WebKitFrame */
  GHashTable *numbers;  /* frame id (gint64 *) → number */
  GHashTable *frames;   /* number → GWeakRef * of its WebKitFrame */
  GWeakRef    main;
  guint       next;
} PageFrames;

static void
page_frames_free (PageFrames *pf)
{
  g_clear_pointer (&pf->known, g_hash_table_unref);
  g_clear_pointer (&pf->numbers, g_hash_table_unref);
  g_clear_pointer (&pf->frames, g_hash_table_unref);
  g_weak_ref_clear (&pf->main);
  g_free (pf);
}

static PageFrames *
page_frames_get (WebKitWebPage *page)
{
  PageFrames *pf = g_object_get_data (G_OBJECT (page), "tw-page-frames");

  if (pf == NULL)
    {
      pf = g_new0 (PageFrames, 1);
      pf->known = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                         (GDestroyNotify) tw_extension_weak_ref_free);
      pf->numbers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      pf->frames = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) tw_extension_weak_ref_free);
      g_weak_ref_init (&pf->main, NULL);
      pf->next = 1;
      g_object_set_data_full (G_OBJECT (page), "tw-page-frames", pf,
                              (GDestroyNotify) page_frames_free);
    }

  return pf;
}

static gboolean
weak_ref_is_dead (gpointer key,
                  gpointer value,
                  gpointer user_data)
{
  g_autoptr(GObject) object = g_weak_ref_get (value);

  return object == NULL;
}

static gboolean
number_is_gone (gpointer key,
                gpointer value,
                gpointer user_data)
{
  return !g_hash_table_contains (user_data, key);
}

/* Lets go of the frames that are gone. Their numbers are not given again. */
static void
page_frames_sweep (PageFrames *pf)
{
  g_hash_table_foreach_remove (pf->known, weak_ref_is_dead, NULL);
  g_hash_table_foreach_remove (pf->frames, weak_ref_is_dead, NULL);
  g_hash_table_foreach_remove (pf->numbers, number_is_gone, pf->known);
}

static void
page_frames_register (PageFrames  *pf,
                      WebKitFrame *frame)
{
  gint64 id = (gint64) webkit_frame_get_id (frame);

  if (webkit_frame_is_main_frame (frame))
    {
      g_weak_ref_set (&pf->main, frame);
      return;
    }

  if (g_hash_table_contains (pf->known, &id))
    return;

  page_frames_sweep (pf);
  g_hash_table_insert (pf->known, g_memdup2 (&id, sizeof id), tw_extension_weak_ref_new (frame));
}

/* The number of a child frame, the same for as long as the frame lives,
 * whatever documents it loads. */
static guint
page_frames_number (PageFrames  *pf,
                    WebKitFrame *frame)
{
  gint64 id = (gint64) webkit_frame_get_id (frame);
  gpointer number;

  if (g_hash_table_lookup_extended (pf->numbers, &id, NULL, &number))
    return GPOINTER_TO_UINT (number);

  number = GUINT_TO_POINTER (pf->next++);
  g_hash_table_insert (pf->numbers, g_memdup2 (&id, sizeof id), number);
  g_hash_table_insert (pf->frames, number, tw_extension_weak_ref_new (frame));

  return GPOINTER_TO_UINT (number);
}

static WebKitFrame *
page_frames_lookup (PageFrames *pf,
                    guint       number)
{
  GWeakRef *ref = g_hash_table_lookup (pf->frames, GUINT_TO_POINTER (number));

  return ref != NULL ? g_weak_ref_get (ref) : NULL;
}

/* The runtime object of a frame's isolated world, or NULL when the frame
 * has none (yet). */
static JSCValue *
frame_runtime (WebKitFrame *frame)
{
  g_autoptr(JSCContext) context = webkit_frame_get_js_context_for_script_world (frame, runtime_world);
  g_autoptr(JSCValue) runtime = NULL;

  if (context == NULL)
    return NULL;

  runtime = jsc_context_get_value (context, "__tabwright");
  if (!jsc_value_is_object (runtime))
    return NULL;

  return g_steal_pointer (&runtime);
}

static void
clear_exception (JSCValue *value)
{
  JSCContext *context = jsc_value_get_context (value);
  JSCException *exception = jsc_context_get_exception (context);

  if (exception != NULL)
    {
      g_debug ("A frame's runtime failed: %s", jsc_exception_get_message (exception));
      jsc_context_clear_exception (context);
    }
}

/* The frame at an index path from the top (frames.js), and its number. */
static WebKitFrame *
page_frames_find (PageFrames *pf,
                  const char *path,
                  guint      *number)
{
  GHashTableIter iter;
  gpointer value;

  if (path[0] == '\0')
    {
      *number = 0;
      return g_weak_ref_get (&pf->main);
    }

  g_hash_table_iter_init (&iter, pf->known);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_autoptr(WebKitFrame) frame = g_weak_ref_get (value);
      g_autoptr(JSCValue) runtime = NULL;
      g_autoptr(JSCValue) here = NULL;
      g_autofree char *text = NULL;

      if (frame == NULL || (runtime = frame_runtime (frame)) == NULL)
        continue;

      here = jsc_value_object_invoke_method (runtime, "path", G_TYPE_NONE);
      clear_exception (runtime);
      if (here == NULL || !jsc_value_is_string (here))
        continue;

      text = jsc_value_to_string (here);
      if (g_strcmp0 (text, path) == 0)
        {
          *number = page_frames_number (pf, frame);
          return g_steal_pointer (&frame);
        }
    }

  return NULL;
}

/* Runs a function of a frame's runtime: its answer (a JSON string, or a
 * promise of one), or NULL when the frame has no runtime. The answer
 * belongs to that frame's context; the caller's context takes it as it
 * is, the two being of one virtual machine. */
static JSCValue *
runtime_call (WebKitFrame *frame,
              guint        number,
              const char  *function,
              const char  *args,
              double       next_ref)
{
  g_autoptr(JSCValue) runtime = frame_runtime (frame);
  g_autoptr(JSCValue) answer = NULL;

  if (runtime == NULL)
    return NULL;

  answer = jsc_value_object_invoke_method (runtime, "call",
                                           G_TYPE_STRING, function,
                                           G_TYPE_STRING, args,
                                           G_TYPE_DOUBLE, next_ref,
                                           G_TYPE_DOUBLE, (double) number,
                                           G_TYPE_NONE);
  clear_exception (runtime);

  return g_steal_pointer (&answer);
}

/* __tabwrightFrames(target, fn, argsJson, nextRef): what a function of
 * the runtime of the target frame answers, a JSON string or a promise of
 * one; null when no such frame or runtime is there. */
static JSCValue *
native_call_cb (const char *target,
                const char *function,
                const char *args,
                double      next_ref,
                GWeakRef   *page_ref)
{
  g_autoptr(WebKitWebPage) page = g_weak_ref_get (page_ref);
  g_autoptr(WebKitFrame) frame = NULL;
  PageFrames *pf;
  guint number = 0;

  if (page == NULL || target == NULL || function == NULL || args == NULL)
    return NULL;

  pf = page_frames_get (page);
  if (target[0] == '#')
    {
      guint64 n;

      if (g_ascii_string_to_unsigned (target + 1, 10, 1, G_MAXUINT, &n, NULL))
        {
          number = (guint) n;
          frame = page_frames_lookup (pf, number);
        }
    }
  else
    {
      frame = page_frames_find (pf, target, &number);
    }

  if (frame == NULL)
    return NULL;

  return runtime_call (frame, number, function, args, next_ref);
}

/* __tabwrightPageCall(source, nonce, maxBytes): source, a function
 * expression, evaluated in the page's own world of the frame and called
 * with nonce and maxBytes; its value, or null when it did not run. */
static JSCValue *
native_page_call_cb (const char *source,
                     const char *nonce,
                     double      max_bytes,
                     GWeakRef   *frame_ref)
{
  g_autoptr(WebKitFrame) frame = g_weak_ref_get (frame_ref);
  g_autoptr(JSCContext) context = NULL;
  g_autoptr(JSCValue) function = NULL;
  g_autoptr(JSCValue) answer = NULL;
  JSCException *exception;

  if (frame == NULL || source == NULL || nonce == NULL)
    return NULL;

  context = webkit_frame_get_js_context (frame);
  function = jsc_context_evaluate_with_source_uri (context, source, -1,
                                                   "tabwright-evaluate.js", 1);
  if (function != NULL && jsc_value_is_function (function))
    answer = jsc_value_function_call (function, G_TYPE_STRING, nonce, G_TYPE_DOUBLE, max_bytes,
                                      G_TYPE_NONE);

  exception = jsc_context_get_exception (context);
  if (exception != NULL)
    {
      g_debug ("browser_evaluate could not run in a frame: %s",
               jsc_exception_get_message (exception));
      jsc_context_clear_exception (context);
      return NULL;
    }

  return g_steal_pointer (&answer);
}

static void
window_object_cleared_cb (WebKitScriptWorld *world,
                          WebKitWebPage     *page,
                          WebKitFrame       *frame,
                          gpointer           user_data)
{
  page_frames_register (page_frames_get (page), frame);

  tw_extension_set_native (frame, world, "__tabwrightFrames", page, G_CALLBACK (native_call_cb),
                           JSC_TYPE_VALUE, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                           G_TYPE_DOUBLE, G_TYPE_INVALID);
  tw_extension_set_native (frame, world, "__tabwrightPageCall", frame,
                           G_CALLBACK (native_page_call_cb),
                           JSC_TYPE_VALUE, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_DOUBLE,
                           G_TYPE_INVALID);
}

void
tw_extension_frames_init (void)
{
  /* Created before any page, so the UI process's scripts of this world
   * name run in it (WebKit looks worlds up by name). */
  runtime_world = webkit_script_world_new_with_name (TW_WEB_EXTENSION_RUNTIME_WORLD);
  g_signal_connect (runtime_world, "window-object-cleared",
                    G_CALLBACK (window_object_cleared_cb), NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-renderer.h"
#include "tw-test-util.h"

/* Which GTK renderer Tabwright asks for before GTK starts. The suite runs
 * under xvfb-run, an X server that renders OpenGL in software. */

typedef struct
{
  char *display;
  char *backend;
  char *wayland;
} SavedEnv;

static void
restore (const char *variable,
         const char *value)
{
  if (value != NULL)
    g_setenv (variable, value, TRUE);
  else
    g_unsetenv (variable);
}

static void
saved_env_set_up (SavedEnv      *saved,
                  gconstpointer  data)
{
  saved->display = g_strdup (g_getenv ("DISPLAY"));
  saved->backend = g_strdup (g_getenv ("GDK_BACKEND"));
  saved->wayland = g_strdup (g_getenv ("WAYLAND_DISPLAY"));
  g_unsetenv ("GSK_RENDERER");
  g_unsetenv ("GDK_BACKEND");
  g_unsetenv ("WAYLAND_DISPLAY");
}

static void
saved_env_tear_down (SavedEnv      *saved,
                     gconstpointer  data)
{
  restore ("DISPLAY", saved->display);
  restore ("GDK_BACKEND", saved->backend);
  restore ("WAYLAND_DISPLAY", saved->wayland);
  g_unsetenv ("GSK_RENDERER");
  g_free (saved->display);
  g_free (saved->backend);
  g_free (saved->wayland);
}

/* On an X server without a GPU, cairo. */
static void
test_software_x11 (SavedEnv      *saved,
                   gconstpointer  data)
{
  if (saved->display == NULL)
    {
      tw_test_skip_or_fail ("needs an X display (run under xvfb-run)");
      return;
    }

#ifdef HAVE_X11
  tw_renderer_choose ();
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");

  /* GDK_BACKEND=x11 is the same server. */
  g_unsetenv ("GSK_RENDERER");
  g_setenv ("GDK_BACKEND", "x11", TRUE);
  tw_renderer_choose ();
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
#else
  tw_renderer_choose ();
  g_assert_null (g_getenv ("GSK_RENDERER"));
#endif
}

/* A renderer the person chose is kept. */
static void
test_person_chose (SavedEnv      *saved,
                   gconstpointer  data)
{
  g_setenv ("GSK_RENDERER", "ngl", TRUE);
  tw_renderer_choose ();
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "ngl");
}

/* Where GTK would not use X at all, GTK chooses. */
static void
test_not_x11 (SavedEnv      *saved,
              gconstpointer  data)
{
  g_setenv ("GDK_BACKEND", "wayland", TRUE);
  tw_renderer_choose ();
  g_assert_null (g_getenv ("GSK_RENDERER"));

  g_unsetenv ("GDK_BACKEND");
  g_setenv ("WAYLAND_DISPLAY", "wayland-tabwright-test", TRUE);
  tw_renderer_choose ();
  g_assert_null (g_getenv ("GSK_RENDERER"));

  g_unsetenv ("WAYLAND_DISPLAY");
  g_unsetenv ("DISPLAY");
  tw_renderer_choose ();
  g_assert_null (g_getenv ("GSK_RENDERER"));

  /* A display that does not answer. */
  g_setenv ("DISPLAY", ":9999", TRUE);
  tw_renderer_choose ();
  g_assert_null (g_getenv ("GSK_RENDERER"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/app/renderer/software-x11", SavedEnv, NULL,
              saved_env_set_up, test_software_x11, saved_env_tear_down);
  g_test_add ("/app/renderer/person-chose", SavedEnv, NULL,
              saved_env_set_up, test_person_chose, saved_env_tear_down);
  g_test_add ("/app/renderer/not-x11", SavedEnv, NULL,
              saved_env_set_up, test_not_x11, saved_env_tear_down);

  return g_test_run ();
}

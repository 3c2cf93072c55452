/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <webkit/webkit.h>

#include "tw-browser-service.h"
#include "tw-page-runtime.h"
#include "tw-tab-log.h"
#include "tw-view-frame.h"

G_BEGIN_DECLS

/* One command of a tab, as the module that carries it out sees it: the
 * parts of the tab it works on, and the command with its parameters and
 * the time by which it must have answered. The tab owns all of it while
 * the module's run function runs; a module that needs a part after that
 * takes a reference of its own. */
typedef struct
{
  WebKitWebView *view;
  TwViewFrame   *frame;
  TwPageRuntime *runtime;
  /* What the tab's pages logged and requested; NULL where nobody logs. */
  TwTabLog      *log;
  /* Where the command may read and write files. */
  const char    *workspace_dir;
  TwTabCommand   command;
  JsonObject    *params;
  /* On g_get_monotonic_time()'s clock; 0: no time limit of its own. */
  gint64         deadline_us;
} TwTabJob;

/* Carries out @job: completes @task with the command's result, a
 * JsonObject (g_task_return_pointer() with json_object_unref()), or with
 * an error in the TW_BROWSER_ERROR domain. @task's cancellable is the
 * command's; the caller made @task and keeps it for the answer, so a
 * module that answers later takes its own reference. */
typedef void (*TwTabJobRun) (const TwTabJob *job,
                             GTask          *task);

G_END_DECLS

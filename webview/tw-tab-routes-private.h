/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the parts of a tab's routes share: tw-tab-routes.c keeps them and
 * answers fetch and XMLHttpRequest in the page's world,
 * tw-tab-routes-loads.c answers every other load (documents, frames,
 * images, scripts, style sheets). */

#define ROUTES_KEY "tw-routes"

typedef struct
{
  char       *id;
  char       *url;          /* the glob the agent gave */
  char       *pattern;      /* it as a RegExp source */
  GRegex     *regex;        /* the same, for the loads answered here */
  gboolean    type_guessed; /* no Content-Type given nor known from the body */
  char       *method;       /* NULL: any */
  const char *action;       /* "fulfill", "abort" or "continue" */
  int         status;
  JsonObject *headers;      /* response headers */
  GBytes     *body;
  JsonObject *set_headers;  /* request headers, for continue */
  guint       hits;
  GQueue      last_urls;    /* char *: "GET url", newest last */
} Route;

typedef struct
{
  GPtrArray        *routes;   /* Route * */
  guint             next_id;
  WebKitUserScript *script;
  gboolean          handler;
  char             *filter_id;   /* the content filter of its abort routes, while it has one */
  guint             filters;     /* how many it compiled: each has an id of its own */
  guint64           answered;    /* requests its routes answered */
  GQueue            recent;      /* JsonObject *: the last MAX_RECENT of them, with "n" */
  WebKitUserScript *world_script;  /* the routes for the extension, in their world */
  char             *loading;     /* the URL of the answer being loaded as the main document */
} Routes;

/* A route answered a request: it counts, and the command running says so. */
void     _tw_tab_routes_record_answer    (Routes                   *routes,
                                          Route                    *route,
                                          const char               *method,
                                          const char               *url);
Route   *_tw_tab_routes_find             (Routes                   *routes,
                                          const char               *id);
/* The first route for a request, as the page world and the extension
 * choose it. */
Route   *_tw_tab_routes_match            (Routes                   *routes,
                                          const char               *method,
                                          const char               *url);

/* tw-tab-routes-loads.c: the view's handlers, connected with its routes. */
gboolean _tw_tab_routes_decide_policy_cb (WebKitWebView            *view,
                                          WebKitPolicyDecision     *decision,
                                          WebKitPolicyDecisionType  type,
                                          gpointer                  user_data);
gboolean _tw_tab_routes_user_message_cb  (WebKitWebView            *view,
                                          WebKitUserMessage        *message,
                                          gpointer                  user_data);

G_END_DECLS

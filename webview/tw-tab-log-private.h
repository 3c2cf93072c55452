/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-log.h"

G_BEGIN_DECLS

/* What the parts of TwTabLog share: the ring of entries and the object
 * itself. tw-tab-log.c keeps the ring and listens to the view,
 * tw-tab-log-console.c reads its console messages and
 * tw-tab-log-network.c records and reads its requests. */

typedef enum
{
  ENTRY_CONSOLE,
  ENTRY_NETWORK,
  ENTRY_NAVIGATION,
  ENTRY_NOTE,
} EntryType;

typedef enum
{
  NETWORK_PENDING,
  NETWORK_FINISHED,
  NETWORK_FAILED,
} NetworkState;

/* Entries are reference counted: a network entry is also held by the signal
 * handlers of its WebKitWebResource, which may outlive its place in the
 * ring. */
typedef struct
{
  EntryType     type;
  GDateTime    *time;
  guint64       id;         /* from 1, never reused in the tab */

  /* Console. */
  char         *level;
  char         *source;
  char         *text;       /* also the text of a note */
  guint         line;
  char         *args;       /* JSON array of the arguments, or NULL */
  char         *stack;      /* JavaScriptCore's stack text, or NULL */

  /* Network, and the URL of console messages and navigations. */
  char         *url;
  char         *method;
  char         *resource_type;
  char         *mime_type;
  char         *failure;
  NetworkState  state;
  guint         status;
  gint64        size;       /* -1 when unknown */
  gint64        started_us; /* monotonic */
  gint64        duration_us;
  WebKitWebResource  *resource;          /* for the body, until the entry goes */
  SoupMessageHeaders *request_headers;
  SoupMessageHeaders *response_headers;
  char               *status_text;
  char               *request_body;      /* as the page-world hook described it */
  GBytes             *response_text;     /* as the page-world hook read it */
} Entry;

struct _TwTabLog
{
  GObject        parent_instance;

  GQueue         entries;   /* Entry*, oldest first */
  guint          capacity;
  guint64        n_dropped;

  WebKitWebView *view;      /* weak */
  GList         *main_link; /* the entry of the main resource being loaded */

  guint64        next_id;
  guint64        console_read_id;

  /* Request bodies the page-world hook described before WebKit reported
   * their request: {method, url, body}, oldest first. */
  GQueue         bodies;
};

/* Longest console text and URL an entry keeps, in characters: a page that
 * logs a megabyte, or loads a large data: URL, must not fill the ring with
 * it. */
#define MAX_TEXT_CHARS 4000
/* How much of the response bodies the page-world hook read a tab keeps. */
#define MAX_RESPONSE_TEXT_BYTES (32 * 1024 * 1024)
#define MAX_URL_CHARS  1000

#define HOOK_SOURCE_URL "tabwright-console-hook.js"

Entry      *tw_tab_log_entry_new                (EntryType          type);
Entry      *tw_tab_log_entry_ref                (Entry             *entry);
void        tw_tab_log_entry_unref              (Entry             *entry);
char       *tw_tab_log_clip                     (const char        *text,
                                                 glong              max_chars);
void        tw_tab_log_push                     (TwTabLog          *self,
                                                 Entry             *entry);
JsonObject *tw_tab_log_entry_to_json            (const Entry       *entry);

/* tw-tab-log-console.c */
JsonArray  *tw_tab_log_parse_stack              (const char        *stack);

/* tw-tab-log-network.c */
typedef struct _PendingBody PendingBody;

void        tw_tab_log_pending_body_free        (PendingBody       *pending);
void        tw_tab_log_add_request_body         (TwTabLog          *self,
                                                 const char        *method,
                                                 const char        *url,
                                                 const char        *body);
void        tw_tab_log_resource_load_started_cb (WebKitWebView     *view,
                                                 WebKitWebResource *resource,
                                                 WebKitURIRequest  *request,
                                                 TwTabLog          *self);

G_END_DECLS

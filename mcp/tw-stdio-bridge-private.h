/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "tw-jsonrpc.h"
#include "tw-stdio-bridge.h"

G_BEGIN_DECLS

/* What the parts of TwStdioBridge share. tw-stdio-bridge.c keeps the object,
 * its run and the client's standard input and output; tw-stdio-bridge-client.c
 * answers the client's messages; tw-stdio-bridge-exchange.c sends one HTTP
 * request to the app; tw-stdio-bridge-request.c carries the client's
 * requests there; tw-stdio-bridge-upstream.c holds the session with the app. */

/* Opening a session is a local round trip; an app that takes longer is stuck. */
#define CONNECT_TIMEOUT_MS 10000
/* Ending the session on the way out is a courtesy, never worth a long wait. */
#define CLOSE_TIMEOUT_MS 2000
/* Calls on different tabs run concurrently, each in its own HTTP request. */
#define MAX_CONNECTIONS 256

typedef enum
{
  UPSTREAM_NONE,
  UPSTREAM_CONNECTING,
  UPSTREAM_READY,
} UpstreamState;

struct _TwStdioBridge
{
  GObject           parent_instance;

  char             *workspace_path;
  GDataInputStream *input;
  GOutputStream    *output;
  SoupSession      *soup;

  /* While running. */
  GTask            *task;
  GCancellable     *cancellable;
  GSource          *caller_watch;      /* the caller's cancellable */

  /* Lines for the output, written one at a time, in order: GBytes*. */
  GQueue            writes;
  GBytes           *writing;

  gboolean          input_done;
  gboolean          closing;

  /* The params of the client's initialize, replayed to each app session so
   * the app sees who the client is. */
  JsonObject       *client_params;

  /* The session with the app. The generation grows with each session, so a
   * failure seen on an old one does not end a newer one. */
  UpstreamState     state;
  guint             generation;
  char             *url;
  char             *token;
  char             *session_id;
  char             *protocol_version;

  GQueue            waiting;    /* Request* for a session */
  GHashTable       *requests;   /* id key -> Request*, until answered */
  GHashTable       *exchanges;  /* Exchange* in flight (a set) */
  guint             n_busy;     /* requests and forwarded messages in flight */
};

/* One HTTP request to the app (tw-stdio-bridge-exchange.c). */
typedef struct _Exchange Exchange;

typedef void (*ExchangeMessageFunc) (Exchange         *exchange,
                                     TwJsonrpcMessage *message,
                                     const char       *data,
                                     gsize             length,
                                     gpointer          user_data);
typedef void (*ExchangeDoneFunc)    (Exchange         *exchange,
                                     const GError     *error,
                                     gpointer          user_data);

struct _Exchange
{
  TwStdioBridge       *self;
  SoupMessage         *msg;
  GCancellable        *cancellable;
  GSource             *timeout;
  gboolean             timed_out;
  guint                status;

  /* Event streams. */
  GDataInputStream    *events;
  GString             *event_data;
  gboolean             event_has_data;
  char                *event_name;

  /* The JSON-RPC error that came with an HTTP error status, if any. */
  TwJsonrpcMessage    *http_error;

  ExchangeMessageFunc  message_func;
  ExchangeDoneFunc     done_func;
  gpointer             user_data;
};

/* Requests from the client that the app answers. */

typedef struct
{
  TwStdioBridge    *self;
  TwJsonrpcMessage *message;
  GBytes           *line;
  char             *id_key;
  Exchange         *exchange;
  guint             generation;
  gboolean          sent;
  gboolean          retried;
  gboolean          cancelled;
  gboolean          answered;
} Request;

/* tw-stdio-bridge.c */
void      tw_stdio_bridge_maybe_finish           (TwStdioBridge       *self);
void      tw_stdio_bridge_send_text              (TwStdioBridge       *self,
                                                  const char          *data,
                                                  gsize                length);
void      tw_stdio_bridge_send_result            (TwStdioBridge       *self,
                                                  JsonNode            *id,
                                                  JsonNode            *result);
void      tw_stdio_bridge_send_error             (TwStdioBridge       *self,
                                                  JsonNode            *id,
                                                  int                  code,
                                                  const char          *text);

/* tw-stdio-bridge-client.c */
void      tw_stdio_bridge_handle_line            (TwStdioBridge       *self,
                                                  char                *data,
                                                  gsize                length);

/* tw-stdio-bridge-exchange.c */
Exchange *tw_stdio_bridge_exchange_start         (TwStdioBridge       *self,
                                                  const char          *method,
                                                  GBytes              *body,
                                                  gboolean             in_session,
                                                  guint                timeout_ms,
                                                  ExchangeMessageFunc  message_func,
                                                  ExchangeDoneFunc     done_func,
                                                  gpointer             user_data);
gboolean  tw_stdio_bridge_exchange_app_restarted (Exchange            *exchange,
                                                  const GError        *error);
char     *tw_stdio_bridge_describe_failure       (TwStdioBridge       *self,
                                                  Exchange            *exchange,
                                                  const GError        *error);

/* tw-stdio-bridge-request.c */
void      tw_stdio_bridge_request_free           (Request             *request);
void      tw_stdio_bridge_request_finish         (Request             *request);
void      tw_stdio_bridge_request_reply_no_host  (Request             *request,
                                                  const char          *reason);
void      tw_stdio_bridge_request_send           (Request             *request);
void      tw_stdio_bridge_request_dispatch       (Request             *request);
void      tw_stdio_bridge_forward                (TwStdioBridge       *self,
                                                  GBytes              *line);

/* tw-stdio-bridge-upstream.c */
void      tw_stdio_bridge_upstream_connect       (TwStdioBridge       *self);
void      tw_stdio_bridge_upstream_lost          (TwStdioBridge       *self,
                                                  guint                generation);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-error.h"

/* browser_logs */

JsonObject *
tw_page_tools_logs (TwTabLog    *log,
                    JsonObject  *params,
                    GError     **error)
{
  gint64 max_entries = TW_PAGE_TOOLS_LOGS_DEFAULT_ENTRIES;
  g_autoptr(GError) local_error = NULL;
  guint capacity;
  JsonObject *reply;

  g_return_val_if_fail (TW_IS_TAB_LOG (log), NULL);

  capacity = tw_tab_log_get_capacity (log);
  max_entries = MIN (max_entries, (gint64) capacity);

  _tw_page_tools_get_int_param (params, "maxEntries", &max_entries, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (max_entries < 1 || max_entries > (gint64) capacity)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"maxEntries\" must be between 1 and %u", capacity);
      return NULL;
    }

  reply = json_object_new ();
  json_object_set_array_member (reply, "entries", tw_tab_log_get_entries (log, max_entries));
  json_object_set_int_member (reply, "total", tw_tab_log_get_n_entries (log));
  json_object_set_int_member (reply, "dropped", tw_tab_log_get_n_dropped (log));

  return reply;
}

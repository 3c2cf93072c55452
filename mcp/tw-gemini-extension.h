/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Gemini CLI's tabwright user extension, written only with the person's
 * consent: ~/.gemini/extensions/tabwright/gemini-extension.json, the file
 * that the Gemini CLI snippet's first line writes (the same bytes), which
 * names no URL or token, only $TABWRIGHT_MCP_URL and $TABWRIGHT_MCP_TOKEN.
 * No GTK here: the UI asks (TwGeminiInstall), this checks and writes. */

typedef enum
{
  /* There is no gemini-extension.json. */
  TW_GEMINI_EXTENSION_MISSING,
  /* It says what Tabwright would write (the same JSON, however laid out). */
  TW_GEMINI_EXTENSION_INSTALLED,
  /* It says something else, e.g. the person changed it: replacing it loses
   * that, so it is replaced only when asked to. */
  TW_GEMINI_EXTENSION_DIFFERENT,
} TwGeminiExtensionState;

/* The home folder Gemini CLI uses: $GEMINI_CLI_HOME, else the home folder. */
char                   *tw_gemini_extension_dup_home     (void);
/* @home/.gemini/extensions/tabwright/gemini-extension.json; @home NULL is
 * tw_gemini_extension_dup_home(). */
char                   *tw_gemini_extension_dup_path     (const char  *home);
/* What install writes, with its final newline. */
char                   *tw_gemini_extension_dup_contents (void);

/* What is there now. @current (may be NULL) gets the file's text when it is
 * DIFFERENT. Fails only when the file is there but cannot be read. */
gboolean                tw_gemini_extension_check        (const char              *home,
                                                          TwGeminiExtensionState  *state,
                                                          char                   **current,
                                                          GError                 **error);
/* Writes the extension unless it is INSTALLED already (then it writes
 * nothing). A DIFFERENT file fails with G_IO_ERROR_EXISTS and stays as it
 * is, unless @replace. @previous (may be NULL) gets the state before. */
gboolean                tw_gemini_extension_install      (const char              *home,
                                                          gboolean                 replace,
                                                          TwGeminiExtensionState  *previous,
                                                          GError                 **error);

/* The same off the main thread, for the UI. check finishes with the state
 * and @current; install with the state it found before writing. */
void                    tw_gemini_extension_check_async    (const char              *home,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean                tw_gemini_extension_check_finish   (GAsyncResult            *result,
                                                            TwGeminiExtensionState  *state,
                                                            char                   **current,
                                                            GError                 **error);
void                    tw_gemini_extension_install_async  (const char              *home,
                                                            gboolean                 replace,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean                tw_gemini_extension_install_finish (GAsyncResult            *result,
                                                            TwGeminiExtensionState  *previous,
                                                            GError                 **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-window.h"

#include "tw-test-webview.h"

TwWindow *
tw_test_window_new (TwBrowser  *browser,
                    const char *name,
                    const char *path,
                    int         width,
                    int         height)
{
  TwWindow *window = tw_window_new (NULL, browser, name, path);

  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

void
tw_test_window_close (TwWindow   *window,
                      TwBrowser **browser)
{
  gtk_window_destroy (GTK_WINDOW (window));
  tw_test_close_browser (browser);
}

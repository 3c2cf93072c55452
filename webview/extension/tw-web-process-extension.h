/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The names of the user messages the web-process extension sends to the web
 * view. Shared by both sides; no other API. */

/* Parameters: (level, source, text, source URL, line) as "(sssst)". */
#define TW_WEB_EXTENSION_CONSOLE_MESSAGE "tabwright.console-message"

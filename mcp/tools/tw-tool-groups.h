/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Every group of browser tools, one line each, in the order tools/list and
 * the generated reference show them. TW_TOOL_GROUP (name) stands for the
 * table that mcp/tools/tw-tools-<name>.c exports as
 *
 *   const TwToolDef *tw_tools_<name>_get (guint *n_tools);
 *
 * Adding a group is one line here plus its source file in mcp/meson.build.
 * This file is included several times with different definitions of
 * TW_TOOL_GROUP, so it has no include guard. */

TW_TOOL_GROUP (tabs)
TW_TOOL_GROUP (navigation)
TW_TOOL_GROUP (snapshot)
TW_TOOL_GROUP (page)
TW_TOOL_GROUP (input)
TW_TOOL_GROUP (handoff)
TW_TOOL_GROUP (storage)
TW_TOOL_GROUP (dialogs)
TW_TOOL_GROUP (downloads)
TW_TOOL_GROUP (pdf)
TW_TOOL_GROUP (find)

/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Every table of browser tools, one line each, in the order tools/list and
 * the generated reference show them. TW_TOOL_GROUP (name, offered) stands
 * for the table that mcp/tools/tw-tools-<name>.c exports as
 *
 *   const TwToolTable tw_tools_<name> = TW_TOOL_TABLE (<its tools>);
 *
 * and names the group it is offered in: the person turns whole groups on and
 * off per workspace (Preferences, the tool-groups setting, --tools), so
 * several tables may share one offered group ("core" is today's tools). A new
 * offered group needs nothing else: its name here is its name everywhere.
 *
 * Adding a table is one line here plus its source file in mcp/meson.build.
 * This file is included several times with different definitions of
 * TW_TOOL_GROUP, so it has no include guard. */

TW_TOOL_GROUP (tabs, core)
TW_TOOL_GROUP (navigation, core)
TW_TOOL_GROUP (snapshot, core)
TW_TOOL_GROUP (page, core)
TW_TOOL_GROUP (input, core)
TW_TOOL_GROUP (handoff, core)
TW_TOOL_GROUP (reading, reading)
TW_TOOL_GROUP (debugging, debugging)
TW_TOOL_GROUP (dialogs, core)
TW_TOOL_GROUP (find, reading)
TW_TOOL_GROUP (search, reading)
TW_TOOL_GROUP (storage, storage)
TW_TOOL_GROUP (downloads, output)
TW_TOOL_GROUP (pdf, output)
TW_TOOL_GROUP (forms, input)
TW_TOOL_GROUP (mouse, input)
TW_TOOL_GROUP (emulation, emulation)
TW_TOOL_GROUP (routes, debugging)
TW_TOOL_GROUP (performance, debugging)
TW_TOOL_GROUP (sharing, agents)
TW_TOOL_GROUP (replay, replay)
TW_TOOL_GROUP (annotate, teach)
TW_TOOL_GROUP (demonstrate, teach)

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "tw-agent-preset.h"

G_BEGIN_DECLS

/* Shared by tw-agent-preset.c (a preset, its placeholders and the launch it
 * builds), tw-agent-preset-load.c (presets files read into preset lists) and
 * tw-agent-preset-locate.c (finding the program a launch would run). */

struct _TwAgentPreset
{
  GObject     parent_instance;

  char       *id;
  char       *name;
  char       *description;
  char       *program;
  char       *install;
  char       *homepage;
  char       *notes;
  char      **search_paths;
  char      **args;
  /* NAME -> template, in the file's order. */
  JsonObject *env;
  /* The template of the preset's own config file, or NULL. */
  JsonNode   *config;

  /* The person's say (issue 32): NULL where the preset leaves the
   * workspace's. */
  char      **allowed_sites;
  char      **approve;
  char       *session;
  /* What the person chose in place of it (tw_agent_preset_set_session()). */
  char       *chosen_session;
  guint       approval_timeout_s;

  guint       needs_command : 1;
  guint       hidden : 1;
};

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

int
main (int   argc,
      char *argv[])
{
  return 0;
}

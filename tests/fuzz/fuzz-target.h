/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* The libFuzzer interface, which the stand-alone driver also calls. */
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int LLVMFuzzerInitialize   (int            *argc,
                            char         ***argv) __attribute__ ((weak));

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz-target.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

/* A small stand-alone driver for the fuzz targets, so they run in the test
 * suite with any compiler: every input of the corpus first, then random
 * mutations of them for a bounded time. A target reports a bug by crashing
 * or aborting (the sanitizers and g_assert do); the driver then leaves the
 * input that did it in fuzz-crash-<target> in the current folder and prints
 * the seed that reproduces the run. The targets also build as libFuzzer
 * targets: they only define LLVMFuzzerTestOneInput. */

#define FUZZ_MAX_INPUT (64 * 1024)

static const guint8 *current_data;
static size_t current_size;
static const char *crash_file;

static void
write_crash_input (int signum)
{
  int fd = open (crash_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd >= 0)
    {
      size_t done = 0;

      while (done < current_size)
        {
          ssize_t n = write (fd, current_data + done, current_size - done);

          if (n <= 0)
            break;
          done += n;
        }
      close (fd);
    }

  signal (signum, SIG_DFL);
  raise (signum);
}

static void
run_one (const guint8 *data,
         size_t        size)
{
  current_data = data;
  current_size = size;
  LLVMFuzzerTestOneInput (data, size);
  current_data = NULL;
  current_size = 0;
}

/* Pieces that matter to the parsers, spliced in at random. */
static const char * const tokens[] = {
  "[", "]", "{", "}", "\"", ":", ",", "\\u0000", "\\ud800", "\\udc00", "\\\"", "\\\\",
  "/*", "*/", "//", "'", "0x", "00", "-", "1e400", "9223372036854775808", "true", "null",
  "\"browserId\":", "\"method\":", "\"params\":", "../", "/", "..", ".", "link", "\xc3", "\xff",
  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "{\"a\":{\"a\":{\"a\":{\"a\":",
};

static void
insert_bytes (GByteArray   *array,
              guint         at,
              const guint8 *data,
              guint         count)
{
  guint tail = array->len - at;

  g_byte_array_set_size (array, array->len + count);
  memmove (array->data + at + count, array->data + at, tail);
  memcpy (array->data + at, data, count);
}

static void
mutate (GByteArray *input,
        GPtrArray  *corpus,
        GRand      *rand)
{
  guint n = g_rand_int_range (rand, 1, 8);

  for (guint i = 0; i < n; i++)
    {
      guint len = input->len;
      guint at = len > 0 ? g_rand_int_range (rand, 0, len + 1) : 0;
      /* Drawn once: MIN() evaluates its arguments twice. */
      guint run = g_rand_int_range (rand, 1, 32);

      switch (g_rand_int_range (rand, 0, 6))
        {
        case 0:  /* flip a bit */
          if (len > 0)
            input->data[MIN (at, len - 1)] ^= 1 << g_rand_int_range (rand, 0, 8);
          break;

        case 1:  /* set a byte */
          if (len > 0)
            input->data[MIN (at, len - 1)] = g_rand_int_range (rand, 0, 256);
          break;

        case 2:  /* delete a run */
          if (len > 0 && at < len)
            g_byte_array_remove_range (input, at, MIN (len - at, run));
          break;

        case 3:  /* insert a token */
          {
            const char *token = tokens[g_rand_int_range (rand, 0, G_N_ELEMENTS (tokens))];

            insert_bytes (input, at, (const guint8 *) token, strlen (token));
          }
          break;

        case 4:  /* splice in part of another corpus entry */
          if (corpus->len > 0)
            {
              GBytes *other = g_ptr_array_index (corpus, g_rand_int_range (rand, 0, corpus->len));
              gsize other_len;
              const guint8 *other_data = g_bytes_get_data (other, &other_len);

              if (other_len > 0)
                {
                  gsize from = g_rand_int_range (rand, 0, other_len);
                  gsize count = MIN (other_len - from, (gsize) run * 2);

                  insert_bytes (input, at, other_data + from, count);
                }
            }
          break;

        default:  /* duplicate a run */
          if (len > 0 && at < len)
            {
              guint count = MIN (len - at, run);
              g_autofree guint8 *copy = g_memdup2 (input->data + at, count);

              insert_bytes (input, at, copy, count);
            }
          break;
        }
    }

  if (input->len > FUZZ_MAX_INPUT)
    g_byte_array_set_size (input, FUZZ_MAX_INPUT);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) corpus = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GRand) rand = NULL;
  g_autofree char *corpus_dir = NULL;
  g_autofree char *name = NULL;
  double seconds = 3;
  gint64 seed = 0;
  gint64 deadline;
  guint64 runs = 0;
  const char *file;
  GOptionEntry entries[] = {
    { "corpus", 0, 0, G_OPTION_ARG_FILENAME, &corpus_dir, "Folder of inputs to start from", "DIR" },
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "How long to mutate (default 3)", "S" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the mutations (default: random)", "N" },
    { NULL }
  };

  context = g_option_context_new ("[FILE…] - run a fuzz target");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  name = g_path_get_basename (argv[0]);
  crash_file = g_strdup_printf ("fuzz-crash-%s", name);
  signal (SIGSEGV, write_crash_input);
  signal (SIGABRT, write_crash_input);
  signal (SIGBUS, write_crash_input);
  signal (SIGFPE, write_crash_input);

  if (LLVMFuzzerInitialize != NULL)
    LLVMFuzzerInitialize (&argc, &argv);

  /* Files named on the command line are run once each: reproducing a crash. */
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *contents = NULL;
      gsize length;

      if (!g_file_get_contents (argv[i], &contents, &length, &error))
        {
          g_printerr ("%s\n", error->message);
          return 2;
        }
      run_one ((const guint8 *) contents, length);
      g_print ("%s: ok\n", argv[i]);
    }
  if (argc > 1)
    return 0;

  if (corpus_dir == NULL)
    {
      g_printerr ("--corpus is required\n");
      return 2;
    }

  dir = g_dir_open (corpus_dir, 0, &error);
  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (corpus_dir, file, NULL);
      char *contents = NULL;
      gsize length;

      if (!g_file_get_contents (path, &contents, &length, NULL))
        continue;
      g_ptr_array_add (corpus, g_bytes_new_take (contents, length));
    }

  /* The corpus itself, in a stable order. */
  for (guint i = 0; i < corpus->len; i++)
    {
      gsize length;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (corpus, i), &length);

      run_one (data, length);
      runs++;
    }

  if (seed == 0)
    seed = g_get_real_time ();
  g_print ("# %s: %u corpus inputs, mutating for %.1f s with --seed=%" G_GINT64_FORMAT "\n",
           name, corpus->len, seconds, seed);
  rand = g_rand_new_with_seed ((guint32) seed);

  deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < deadline && corpus->len > 0)
    {
      g_autoptr(GByteArray) input = g_byte_array_new ();
      gsize length;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (corpus, g_rand_int_range (rand, 0, corpus->len)),
                                             &length);

      g_byte_array_append (input, data, length);
      mutate (input, corpus, rand);
      run_one (input->data, input->len);
      runs++;
    }

  g_print ("# %s: %" G_GUINT64_FORMAT " inputs, no crash\n", name, runs);
  return 0;
}

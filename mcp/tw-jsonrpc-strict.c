/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-jsonrpc.h"

#include <math.h>
#include <string.h>

/* Strict JSON. json-glib 1.6 reads GScanner's dialect: it accepts single
 * quotes, comments, hex and octal numbers, a second value after the first,
 * wraps integers beyond 64 bits, cuts strings at \u0000 and recurses once per
 * level of nesting, so a body of a million '[' overflows the stack. This
 * scanner walks the text once, without recursion, and lets through only what
 * json-glib will read exactly as written. */

typedef struct
{
  char        kind;   /* '[' or '{' */
  GHashTable *names;  /* an object's member names so far */
} StrictFrame;

typedef struct
{
  const char *data;
  gsize       length;
  gsize       pos;
  GError    **error;
} StrictScanner;

static gboolean
strict_fail (StrictScanner *scanner,
             gsize          pos,
             const char    *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
strict_fail (StrictScanner *scanner,
             gsize          pos,
             const char    *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (scanner->error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
               "Parse error: %s (at byte %" G_GSIZE_FORMAT ")", what, pos);
  return FALSE;
}

/* Says what is wrong with the byte at @pos, where a value or a punctuation
 * mark was expected. */
static gboolean
strict_unexpected (StrictScanner *scanner,
                   const char    *expected)
{
  gsize pos = scanner->pos;
  guchar c;

  if (pos >= scanner->length)
    return strict_fail (scanner, pos, "the text ends where %s was expected", expected);

  c = scanner->data[pos];
  if (c == '/' && pos + 1 < scanner->length &&
      (scanner->data[pos + 1] == '*' || scanner->data[pos + 1] == '/'))
    return strict_fail (scanner, pos, "comments are not JSON");
  if (c == '\'')
    return strict_fail (scanner, pos, "strings must be in double quotes");
  if (c >= 0x21 && c < 0x7f)
    return strict_fail (scanner, pos, "unexpected character '%c' where %s was expected", c, expected);

  return strict_fail (scanner, pos, "unexpected byte 0x%02x where %s was expected", c, expected);
}

static void
strict_skip_space (StrictScanner *scanner)
{
  while (scanner->pos < scanner->length)
    {
      char c = scanner->data[scanner->pos];

      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return;
      scanner->pos++;
    }
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads four hex digits after "\u" at @pos. */
static gboolean
read_hex4 (StrictScanner *scanner,
           gsize          pos,
           gunichar      *value)
{
  *value = 0;

  if (pos + 4 > scanner->length)
    return FALSE;

  for (guint i = 0; i < 4; i++)
    {
      int digit = hex_value (scanner->data[pos + i]);

      if (digit < 0)
        return FALSE;
      *value = *value * 16 + digit;
    }

  return TRUE;
}

/* A string from its opening quote. With @decoded, its value is appended
 * there (member names, to find duplicates). */
static gboolean
strict_scan_string (StrictScanner *scanner,
                    GString       *decoded)
{
  gsize start = scanner->pos;

  scanner->pos++;

  for (;;)
    {
      gsize at = scanner->pos;
      guchar c;

      if (at >= scanner->length)
        return strict_fail (scanner, start, "the string is not terminated");

      c = scanner->data[at];

      if (c == '"')
        {
          scanner->pos++;
          return TRUE;
        }

      if (c < 0x20)
        return strict_fail (scanner, at, "control character U+%04X must be escaped in a string", c);

      if (c != '\\')
        {
          if (decoded != NULL)
            g_string_append_c (decoded, c);
          scanner->pos++;
          continue;
        }

      if (at + 1 >= scanner->length)
        return strict_fail (scanner, start, "the string is not terminated");

      c = scanner->data[at + 1];
      if (c == 'u')
        {
          gunichar value;

          if (!read_hex4 (scanner, at + 2, &value))
            return strict_fail (scanner, at, "\\u must be followed by four hex digits");

          if (value == 0)
            return strict_fail (scanner, at, "strings cannot contain NUL (\\u0000)");

          scanner->pos = at + 6;

          if (value >= 0xdc00 && value <= 0xdfff)
            return strict_fail (scanner, at, "\\u%04X is half of a surrogate pair without its first half",
                                value);

          if (value >= 0xd800 && value <= 0xdbff)
            {
              gunichar low;

              if (scanner->pos + 1 >= scanner->length ||
                  scanner->data[scanner->pos] != '\\' || scanner->data[scanner->pos + 1] != 'u' ||
                  !read_hex4 (scanner, scanner->pos + 2, &low) || low < 0xdc00 || low > 0xdfff)
                return strict_fail (scanner, at, "\\u%04X is half of a surrogate pair without its second half",
                                    value);

              value = 0x10000 + ((value - 0xd800) << 10) + (low - 0xdc00);
              scanner->pos += 6;
            }

          if (decoded != NULL)
            g_string_append_unichar (decoded, value);
          continue;
        }

      if (strchr ("\"\\/bfnrt", c) == NULL || c == '\0')
        {
          if (c >= 0x21 && c < 0x7f)
            return strict_fail (scanner, at, "\\%c is not a JSON escape", c);
          return strict_fail (scanner, at, "a backslash must start a JSON escape");
        }

      if (decoded != NULL)
        g_string_append_c (decoded, c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' :
                           c == 'r' ? '\r' : c == 't' ? '\t' : c);
      scanner->pos = at + 2;
    }
}

static gboolean
is_digit (StrictScanner *scanner,
          gsize          pos)
{
  return pos < scanner->length && g_ascii_isdigit (scanner->data[pos]);
}

static gboolean
strict_scan_number (StrictScanner *scanner)
{
  gsize start = scanner->pos;
  gsize pos = start;
  gboolean negative = FALSE;
  gboolean integer = TRUE;

  if (scanner->data[pos] == '-')
    {
      negative = TRUE;
      pos++;
    }

  if (!is_digit (scanner, pos))
    {
      scanner->pos = pos;
      return strict_unexpected (scanner, "a digit");
    }

  if (scanner->data[pos] == '0')
    {
      pos++;
      if (pos < scanner->length && (scanner->data[pos] == 'x' || scanner->data[pos] == 'X'))
        return strict_fail (scanner, start, "hexadecimal numbers are not JSON");
      if (is_digit (scanner, pos))
        return strict_fail (scanner, start, "numbers cannot have leading zeros");
    }
  else
    {
      while (is_digit (scanner, pos))
        pos++;
    }

  if (pos < scanner->length && scanner->data[pos] == '.')
    {
      integer = FALSE;
      pos++;
      if (!is_digit (scanner, pos))
        return strict_fail (scanner, pos, "a digit must follow the decimal point");
      while (is_digit (scanner, pos))
        pos++;
    }

  if (pos < scanner->length && (scanner->data[pos] == 'e' || scanner->data[pos] == 'E'))
    {
      integer = FALSE;
      pos++;
      if (pos < scanner->length && (scanner->data[pos] == '+' || scanner->data[pos] == '-'))
        pos++;
      if (!is_digit (scanner, pos))
        return strict_fail (scanner, pos, "a digit must follow the exponent");
      while (is_digit (scanner, pos))
        pos++;
    }

  scanner->pos = pos;

  if (integer)
    {
      /* json-glib keeps integers as gint64 and wraps the ones beyond it. */
      guint64 limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
      guint64 value = 0;

      for (gsize i = start + (negative ? 1 : 0); i < pos; i++)
        {
          guint digit = scanner->data[i] - '0';

          if (value > (limit - digit) / 10)
            return strict_fail (scanner, start, "the integer does not fit in 64 bits");
          value = value * 10 + digit;
        }
    }
  else
    {
      g_autofree char *text = g_strndup (scanner->data + start, pos - start);

      if (!isfinite (g_ascii_strtod (text, NULL)))
        return strict_fail (scanner, start, "the number is too large for a double");
    }

  return TRUE;
}

static gboolean
strict_scan_word (StrictScanner *scanner)
{
  static const char * const words[] = { "true", "false", "null" };
  gsize pos = scanner->pos;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);

      if (pos + n <= scanner->length && memcmp (scanner->data + pos, words[i], n) == 0 &&
          (pos + n == scanner->length || !g_ascii_isalnum (scanner->data[pos + n])))
        {
          scanner->pos = pos + n;
          return TRUE;
        }
    }

  return strict_unexpected (scanner, "a value");
}

static void
strict_frame_clear (StrictFrame *frame)
{
  g_clear_pointer (&frame->names, g_hash_table_unref);
}

static gboolean
strict_push (StrictScanner *scanner,
             GArray        *stack,
             guint          max_depth)
{
  StrictFrame frame = { scanner->data[scanner->pos], NULL };

  if (stack->len >= max_depth)
    return strict_fail (scanner, scanner->pos, "arrays and objects nest deeper than %u levels",
                        max_depth);

  if (frame.kind == '{')
    frame.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_array_append_val (stack, frame);
  scanner->pos++;
  return TRUE;
}

/* A member name and its colon, from the opening quote. */
static gboolean
strict_scan_name (StrictScanner *scanner,
                  StrictFrame   *frame)
{
  g_autoptr(GString) name = g_string_new (NULL);
  gsize start = scanner->pos;

  if (start >= scanner->length || scanner->data[start] != '"')
    return strict_unexpected (scanner, "a member name in double quotes");

  if (!strict_scan_string (scanner, name))
    return FALSE;

  if (g_hash_table_contains (frame->names, name->str))
    return strict_fail (scanner, start, "the member name %.*s%s appears twice in one object",
                        (int) MIN (scanner->pos - start, 64), scanner->data + start,
                        scanner->pos - start > 64 ? "…" : "");
  g_hash_table_add (frame->names, g_string_free (g_steal_pointer (&name), FALSE));

  strict_skip_space (scanner);
  if (scanner->pos >= scanner->length || scanner->data[scanner->pos] != ':')
    return strict_unexpected (scanner, "':'");
  scanner->pos++;

  return TRUE;
}

gboolean
tw_jsonrpc_check_strict (const char  *data,
                         gsize        length,
                         guint        max_depth,
                         GError     **error)
{
  g_autoptr(GArray) stack = NULL;
  StrictScanner scanner = { data, length, 0, error };

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Also refuses raw NUL bytes. */
  if (!g_utf8_validate_len (data, length, NULL))
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                           "Parse error: the body is not valid UTF-8 text");
      return FALSE;
    }

  stack = g_array_new (FALSE, FALSE, sizeof (StrictFrame));
  g_array_set_clear_func (stack, (GDestroyNotify) strict_frame_clear);

  strict_skip_space (&scanner);
  if (scanner.pos >= length)
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                           "Parse error: the body is empty");
      return FALSE;
    }

  for (;;)
    {
      char c;

      /* A value. */
      strict_skip_space (&scanner);
      c = scanner.pos < length ? data[scanner.pos] : '\0';

      if (c == '[' || c == '{')
        {
          if (!strict_push (&scanner, stack, max_depth))
            return FALSE;

          strict_skip_space (&scanner);
          if (scanner.pos < length && data[scanner.pos] == (c == '[' ? ']' : '}'))
            {
              scanner.pos++;
              g_array_set_size (stack, stack->len - 1);
            }
          else if (c == '{')
            {
              if (!strict_scan_name (&scanner, &g_array_index (stack, StrictFrame, stack->len - 1)))
                return FALSE;
              continue;
            }
          else
            {
              continue;
            }
        }
      else if (c == '"')
        {
          if (!strict_scan_string (&scanner, NULL))
            return FALSE;
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          if (!strict_scan_number (&scanner))
            return FALSE;
        }
      else if (scanner.pos < length && g_ascii_isalpha (c))
        {
          if (!strict_scan_word (&scanner))
            return FALSE;
        }
      else
        {
          return strict_unexpected (&scanner, "a value");
        }

      /* After a value: close what it ends, then a comma or the end. */
      for (;;)
        {
          StrictFrame *frame;

          strict_skip_space (&scanner);

          if (stack->len == 0)
            {
              if (scanner.pos + 1 < length && data[scanner.pos] == '/' &&
                  (data[scanner.pos + 1] == '*' || data[scanner.pos + 1] == '/'))
                return strict_unexpected (&scanner, "the end");
              if (scanner.pos < length)
                return strict_fail (&scanner, scanner.pos,
                                    "more text follows the JSON value; send one message per body");
              return TRUE;
            }

          frame = &g_array_index (stack, StrictFrame, stack->len - 1);

          if (scanner.pos < length && data[scanner.pos] == (frame->kind == '[' ? ']' : '}'))
            {
              scanner.pos++;
              g_array_set_size (stack, stack->len - 1);
              continue;
            }

          if (scanner.pos >= length || data[scanner.pos] != ',')
            return strict_unexpected (&scanner, frame->kind == '[' ? "',' or ']'" : "',' or '}'");

          scanner.pos++;
          strict_skip_space (&scanner);

          if (scanner.pos < length && (data[scanner.pos] == ']' || data[scanner.pos] == '}'))
            return strict_fail (&scanner, scanner.pos, "a comma cannot come before '%c'",
                                data[scanner.pos]);

          if (frame->kind == '{' && !strict_scan_name (&scanner, frame))
            return FALSE;

          break;
        }
    }
}

/* test_csv.c — the reader of the files fricbench reads back (fb_csv.h): RFC 4180 CSV
 * from a buffer (quotes, doubled quotes, newlines inside quotes, CRLF, blank lines, short
 * and long rows, no final line end, empty text, NUL bytes, a buffer without a NUL after
 * it), strict numbers, whole-file loads, and the flat-JSON value getter.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_csv.h"
#include "fb_test.h"

/* Parse a C string (without its NUL: the parser must not need one). */
static int parse(fb_csv *t, const char *s)
{
  const size_t n = strlen(s);
  char *copy = malloc(n ? n : 1);
  cr_assert_not_null(copy);
  memcpy(copy, s, n);
  const int st = fb_csv_parse(t, copy, n);
  free(copy);
  return st;
}

Test(csv, plain_table)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "a,b,c\n1,2,3\n4,5,6\n"), FB_OK);
  cr_expect_eq(t.ncols, 3);
  cr_expect_eq(t.nrows, 2);
  cr_expect_str_eq(t.hdr[1], "b");
  cr_expect_eq(fb_csv_col(&t, "c"), 2);
  cr_expect_eq(fb_csv_col(&t, "d"), -1);
  cr_expect_str_eq(fb_csv_s(&t, 1, 2), "6");
  cr_expect_eq(fb_csv_d(&t, 0, 1), 2.0);
  cr_expect_eq(t.rows[1].off, 12);
  cr_expect_eq(t.rows[1].len, 5);
  cr_expect_eq(t.rows[1].nfields, 3);
  cr_expect_eq(t.open_quote, 0);
  fb_csv_free(&t);
}

Test(csv, quotes_doubled_quotes_and_newlines_inside_quotes)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "name,msg\n\"x,y\",\"say \"\"hi\"\"\"\n\"two\nlines\",\"\"\nlast,z\n"),
               FB_OK);
  cr_assert_eq(t.nrows, 3);
  cr_expect_str_eq(fb_csv_s(&t, 0, 0), "x,y");
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "say \"hi\"");
  cr_expect_str_eq(fb_csv_s(&t, 1, 0), "two\nlines");
  cr_expect_str_eq(fb_csv_s(&t, 1, 1), "");
  cr_expect_eq(t.rows[1].len, strlen("\"two\nlines\",\"\""), "a record spans its quoted newline");
  cr_expect_str_eq(fb_csv_s(&t, 2, 1), "z");
  fb_csv_free(&t);
}

Test(csv, crlf_blank_lines_and_no_final_newline)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "\r\n\na,b\r\n\r\n1,2\r\n\n3,4"), FB_OK);
  cr_expect_eq(t.ncols, 2);
  cr_expect_str_eq(t.hdr[1], "b", "no CR in the last header field");
  cr_expect_eq(t.head.off, 3, "leading blank lines skipped");
  cr_expect_eq(t.head.len, 3, "the record's bytes stop before its CRLF");
  cr_assert_eq(t.nrows, 2, "blank lines are no rows");
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "2");
  cr_expect_str_eq(fb_csv_s(&t, 1, 1), "4", "the last record needs no line end");
  fb_csv_free(&t);
}

Test(csv, short_and_long_rows_read_at_the_header_width)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "a,b,c\n1\n1,2,3,4,5\n"), FB_OK);
  cr_assert_eq(t.nrows, 2);
  cr_expect_eq(t.rows[0].nfields, 1);
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "", "padded");
  cr_expect_str_eq(fb_csv_s(&t, 0, 2), "");
  cr_expect_eq(t.rows[1].nfields, 5, "the fields as read");
  cr_expect_str_eq(fb_csv_s(&t, 1, 2), "3");
  cr_expect_str_eq(fb_csv_s(&t, 1, 3), "", "cut: past the header");
  cr_expect_str_eq(fb_csv_s(&t, 2, 0), "", "past the last row");
  cr_expect_str_eq(fb_csv_s(&t, 0, -1), "");
  cr_expect(isnan(fb_csv_d(&t, 0, 1)));
  fb_csv_free(&t);
}

Test(csv, empty_text_and_blank_lines_have_no_header)
{
  fb_csv t;
  cr_expect_eq(fb_csv_parse(&t, NULL, 0), FB_EINVAL);
  cr_expect_eq(t.nrows, 0);
  cr_expect_null(t.hdr);
  cr_expect_eq(parse(&t, "\n\r\n\n"), FB_EINVAL);
  cr_expect_eq(parse(&t, "\"\"\n"), FB_EINVAL, "one empty quoted field is a blank record");
  cr_assert_eq(parse(&t, "only,header"), FB_OK);
  cr_expect_eq(t.ncols, 2);
  cr_expect_eq(t.nrows, 0);
  fb_csv_free(&t);
}

Test(csv, open_quote_at_the_end_closes_there)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "a,b\n1,\"open\nstill"), FB_OK);
  cr_expect_eq(t.open_quote, 1);
  cr_assert_eq(t.nrows, 1);
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "open\nstill");
  fb_csv_free(&t);
}

Test(csv, nul_bytes_end_the_field_string_only)
{
  const char text[] = {'a', ',', 'b', '\n', 'x', '\0', 'y', ',', '\0', '\n', '1', ',', '2'};
  fb_csv t;
  cr_assert_eq(fb_csv_parse(&t, text, sizeof text), FB_OK);
  cr_assert_eq(t.nrows, 2);
  cr_expect_str_eq(fb_csv_s(&t, 0, 0), "x");
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "");
  cr_expect_eq(t.rows[0].len, 5);
  cr_expect_str_eq(fb_csv_s(&t, 1, 1), "2");
  fb_csv_free(&t);
}

Test(csv, numbers_are_strict)
{
  fb_csv t;
  cr_assert_eq(parse(&t, "v\n1.5\n 2e3 \nnan\ninf\n1.5abc\n\"\",1\nx\n-0x10\n"), FB_OK);
  cr_assert_eq(t.nrows, 8);
  cr_expect_eq(fb_csv_d(&t, 0, 0), 1.5);
  cr_expect_eq(fb_csv_d(&t, 1, 0), 2000.0, "blanks around a number are allowed");
  cr_expect(isnan(fb_csv_d(&t, 2, 0)));
  cr_expect(isinf(fb_csv_d(&t, 3, 0)));
  cr_expect(isnan(fb_csv_d(&t, 4, 0)), "trailing garbage");
  cr_expect(isnan(fb_csv_d(&t, 5, 0)), "empty");
  cr_expect(isnan(fb_csv_d(&t, 6, 0)), "not a number");
  cr_expect_eq(fb_csv_d(&t, 7, 0), -16.0);
  fb_csv_free(&t);
}

Test(csv, load_reads_files_and_names_a_missing_one)
{
  char dir[64], path[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/t.csv", dir);
  fb_csv t;
  int missing = 0;
  cr_expect_eq(fb_csv_load(&t, path, &missing), FB_EIO);
  cr_expect_eq(missing, 1);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs("a,b\n1,2\n", fp);
  fclose(fp);
  cr_assert_eq(fb_csv_load(&t, path, &missing), FB_OK);
  cr_expect_eq(missing, 0);
  cr_expect_str_eq(fb_csv_s(&t, 0, 1), "2");
  fb_csv_free(&t);
  fp = fopen(path, "w");
  fclose(fp);
  cr_expect_eq(fb_csv_load(&t, path, &missing), FB_EIO, "an empty file has no header");
  cr_expect_eq(missing, 0);
  char *text;
  size_t len;
  cr_expect_eq(fb_read_file(path, &text, &len), 0);
  cr_expect_eq(len, 0);
  cr_expect_eq(text[0], '\0');
  free(text);
  fbt_rmdir(dir);
}

Test(json, values_strings_numbers_and_literals)
{
  const char *j = "{\n  \"part\": 2,\n  \"parts\" :\t3 ,\n  \"name\": \"a \\\"q\\\" b\",\n"
                  "  \"quick\": true,\n  \"m\": {\"cores\": 4}, \"arr\": [1, 2]\n}\n";
  char v[64];
  fb_json_get(j, "part", v, sizeof v);
  cr_expect_str_eq(v, "2", "\"part\" is not \"parts\"");
  fb_json_get(j, "parts", v, sizeof v);
  cr_expect_str_eq(v, "3", "blanks around the colon, trailing blanks cut");
  fb_json_get(j, "name", v, sizeof v);
  cr_expect_str_eq(v, "a \"q\" b", "escapes");
  fb_json_get(j, "quick", v, sizeof v);
  cr_expect_str_eq(v, "true");
  fb_json_get(j, "cores", v, sizeof v);
  cr_expect_str_eq(v, "4", "inside a nested object");
  fb_json_get(j, "missing", v, sizeof v);
  cr_expect_str_eq(v, "");
  fb_json_get(NULL, "part", v, sizeof v);
  cr_expect_str_eq(v, "");
}

Test(json, a_key_inside_a_string_value_is_not_a_member)
{
  const char *j = "{\"note\": \"\\\"runs\\\": 9\", \"label\": \"runs\", \"runs\": 170}";
  char v[16];
  fb_json_get(j, "runs", v, sizeof v);
  cr_expect_str_eq(v, "170");
}

Test(json, bounded_output_and_damaged_texts)
{
  char v[4] = "zzz";
  fb_json_get("{\"k\": \"abcdef\"}", "k", v, sizeof v);
  cr_expect_str_eq(v, "abc", "cut to len - 1");
  v[0] = 'z';
  fb_json_get("{\"k\": 1}", "k", v, 0);
  cr_expect_eq(v[0], 'z', "len 0 writes nothing");
  fb_json_get("{\"k\": \"unterminated", "k", v, sizeof v);
  cr_expect_str_eq(v, "", "a damaged text gives nothing (jansson parses strictly)");
  fb_json_get("{\"k", "k", v, sizeof v);
  cr_expect_str_eq(v, "");
  fb_json_get("{\"k\" 1}", "k", v, sizeof v);
  cr_expect_str_eq(v, "", "no colon: not a member");
  fb_json_get("{\"k\": \\", "k", v, sizeof v);
  cr_expect_str_eq(v, "");
  fb_json_get("{\"k\": 2.5e-3, \"t\": true}", "k", v, sizeof v);
  cr_expect_str_eq(v, "0.0", "a real, cut to len - 1");
}

/* The C interface from C: CPU transposes of 1-, 4- and 16-byte elements on odd shapes, leading
 * dimensions and batches with gaps, checked element by element against plain loops on poisoned
 * outputs; bad requests return their code and message and write nothing. Exits non-zero on failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xpose/xpose_c.h"

#define POISON 0xA5

static int failures = 0;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      ++failures;                                          \
    }                                                      \
  } while (0)

/* One layout: in (b, r, c) at b * bs_in + r * ld_in + c, out (b, c, r) at b * bs_out + c * ld_out + r. */
struct layout {
  const char* dtype;
  size_t esize;
  int64_t batch, rows, cols, ld_in, ld_out, bs_in, bs_out;
};

static void run_case(const struct layout* given) {
  struct layout resolved = *given; /* 0 = packed, as the C interface reads it */
  const struct layout* l = &resolved;
  if (resolved.ld_in == 0) resolved.ld_in = resolved.cols;
  if (resolved.ld_out == 0) resolved.ld_out = resolved.rows;
  if (resolved.bs_in == 0) resolved.bs_in = resolved.rows * resolved.ld_in;
  if (resolved.bs_out == 0) resolved.bs_out = resolved.cols * resolved.ld_out;
  const size_t in_bytes = (size_t)((l->batch - 1) * l->bs_in + (l->rows - 1) * l->ld_in + l->cols) * l->esize;
  const size_t out_bytes = (size_t)((l->batch - 1) * l->bs_out + (l->cols - 1) * l->ld_out + l->rows) * l->esize;
  unsigned char* in = malloc(in_bytes);
  unsigned char* out = malloc(out_bytes);
  unsigned char* want = malloc(out_bytes);
  char message[256];
  uint32_t seed = 12345u + (uint32_t)(l->rows * 7 + l->cols);
  for (size_t i = 0; i < in_bytes; ++i) {
    seed = seed * 1664525u + 1013904223u;
    in[i] = (unsigned char)(seed >> 24);
  }
  memset(out, POISON, out_bytes);
  memset(want, POISON, out_bytes);
  for (int64_t b = 0; b < l->batch; ++b)
    for (int64_t r = 0; r < l->rows; ++r)
      for (int64_t c = 0; c < l->cols; ++c)
        memcpy(want + (size_t)(b * l->bs_out + c * l->ld_out + r) * l->esize,
               in + (size_t)(b * l->bs_in + r * l->ld_in + c) * l->esize, l->esize);
  const int code = xpose_transpose(given->dtype, given->batch, given->rows, given->cols, given->ld_in, given->ld_out,
                                   given->bs_in, given->bs_out, in, out, NULL, "cpu", message, sizeof message);
  CHECK(code == 0, "%s %lldx%lldx%lld: code %d: %s", l->dtype, (long long)l->batch, (long long)l->rows,
        (long long)l->cols, code, message);
  CHECK(memcmp(out, want, out_bytes) == 0, "%s %lldx%lldx%lld: output differs from the loops", l->dtype,
        (long long)l->batch, (long long)l->rows, (long long)l->cols);
  free(in);
  free(out);
  free(want);
}

/* A refused request: the expected code, a message, and the output untouched. */
static void expect_refused(int code, int want_code, const char* message, const unsigned char* out, size_t n,
                           const char* what) {
  CHECK(code == want_code, "%s: code %d, want %d (%s)", what, code, want_code, message);
  CHECK(strlen(message) > 0, "%s: no message", what);
  for (size_t i = 0; i < n; ++i)
    if (out[i] != POISON) {
      CHECK(0, "%s: output written at byte %zu", what, i);
      break;
    }
}

int main(void) {
  const struct layout cases[] = {
      {"u8", 1, 1, 37, 53, 0, 0, 0, 0},
      {"f32", 4, 1, 129, 67, 70, 131, 0, 0},
      {"c128", 16, 1, 5, 300, 0, 0, 0, 0},
      {"bf16", 2, 3, 40, 70, 72, 41, 40 * 72 + 5, 70 * 41 + 9},
      {"f8e4m3", 1, 2, 33, 17, 0, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_case(&cases[i]);

  unsigned char in[64 * 64], out[64 * 64];
  char message[256];
  memset(in, 1, sizeof in);
  memset(out, POISON, sizeof out);
  expect_refused(xpose_transpose("f33", 1, 8, 8, 0, 0, 0, 0, in, out, NULL, "cpu", message, sizeof message), 1,
                 message, out, sizeof out, "unknown dtype");
  CHECK(strstr(message, "f33") != NULL, "the message names the bad dtype: %s", message);
  expect_refused(xpose_transpose("u8", 1, -3, 8, 0, 0, 0, 0, in, out, NULL, "cpu", message, sizeof message), 1,
                 message, out, sizeof out, "negative rows");
  expect_refused(xpose_transpose("u8", 1, 8, 8, 4, 0, 0, 0, in, out, NULL, "cpu", message, sizeof message), 1,
                 message, out, sizeof out, "ld_in < cols");
  expect_refused(xpose_transpose("u8", 1, 8, 8, 0, 0, 0, 0, NULL, out, NULL, "cpu", message, sizeof message), 1,
                 message, out, sizeof out, "null input");
  expect_refused(xpose_transpose("u8", 1, 8, 8, 0, 0, 0, 0, in, out, NULL, "gpu", message, sizeof message), 1,
                 message, out, sizeof out, "unknown backend");
  expect_refused(xpose_transpose("u8", 1, 32, 32, 0, 0, 0, 0, out, out + 100, NULL, "cpu", message, sizeof message),
                 2, message, out + 1124, sizeof out - 1124, "overlapping buffers");
  /* Host buffers on the GPU backend: no device (CI) or the wrong memory (a GPU machine). */
  memset(out, POISON, sizeof out);
  const int gpu = xpose_transpose("u8", 1, 8, 8, 0, 0, 0, 0, in, out, NULL, "cuda", message, sizeof message);
  expect_refused(gpu, gpu == 4 ? 4 : 5, message, out, sizeof out, "host buffers on the GPU backend");

  /* Messages are cut to the buffer and terminated; a NULL buffer is allowed. */
  char small[8];
  memset(small, 'x', sizeof small);
  CHECK(xpose_transpose("nope", 1, 8, 8, 0, 0, 0, 0, in, out, NULL, "cpu", small, sizeof small) == 1, "small buffer");
  CHECK(small[7] == '\0' && strlen(small) == 7, "message cut to 7 bytes and terminated");
  CHECK(xpose_transpose("nope", 1, 8, 8, 0, 0, 0, 0, in, out, NULL, "cpu", NULL, 0) == 1, "NULL message buffer");

  char plan[256];
  CHECK(xpose_describe_plan("f32", 1, 100, 200, 0, 0, 0, 0, 0, "cpu", plan, sizeof plan, message, sizeof message) == 0,
        "describe_plan: %s", message);
  CHECK(strncmp(plan, "cpu_", 4) == 0, "a CPU plan: %s", plan);
  CHECK(xpose_describe_plan("f32", 1, 0, 200, 0, 0, 0, 0, 0, "cpu", plan, sizeof plan, message, sizeof message) == 1,
        "describe_plan refuses zero rows");

  /* A permutation: f32 [3][5][7] with dims (2, 0, 1), out[k][i][j] = in[i][j][k]. */
  {
    float pin[105], pout[105];
    for (int i = 0; i < 105; ++i) pin[i] = (float)(i * 3 + 1);
    memset(pout, POISON, sizeof pout);
    const int64_t extents[3] = {3, 5, 7};
    const int perm[3] = {2, 0, 1};
    CHECK(xpose_permute("f32", 3, extents, perm, pin, pout, NULL, "cpu", message, sizeof message) == 0,
          "permute: %s", message);
    for (int k = 0; k < 7; ++k)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j)
          CHECK(pout[(k * 3 + i) * 5 + j] == pin[(i * 5 + j) * 7 + k], "permute element (%d,%d,%d)", k, i, j);
    const int twice[3] = {2, 2, 0};
    memset(out, POISON, sizeof out);
    expect_refused(xpose_permute("f32", 3, extents, twice, in, out, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "perm naming a dimension twice");
    expect_refused(xpose_permute("f32", 9, extents, perm, in, out, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "rank 9");
    expect_refused(xpose_permute("f32", 3, NULL, perm, in, out, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "null extents");
    CHECK(xpose_describe_permute("f32", 3, extents, perm, 0, "cpu", plan, sizeof plan, message, sizeof message) == 0,
          "describe_permute: %s", message);
    CHECK(strncmp(plan, "permute[", 8) == 0, "a permutation plan: %s", plan);
  }

  /* In place: two 5 x 5 i16 matrices, rows 6 apart, matrices 31 apart; the gaps keep their values. */
  {
    int16_t m[62], before[62];
    for (int i = 0; i < 62; ++i) m[i] = before[i] = (int16_t)(i * 7 - 100);
    CHECK(xpose_transpose_in_place("i16", 2, 5, 6, 31, m, NULL, "cpu", message, sizeof message) == 0,
          "transpose_in_place: %s", message);
    for (int b = 0; b < 2; ++b)
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 6; ++c) {
          const int at = b * 31 + r * 6 + c;
          const int16_t want = c < 5 ? before[b * 31 + c * 6 + r] : before[at];
          CHECK(m[at] == want, "in-place element (%d,%d,%d)", b, r, c);
        }
    CHECK(m[30] == before[30] && m[61] == before[61], "in place: the gap after each matrix kept");
    memset(out, POISON, sizeof out);
    expect_refused(xpose_transpose_in_place("u8", 1, 8, 4, 0, out, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "in place with ld < n");
    expect_refused(xpose_transpose_in_place("u8", 1, 8, 0, 0, NULL, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "in place on null");
  }

  {  /* in place, packed, non-square: two 3 x 7 i32 matrices 25 apart become 7 x 3; the gaps stay */
    int32_t m[50], before[50];
    for (int i = 0; i < 50; ++i) m[i] = before[i] = i * 13 - 7;
    CHECK(xpose_transpose_in_place_packed("i32", 2, 3, 7, 25, m, NULL, "cpu", message, sizeof message) == 0,
          "transpose_in_place_packed: %s", message);
    for (int b = 0; b < 2; ++b)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 7; ++c)
          CHECK(m[b * 25 + c * 3 + r] == before[b * 25 + r * 7 + c], "packed in-place element (%d,%d,%d)", b, r, c);
    CHECK(m[21] == before[21] && m[49] == before[49], "packed in place: the gaps kept");
    memset(out, POISON, sizeof out);
    expect_refused(xpose_transpose_in_place_packed("u8", 2, 8, 4, 16, out, NULL, "cpu", message, sizeof message), 1,
                   message, out, sizeof out, "packed in place with overlapping matrices");
  }

  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("capi_test: all checks passed\n");
  return failures ? 1 : 0;
}

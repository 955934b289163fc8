/* xpose's C interface: the one-call transpose, in-place transpose and permutation and the plans they would run,
 * for callers that cannot use the C++ API (Python through ctypes, other languages' FFIs). Built as the shared library
 * libxpose_c. Every function returns 0 on success, else an xpose status code (the values of
 * xpose::StatusCode: 1 invalid_argument, 2 overlap, 3 unsupported, 4 no_device, 5 wrong_memory,
 * 6 device_error, 7 internal) and writes a message a person can act on into `message` (at most
 * `message_len` bytes, always terminated; `message` may be NULL). On error nothing is written to
 * `out`. */
#ifndef XPOSE_XPOSE_C_H
#define XPOSE_XPOSE_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of xpose::TransposeDesc: `batch` row-major matrices of `rows` x `cols` elements of
 * type `dtype` (a name as `xpose bench --dtype` takes it: "u8", "bf16", "f32", "c128", ...);
 *   in  (b, r, c) at in  + b * batch_stride_in  + r * ld_in  + c
 *   out (b, c, r) at out + b * batch_stride_out + c * ld_out + r
 * strides in elements, 0 meaning packed. `backend` is "auto" (the GPU where there is one), "cuda"
 * or "cpu"; `stream` a cudaStream_t (or hipStream_t), NULL for the default stream. GPU work is
 * enqueued and not waited for; CPU work is done on return. */
int xpose_transpose(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t ld_in, int64_t ld_out,
                    int64_t batch_stride_in, int64_t batch_stride_out, const void* in, void* out, void* stream,
                    const char* backend, char* message, size_t message_len);

/* The plan xpose_transpose would run for this layout on pointers aligned to `alignment` bytes (0:
 * 16), printed into `plan` (at most `plan_len` bytes, terminated), e.g.
 * "tiled_vec<64x64,swizzle,vec16B> block=(256,1) grid=(16384,1,1)". xpose_transpose also sees where
 * its pointers lie: off the 16-byte grid with strides on it, it may run tiled_vec with a `lead` in
 * place of the plan described here. */
int xpose_describe_plan(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t ld_in, int64_t ld_out,
                        int64_t batch_stride_in, int64_t batch_stride_out, int alignment, const char* backend,
                        char* plan, size_t plan_len, char* message, size_t message_len);

/* In place: `batch` square matrices of n x n elements at `data`, rows `ld` elements apart and
 * matrices `batch_stride` apart (0: packed), each overwritten by its transpose; the elements between
 * rows and matrices are left as they are. dtype, stream and backend as for xpose_transpose; the plan
 * fits the pointer's alignment. On error nothing is written to `data`. */
int xpose_transpose_in_place(const char* dtype, int64_t batch, int64_t n, int64_t ld, int64_t batch_stride, void* data,
                             void* stream, const char* backend, char* message, size_t message_len);

/* In place, any shape: `batch` packed matrices of rows x cols elements at `data`, matrices
 * `batch_stride` apart (0: packed), each overwritten by its transpose, packed cols x rows. On the GPU
 * the sides must share a large enough factor (xpose/in_place.hpp says which), or a column of the
 * shorter side must fit one block's shared memory (else an "unsupported" error; the CPU takes any
 * size), and the call waits for `stream` where the plan held device memory. dtype, stream and backend
 * as for xpose_transpose. On error nothing is written to `data`. */
int xpose_transpose_in_place_packed(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t batch_stride,
                                    void* data, void* stream, const char* backend, char* message, size_t message_len);

/* A permutation of a packed row-major tensor of `rank` dimensions (1 to 8) with `extents`
 * (outermost first): output dimension k is input dimension perm[k], the output packed too (for
 * extents {N, C, H, W}, perm {0, 2, 3, 1} turns NCHW into NHWC). dtype, stream and backend as for
 * xpose_transpose; the plan fits the pointers' alignment. */
int xpose_permute(const char* dtype, int rank, const int64_t* extents, const int* perm, const void* in, void* out,
                  void* stream, const char* backend, char* message, size_t message_len);

/* The plan xpose_permute would run, for pointers aligned to `alignment` bytes (0: 16), e.g.
 * "permute[32x256x3136 perm 0,2,1] transpose: tiled_vec<64x64,swizzle,vec16B> ... (cuda)". */
int xpose_describe_permute(const char* dtype, int rank, const int64_t* extents, const int* perm, int alignment,
                           const char* backend, char* plan, size_t plan_len, char* message, size_t message_len);

#ifdef __cplusplus
}
#endif

#endif /* XPOSE_XPOSE_C_H */

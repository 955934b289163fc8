"""xpose from Python through ctypes: the C interface of libxpose_c (include/xpose/xpose_c.h).

    import xpose_ctypes
    lib = xpose_ctypes.Library("build/src/libxpose_c.so")
    lib.transpose("f32", rows, cols, src_ptr, dst_ptr, stream=torch.cuda.current_stream().cuda_stream)
    lib.permute("bf16", [8, 32, 2048, 128], [0, 2, 1, 3], src_ptr, dst_ptr)  # [B, H, S, D] -> [B, S, H, D]
    lib.transpose_in_place("f32", n, ptr)  # a square matrix overwritten by its transpose

Pointers are integers (tensor.data_ptr(), ctypes.addressof(...)); strides count elements, 0 meaning
packed. GPU work is enqueued on `stream` and not waited for. Errors raise XposeError with xpose's
message; nothing is written to the output then. No third-party module is needed.
"""

import ctypes

STATUS_NAMES = {1: "invalid_argument", 2: "overlap", 3: "unsupported", 4: "no_device", 5: "wrong_memory",
                6: "device_error", 7: "internal"}


class XposeError(RuntimeError):
    def __init__(self, code, message):
        super().__init__("%s: %s" % (STATUS_NAMES.get(code, "status %d" % code), message))
        self.code = code
        self.status = STATUS_NAMES.get(code, "unknown")


class Library:
    def __init__(self, path):
        self._lib = ctypes.CDLL(path)
        i64, vp, cp, sz = ctypes.c_int64, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        layout = [cp, i64, i64, i64, i64, i64, i64, i64]
        self._lib.xpose_transpose.argtypes = layout + [vp, vp, vp, cp, cp, sz]
        self._lib.xpose_transpose.restype = ctypes.c_int
        self._lib.xpose_describe_plan.argtypes = layout + [ctypes.c_int, cp, cp, sz, cp, sz]
        self._lib.xpose_describe_plan.restype = ctypes.c_int
        self._lib.xpose_transpose_in_place.argtypes = [cp, i64, i64, i64, i64, vp, vp, cp, cp, sz]
        self._lib.xpose_transpose_in_place.restype = ctypes.c_int
        self._lib.xpose_transpose_in_place_packed.argtypes = [cp, i64, i64, i64, i64, vp, vp, cp, cp, sz]
        self._lib.xpose_transpose_in_place_packed.restype = ctypes.c_int
        ip = ctypes.POINTER(ctypes.c_int)
        i64p = ctypes.POINTER(ctypes.c_int64)
        self._lib.xpose_permute.argtypes = [cp, ctypes.c_int, i64p, ip, vp, vp, vp, cp, cp, sz]
        self._lib.xpose_permute.restype = ctypes.c_int
        self._lib.xpose_describe_permute.argtypes = [cp, ctypes.c_int, i64p, ip, ctypes.c_int, cp, cp, sz, cp, sz]
        self._lib.xpose_describe_permute.restype = ctypes.c_int
        self._message = ctypes.create_string_buffer(512)  # reused: one call at a time per Library

    def _check(self, code):
        if code != 0:
            raise XposeError(code, self._message.value.decode(errors="replace"))

    def transpose(self, dtype, rows, cols, src, dst, batch=1, ld_in=0, ld_out=0, batch_stride_in=0,
                  batch_stride_out=0, stream=None, backend="auto"):
        """src (b, r, c) -> dst (b, c, r) for `batch` matrices of rows x cols `dtype` elements."""
        self._check(self._lib.xpose_transpose(
            dtype.encode(), batch, rows, cols, ld_in, ld_out, batch_stride_in, batch_stride_out, src, dst,
            stream or None, backend.encode(), self._message, len(self._message)))

    def describe_plan(self, dtype, rows, cols, batch=1, ld_in=0, ld_out=0, batch_stride_in=0, batch_stride_out=0,
                      alignment=0, backend="auto"):
        """The plan transpose() runs for this layout, as xpose prints it."""
        plan = ctypes.create_string_buffer(256)
        self._check(self._lib.xpose_describe_plan(
            dtype.encode(), batch, rows, cols, ld_in, ld_out, batch_stride_in, batch_stride_out, alignment,
            backend.encode(), plan, len(plan), self._message, len(self._message)))
        return plan.value.decode()

    def transpose_in_place(self, dtype, n, data, batch=1, ld=0, batch_stride=0, stream=None, backend="auto"):
        """Each of `batch` n x n matrices at `data` overwritten by its transpose."""
        self._check(self._lib.xpose_transpose_in_place(dtype.encode(), batch, n, ld, batch_stride, data,
                                                       stream or None, backend.encode(), self._message,
                                                       len(self._message)))

    def transpose_in_place_packed(self, dtype, rows, cols, data, batch=1, batch_stride=0, stream=None, backend="auto"):
        """Each of `batch` packed rows x cols matrices at `data` overwritten by its transpose (cols x rows)."""
        self._check(self._lib.xpose_transpose_in_place_packed(dtype.encode(), batch, rows, cols, batch_stride, data,
                                                              stream or None, backend.encode(), self._message,
                                                              len(self._message)))

    @staticmethod
    def _arrays(extents, perm):
        """The rank and C arrays of a permutation (the C call takes one rank for both)."""
        if len(perm) != len(extents):
            raise XposeError(1, "perm has %d entries for %d extents" % (len(perm), len(extents)))
        n = len(extents)
        return n, (ctypes.c_int64 * n)(*extents), (ctypes.c_int * n)(*perm)

    def permute(self, dtype, extents, perm, src, dst, stream=None, backend="auto"):
        """Packed src of `extents` -> packed dst whose dimension k is src's dimension perm[k]."""
        n, e, p = self._arrays(extents, perm)
        self._check(self._lib.xpose_permute(dtype.encode(), n, e, p, src, dst, stream or None, backend.encode(),
                                            self._message, len(self._message)))

    def describe_permute(self, dtype, extents, perm, alignment=0, backend="auto"):
        """The plan permute() runs, as xpose prints it."""
        n, e, p = self._arrays(extents, perm)
        plan = ctypes.create_string_buffer(512)
        self._check(self._lib.xpose_describe_permute(dtype.encode(), n, e, p, alignment, backend.encode(), plan,
                                                     len(plan), self._message, len(self._message)))
        return plan.value.decode()

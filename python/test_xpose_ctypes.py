"""xpose_ctypes on the CPU backend: transposes, in place too, checked against plain indexing, errors raised with
xpose's code and message and the output left alone. Usage: python3 test_xpose_ctypes.py LIBXPOSE_C"""

import ctypes
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpose_ctypes  # noqa: E402

POISON = 0xA5


def transpose_and_check(lib, dtype, esize, rows, cols, batch=1, ld_in=0, ld_out=0, bs_in=0, bs_out=0):
    ld_in, ld_out = ld_in or cols, ld_out or rows
    bs_in, bs_out = bs_in or rows * ld_in, bs_out or cols * ld_out
    in_bytes = ((batch - 1) * bs_in + (rows - 1) * ld_in + cols) * esize
    out_bytes = ((batch - 1) * bs_out + (cols - 1) * ld_out + rows) * esize
    rng = random.Random(rows * 131 + cols)
    src = (ctypes.c_ubyte * in_bytes)(*[rng.randrange(256) for _ in range(in_bytes)])
    dst = (ctypes.c_ubyte * out_bytes)(*([POISON] * out_bytes))
    lib.transpose(dtype, rows, cols, ctypes.addressof(src), ctypes.addressof(dst), batch=batch, ld_in=ld_in,
                  ld_out=ld_out, batch_stride_in=bs_in, batch_stride_out=bs_out, backend="cpu")
    want = bytearray([POISON] * out_bytes)
    for b in range(batch):
        for r in range(rows):
            for c in range(cols):
                i = (b * bs_in + r * ld_in + c) * esize
                o = (b * bs_out + c * ld_out + r) * esize
                want[o:o + esize] = bytes(src[i:i + esize])
    assert bytes(dst) == bytes(want), "%s %dx%dx%d differs from plain indexing" % (dtype, batch, rows, cols)


def permute_and_check(lib, dtype, esize, extents, perm):
    n = 1
    for e in extents:
        n *= e
    rng = random.Random(n * 7 + len(extents))
    src = (ctypes.c_ubyte * (n * esize))(*[rng.randrange(256) for _ in range(n * esize)])
    dst = (ctypes.c_ubyte * (n * esize))(*([POISON] * (n * esize)))
    lib.permute(dtype, extents, perm, ctypes.addressof(src), ctypes.addressof(dst), backend="cpu")
    in_strides = [1] * len(extents)
    for d in range(len(extents) - 2, -1, -1):
        in_strides[d] = in_strides[d + 1] * extents[d + 1]
    out_extents = [extents[p] for p in perm]
    want = bytearray(n * esize)
    index = [0] * len(extents)
    for o in range(n):  # the output in order, its input element by the permuted index
        i = sum(index[k] * in_strides[perm[k]] for k in range(len(perm)))
        want[o * esize:(o + 1) * esize] = bytes(src[i * esize:(i + 1) * esize])
        for k in range(len(index) - 1, -1, -1):
            index[k] += 1
            if index[k] < out_extents[k]:
                break
            index[k] = 0
    assert bytes(dst) == bytes(want), "%s %s perm %s differs from plain indexing" % (dtype, extents, perm)


def check_in_place(run, what, esize, rows, cols, batch, ld, ld_out, bs, seed):
    """run(address) transposes `batch` rows x cols matrices in place (rows ld apart in, ld_out apart
    out, matrices bs apart); every byte is compared with plain indexing."""
    nbytes = ((batch - 1) * bs + (rows - 1) * ld + cols) * esize
    rng = random.Random(seed)
    data = (ctypes.c_ubyte * nbytes)(*[rng.randrange(256) for _ in range(nbytes)])
    before = bytes(data)
    run(ctypes.addressof(data))
    want = bytearray(before)
    for b in range(batch):
        for r in range(rows):
            for c in range(cols):
                o = (b * bs + c * ld_out + r) * esize
                i = (b * bs + r * ld + c) * esize
                want[o:o + esize] = before[i:i + esize]
    assert bytes(data) == bytes(want), "%s in place differs from plain indexing" % what


def in_place_and_check(lib, dtype, esize, n, batch=1, ld=0, bs=0):
    ld = ld or n
    bs = bs or n * ld
    check_in_place(lambda a: lib.transpose_in_place(dtype, n, a, batch=batch, ld=ld, batch_stride=bs, backend="cpu"),
                   "%s %dx%d x%d" % (dtype, n, n, batch), esize, n, n, batch, ld, ld, bs, n * 17 + batch)


def expect_error(fn, status):
    try:
        fn()
    except xpose_ctypes.XposeError as e:
        assert e.status == status, "got %s, want %s: %s" % (e.status, status, e)
        assert str(e), "a message"
        return
    raise AssertionError("no error raised, want %s" % status)


def in_place_packed_and_check(lib, dtype, esize, rows, cols, batch=1, bs=0):
    bs = bs or rows * cols
    check_in_place(lambda a: lib.transpose_in_place_packed(dtype, rows, cols, a, batch=batch, batch_stride=bs,
                                                           backend="cpu"),
                   "%s %dx%d x%d packed" % (dtype, rows, cols, batch), esize, rows, cols, batch, cols, rows, bs,
                   rows * 31 + cols)


def main(path):
    lib = xpose_ctypes.Library(path)
    transpose_and_check(lib, "u8", 1, 37, 53)
    transpose_and_check(lib, "f32", 4, 29, 17, ld_in=20, ld_out=31)
    transpose_and_check(lib, "c128", 16, 3, 40)
    transpose_and_check(lib, "bf16", 2, 9, 14, batch=3, ld_in=16, ld_out=10, bs_in=9 * 16 + 3, bs_out=14 * 10 + 5)

    dst = (ctypes.c_ubyte * 64)(*([POISON] * 64))
    src = (ctypes.c_ubyte * 64)()
    a, b = ctypes.addressof(src), ctypes.addressof(dst)
    expect_error(lambda: lib.transpose("f33", 8, 8, a, b, backend="cpu"), "invalid_argument")
    expect_error(lambda: lib.transpose("u8", 8, 8, a, b, ld_in=4, backend="cpu"), "invalid_argument")
    expect_error(lambda: lib.transpose("u8", 8, 8, 0, b, backend="cpu"), "invalid_argument")
    expect_error(lambda: lib.transpose("u8", 8, 8, a, b, backend="tpu"), "invalid_argument")
    expect_error(lambda: lib.transpose("u8", 4, 4, b, b + 2, backend="cpu"), "overlap")
    assert bytes(dst) == bytes([POISON] * 64), "a refused call wrote the output"
    assert lib.describe_plan("f32", 100, 200, backend="cpu").startswith("cpu_")
    permute_and_check(lib, "f32", 4, [3, 5, 7], [2, 0, 1])
    permute_and_check(lib, "u8", 1, [2, 3, 4, 5], [0, 2, 3, 1])
    permute_and_check(lib, "bf16", 2, [2, 6, 5, 3], [3, 1, 0, 2])
    expect_error(lambda: lib.permute("f32", [4, 4], [1, 1], a, b, backend="cpu"), "invalid_argument")
    expect_error(lambda: lib.permute("f32", [4, 4], [1], a, b, backend="cpu"), "invalid_argument")
    expect_error(lambda: lib.permute("u8", [4, 4], [1, 0], b, b + 2, backend="cpu"), "overlap")
    assert bytes(dst) == bytes([POISON] * 64), "a refused permute wrote the output"
    plan = lib.describe_permute("f32", [2, 3, 4, 5], [0, 2, 3, 1], backend="cpu")
    assert plan.startswith("permute[2x3x20 perm 0,2,1] transpose"), plan
    in_place_and_check(lib, "u8", 1, 37)
    in_place_and_check(lib, "f64", 8, 19, batch=3, ld=21, bs=19 * 21 + 5)
    expect_error(lambda: lib.transpose_in_place("u8", 8, b, ld=4, backend="cpu"), "invalid_argument")
    in_place_packed_and_check(lib, "u8", 1, 6, 10)
    in_place_packed_and_check(lib, "f32", 4, 7, 3, batch=3, bs=7 * 3 + 2)
    expect_error(lambda: lib.transpose_in_place_packed("u8", 8, 4, b, batch=2, batch_stride=16, backend="cpu"),
                 "invalid_argument")
    assert bytes(dst) == bytes([POISON] * 64), "a refused in-place call wrote the data"
    print("test_xpose_ctypes: all checks passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))

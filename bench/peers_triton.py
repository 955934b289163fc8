"""The Triton peer of bench/peers.py: a masked, tiled transpose kernel and its launcher."""
# Kept in its own module because Triton reads a kernel's source from its file, and peers.py must
# import without Triton (for --help and --self-test on machines with no GPU).

import triton
import triton.language as tl


# tiles_c only feeds one division per program; specializing on its divisibility would only add compiles.
@triton.jit(do_not_specialize=["tiles_c"])
def transpose_tile_kernel(src, dst, R, C, ld_in, ld_out, bs_in, bs_out, tiles_c,
                          BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr, LANES: tl.constexpr):
    # One program moves one (BLOCK_R, BLOCK_C) tile of matrix b = program_id(1):
    #   in[b][r][c] at src + (b*bs_in + r*ld_in + c)*LANES, out[b][c][r] at dst + (b*bs_out + c*ld_out + r)*LANES.
    # Strides count elements; an element is LANES machine words (LANES = 2 carries a 16-byte complex
    # as two int64, since Triton has no 128-bit type). Offsets are int64: extents multiply past 2^31.
    tile = tl.program_id(0)
    b = tl.program_id(1).to(tl.int64)
    r = (tile // tiles_c) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = (tile % tiles_c) * BLOCK_C + tl.arange(0, BLOCK_C)
    r64 = r.to(tl.int64)
    c64 = c.to(tl.int64)
    src_b = src + b * bs_in * LANES
    dst_b = dst + b * bs_out * LANES
    if LANES == 1:
        m_in = (r[:, None] < R) & (c[None, :] < C)
        x = tl.load(src_b + r64[:, None] * ld_in + c64[None, :], mask=m_in)  # (BLOCK_R, BLOCK_C)
        m_out = (c[:, None] < C) & (r[None, :] < R)
        # tl.trans makes the compiler stage the tile through shared memory, so both the load and the
        # store walk contiguous addresses.
        tl.store(dst_b + c64[:, None] * ld_out + r64[None, :], tl.trans(x), mask=m_out)  # (BLOCK_C, BLOCK_R)
    else:
        w = tl.arange(0, LANES)
        m_in = (r[:, None, None] < R) & (c[None, :, None] < C) & (w[None, None, :] < LANES)
        x = tl.load(src_b + (r64[:, None, None] * ld_in + c64[None, :, None]) * LANES + w[None, None, :],
                    mask=m_in)  # (BLOCK_R, BLOCK_C, LANES)
        m_out = (c[:, None, None] < C) & (r[None, :, None] < R) & (w[None, None, :] < LANES)
        tl.store(dst_b + (c64[:, None, None] * ld_out + r64[None, :, None]) * LANES + w[None, None, :],
                 tl.permute(x, (1, 0, 2)), mask=m_out)  # (BLOCK_C, BLOCK_R, LANES)


def launch(src, dst, rows, cols, batch, ld_in, ld_out, bs_in, bs_out, lanes, tile):
    """Transposes `batch` matrices; src/dst are flat integer tensors, strides in elements."""
    block_r, block_c, warps = tile
    tiles_c = triton.cdiv(cols, block_c)
    grid = (triton.cdiv(rows, block_r) * tiles_c, batch)
    transpose_tile_kernel[grid](src, dst, rows, cols, ld_in, ld_out, bs_in, bs_out, tiles_c,
                                BLOCK_R=block_r, BLOCK_C=block_c, LANES=lanes, num_warps=warps)

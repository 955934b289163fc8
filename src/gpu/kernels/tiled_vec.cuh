// The production transpose: V-byte global loads and stores on both sides (16 where pointers and strides
// allow, else 8), a swizzled shared-memory tile, and in-register byte/halfword transposes so 1-
// and 2-byte types move whole 32-bit words.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_vec_ldmatrix.cuh"
#include "gpu/runtime.hpp"  // rt::warp_all, rt::warp_sync, rt::kHasLdmatrix
#include "plan/tiled_vec_shape.hpp"  // block and tile sizes: the planner sizes grids by them

namespace xpose::gpu {

// Threads are handled in groups of 32 (a warp on NVIDIA, half a wavefront on CDNA): within a group,
// some threads walk input rows and the others input columns in the store phase (VecTile). The
// mapping only decides which bank each thread touches; correctness does not depend on the hardware
// warp width.
constexpr int kLaneGroup = 32;

// Shape of a tile of kTileBytes bytes, kRowBytes bytes per input row, for E-byte elements moved in
// V-byte global accesses by a block of kThreadCount threads. kLdmatrixAllowed: the tile may take the
// ldmatrix store phase and its layout (tiled_vec's own kernels; the in-place kernels keep theirs).
template <int E, int V, int kRowBytes, int kTileBytes, int kThreadCount = tiled_vec_threads(E, kTileBytes),
          bool kLdmatrixAllowed = false>
struct VecTile {
  static_assert(V == 8 || V == 16, "global accesses of 8 or 16 bytes");
  static_assert(V >= E, "an access holds whole elements");
  static constexpr int kE = E;                                // element bytes
  static constexpr int kVBytes = V;                           // bytes per global access
  static constexpr int kRowB = kRowBytes;                     // bytes per tile row
  static constexpr int kTileB = kTileBytes;                   // bytes per tile
  static constexpr int kThreads = kThreadCount;               // threads per block
  static constexpr int kRows = kTileBytes / kRowBytes;        // input rows per tile
  static constexpr int kCols = kRowBytes / E;                 // input columns per tile
  static constexpr int kV = V / E;                            // input rows per output vector
  static constexpr int kUnit = E < 4 ? 4 : E;                 // bytes per shared-memory read
  static constexpr int kColsPerUnit = E < 4 ? 4 / E : 1;      // input columns per read (packed words)
  static constexpr int kVecsPerRow = kRowBytes / V;           // global accesses per tile row
  static constexpr int kChunksPerRow = kRowBytes / 16;        // 16-byte chunks of shared memory per row
  // 16-byte chunk c of row r lives at chunk c ^ ((r / kV) & kSwizzle): the threads that read one
  // column in the store phase (rows kV apart) then hit up to 16 different chunks, while the 16-byte
  // writes of the load phase stay whole. Chunks 128 bytes apart share banks, so on most tiles of rows
  // of 128 bytes or more those reads still take 2 wavefronts (4 on f32 128x32 and bf16 256x64;
  // bench/smem_banks_tiled_vec.py); a layout without that ran no faster on an H200
  // (bench/results/h200_2026-12-01f_tiled_vec_unit_swizzle.txt).
  static constexpr int kSwizzle = (kChunksPerRow < 16 ? kChunksPerRow : 16) - 1;
  // Tiles that allow it and fit it (tiled_vec_ldmatrix_store: 8 KiB of 1- and 2-byte elements, rows
  // of 128 bytes or more) store through ldmatrix where it is built, in their own swizzle
  // (tiled_vec_ldmatrix.cuh), but led tiles, which keep the store phase below.
  static constexpr bool kLdmatrix =
      kLdmatrixAllowed && rt::kHasLdmatrix && tiled_vec_ldmatrix_store(E, V, kTileBytes, kRowBytes, kThreadCount);
  // Store phase: a group of 32 threads is kRowThreads threads down the rows, kV rows each, by
  // kUnitThreads across the units: as many down the rows as the tile allows, up to 512 contiguous
  // bytes of each output row per store instruction at 16 bytes on tile rows of 128 bytes or more,
  // else 128. Measured on an H200 (bench/results/h200_2026-11-24i_tiled_vec_row_threads.txt), 8 /
  // 16 / 32 threads at 16 bytes: f32 1048576x32 0.921 / 0.935 / 0.967 of memcpy, f64 0.929 / 0.939 /
  // 0.940, c128 0.963 / 0.968 / 0.969, f32 8192^2 0.973 / 0.977; at 8 bytes, 8 / 16 / 32: u8 ld 8200
  // 0.72 / 0.78 / 0.76. Narrower rows leave the swizzle too few chunks: u8 1048576x32 (32-byte rows)
  // ran at 0.65 with 32 threads against 0.93 with 8.
  static constexpr int kRowThreadsMax = V == 16 && kRowBytes >= 128 ? 32 : 128 / V;
  static constexpr int kRowThreads = kRows / kV < kRowThreadsMax ? kRows / kV : kRowThreadsMax;
  static constexpr int kUnitThreads = kLaneGroup / kRowThreads;
  static constexpr int kRowGroups = kRows / (kRowThreads * kV);
  static constexpr int kUnitGroups = kRowBytes / kUnit / kUnitThreads;
  static constexpr int kLoadsPerThread = kTileBytes / V / kThreads;
  static_assert(kRowThreads >= 1 && kRowGroups >= 1 && kUnitGroups >= 1, "tile too small for this element size");
  static_assert(kLoadsPerThread * V * kThreads == kTileBytes, "tile must split evenly");
};

// V bytes as 32-bit words, kept in registers; loaded and stored with one V-byte access.
template <int V>
struct VecWords {
  std::uint32_t w[V / 4];
};

template <int V>
__device__ __forceinline__ VecWords<V> load_vec(const unsigned char* p) {
  VecWords<V> v;
  static_assert(V == 8 || V == 16, "8- or 16-byte accesses");
  if constexpr (V == 16) {
    const uint4 x = *reinterpret_cast<const uint4*>(p);
    v.w[0] = x.x, v.w[1] = x.y, v.w[2] = x.z, v.w[3] = x.w;
  } else {
    const uint2 x = *reinterpret_cast<const uint2*>(p);
    v.w[0] = x.x, v.w[1] = x.y;
  }
  return v;
}

template <int V>
__device__ __forceinline__ void store_vec(unsigned char* p, const VecWords<V>& v) {
  static_assert(V == 8 || V == 16, "8- or 16-byte accesses");
  if constexpr (V == 16) {
    *reinterpret_cast<uint4*>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
  } else {
    *reinterpret_cast<uint2*>(p) = make_uint2(v.w[0], v.w[1]);
  }
}

template <typename Tile>
__device__ __forceinline__ int vec_tile_offset(int r, int byte_col) {
  if constexpr (Tile::kLdmatrix) return ldmatrix_tile_offset<Tile::kE, Tile::kRowB>(r, byte_col >> 4) + (byte_col & 15);
  const int chunk = (byte_col >> 4) ^ ((r / Tile::kV) & Tile::kSwizzle);
  return r * Tile::kRowB + (chunk << 4) + (byte_col & 15);
}

// Builds the V-byte output vector for input column j of a unit from the V / E words read down the
// rows (E < 8).
template <int E, int V>
__device__ __forceinline__ VecWords<V> gather_column(const std::uint32_t* w, int j) {
  VecWords<V> out;
  if constexpr (E == 1) {
    // Byte j of 4 words (rows) per output word: pick byte j of a,b then of c,d, then join the halves.
    const unsigned sel = static_cast<unsigned>(j) | (static_cast<unsigned>(j + 4) << 4);
#pragma unroll
    for (int q = 0; q < V / 4; ++q) {
      const std::uint32_t ab = __byte_perm(w[4 * q], w[4 * q + 1], sel);
      const std::uint32_t cd = __byte_perm(w[4 * q + 2], w[4 * q + 3], sel);
      out.w[q] = __byte_perm(ab, cd, 0x5410);
    }
  } else if constexpr (E == 2) {
    // Halfword j of 2 words (rows) per output word.
    const unsigned sel = j == 0 ? 0x5410u : 0x7632u;
#pragma unroll
    for (int q = 0; q < V / 4; ++q) out.w[q] = __byte_perm(w[2 * q], w[2 * q + 1], sel);
  } else {
    static_assert(E == 4, "gather_column packs 1-, 2- and 4-byte elements");
#pragma unroll
    for (int q = 0; q < V / 4; ++q) out.w[q] = w[q];
  }
  return out;
}

// How far the tile grid starts before the matrix: `rows` rows above it and `cols` columns to its
// left. Where the pointers lie off the grid their strides keep (a slice of a larger matrix), the
// planner moves the grid so that every tile but those of the first tile row and column meets whole
// aligned accesses; those leave their leading rows and columns out of the output. {0, 0}: none.
struct TileLead {
  int rows = 0, cols = 0;
};

// Where tile number `tile` (in tile_coord's order) lies, and how much of it is inside the matrix:
// tile rows [rows_lo, rows_valid) and tile bytes [bytes_lo, bytes_valid) of each row.
struct VecTilePos {
  const unsigned char* src;  // input element (r0, c0) of the tile
  unsigned char* dst;        // output element (c0, r0)
  int rows_valid, bytes_valid;
  int rows_lo = 0, bytes_lo = 0;  // nonzero only in the first tile row / column of a led grid
  // Led grids: whether the tile holds the input's first row. A vector cut by the lead is read whole
  // (the bytes before the row are the previous row's or its padding, and never reach the output)
  // except in that row, whose lead lies before the input.
  bool first_row = false;
};

template <typename Tile, typename Grid, bool kLead = false>
__device__ VecTilePos vec_tile_position(const unsigned char* in, unsigned char* out, const MatrixGeometry& g,
                                        const Grid& grid, std::uint32_t tile, TileLead lead = {}) {
  constexpr int E = Tile::kE;
  TileCoord t = tile_coord(tile, grid);
  if constexpr (kLead && std::is_same_v<Grid, TileGrid>) {
    // A lead of columns can add a tile column at the right, nearly empty: walked down last, its
    // latency-bound blocks would end the kernel alone, so the last column goes first (LedBandedTileGrid
    // does so only for a column the lead adds).
    if (lead.cols > 0 && grid.down_first) t.tc = t.tc == 0 ? grid.outer.divisor - 1 : t.tc - 1;
  }
  std::int64_t r0 = t.tr * Tile::kRows, c0 = t.tc * Tile::kCols;
  if constexpr (kLead) {
    r0 -= lead.rows;
    c0 -= lead.cols;
  }
  VecTilePos p;
  // With a lead the first tile row's (column's) pointers lie before the matrix; only elements from
  // rows_lo (bytes_lo) on are addressed through them.
  p.src = in + (t.b * g.bs_in + r0 * g.ld_in + c0) * E;
  p.dst = out + (t.b * g.bs_out + c0 * g.ld_out + r0) * E;
  p.rows_valid = static_cast<int>(g.rows - r0 < Tile::kRows ? g.rows - r0 : Tile::kRows);
  p.bytes_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? (g.cols - c0) * E : Tile::kCols * E);
  if constexpr (kLead) {
    p.rows_lo = r0 < 0 ? static_cast<int>(-r0) : 0;
    p.bytes_lo = c0 < 0 ? static_cast<int>(-c0 * E) : 0;
    p.first_row = t.b == 0 && t.tr == 0;
  }
  return p;
}

// Tile rows [lo, valid) of a position, unchecked below when the grid has no lead.
template <bool kLead>
__device__ __forceinline__ bool row_inside(int r, int lo, int valid) {
  return r < valid && (!kLead || r >= lo);
}

// Load phase, first half: issue the tile's whole V-byte accesses into registers, all before any is
// used, so they are in flight together; then the accesses cut by the matrix edge, element by element
// into the same registers, so that no global address outlives this function.
template <typename Tile, bool kLead = false, int E = Tile::kE, int V = Tile::kVBytes>
__device__ __forceinline__ void vec_issue_loads(const VecTilePos& p, std::int64_t ld_in_bytes, int tid,
                                                VecWords<V> (&v)[Tile::kLoadsPerThread]) {
  const auto whole = [&p](int cb) { return cb + V <= p.bytes_valid && (!kLead || cb >= p.bytes_lo); };
  // Led grids: vectors cut by the lead alone are read whole, but in the input's first row.
  const auto readable = [&p](int r, int cb) {
    return kLead && cb < p.bytes_lo && cb + V > p.bytes_lo && cb + V <= p.bytes_valid &&
           !(p.first_row && r == p.rows_lo);
  };
#pragma unroll
  for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
    const int idx = k * Tile::kThreads + tid;
    const int r = idx / Tile::kVecsPerRow, cb = (idx % Tile::kVecsPerRow) * V;
    if (row_inside<kLead>(r, p.rows_lo, p.rows_valid) && (whole(cb) || readable(r, cb)))
      v[k] = load_vec<V>(p.src + r * ld_in_bytes + cb);
  }
  if constexpr (V > E) {  // an access of one element is never cut
#pragma unroll
    for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
      const int idx = k * Tile::kThreads + tid;
      const int r = idx / Tile::kVecsPerRow, cb = (idx % Tile::kVecsPerRow) * V;
      if (!row_inside<kLead>(r, p.rows_lo, p.rows_valid) || cb >= p.bytes_valid || whole(cb)) continue;
      if (kLead && (cb + V <= p.bytes_lo || readable(r, cb))) continue;
      v[k] = VecWords<V>{};
#pragma unroll
      for (int m = 0; m < V / E; ++m)
        if (cb + m * E < p.bytes_valid && (!kLead || cb + m * E >= p.bytes_lo))
          put_element<E>(v[k].w, m, p.src + r * ld_in_bytes + cb + m * E);
    }
  }
}

// Load phase, second half: the registers into the swizzled tile, whole accesses as one store, those
// cut by the matrix edge element by element.
template <typename Tile, bool kLead = false, int E = Tile::kE, int V = Tile::kVBytes>
__device__ __forceinline__ void vec_commit_loads(const VecTilePos& p, int tid,
                                                 const VecWords<V> (&v)[Tile::kLoadsPerThread],
                                                 unsigned char* tile /* (kRows, kRowBytes) bytes */) {
#pragma unroll
  for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
    const int idx = k * Tile::kThreads + tid;
    const int r = idx / Tile::kVecsPerRow, cb = (idx % Tile::kVecsPerRow) * V;
    if (!row_inside<kLead>(r, p.rows_lo, p.rows_valid) || cb >= p.bytes_valid) continue;
    // Bytes of the lead may reach the tile (vectors read whole); the store phase never writes them out.
    if (V == E || cb + V <= p.bytes_valid) {
      store_vec<V>(tile + vec_tile_offset<Tile>(r, cb), v[k]);
    } else {
#pragma unroll
      for (int m = 0; m < V / E; ++m)
        if (cb + m * E < p.bytes_valid)
          take_element<E>(v[k].w, m, tile + vec_tile_offset<Tile>(r, cb + m * E));
    }
  }
}

// 1-byte tiles of 16 rows with packed output rows of 16 bytes: a group's 32 lanes hold 4 output rows
// each, 2 KiB of contiguous output. Stored as they come, each instruction wrote 16 bytes of every
// 64 (half of each sector); instead they pass through the group's own columns of the tile (16 rows
// x 128 bytes, read already: no other group reads them) so that each store instruction writes 512
// contiguous bytes. `cols` is the tile's first byte of the group's columns, `out` the group's first
// output row.
template <typename Tile>
__device__ __forceinline__ void store_staged_rows(unsigned char* cols, unsigned char* out, const VecWords<16> (&vec)[4],
                                                  int lane) {
  static_assert(Tile::kE == 1 && Tile::kRows == 16 && Tile::kUnitThreads * Tile::kUnit == 128, "16 rows of 128 bytes");
  rt::warp_sync();  // every lane has read its columns
#pragma unroll
  for (int j = 0; j < 4; ++j)  // output bytes 64 * lane + 16 * j: row (lane / 2) of the stage
    store_vec<16>(cols + (lane / 2) * Tile::kRowB + 64 * (lane % 2) + 16 * j, vec[j]);
  rt::warp_sync();
#pragma unroll
  for (int i = 0; i < 4; ++i) {  // output bytes 512 * i + 16 * lane
    const int b = 512 * i + 16 * lane;
    store_vec<16>(out + b, load_vec<16>(cols + (b / 128) * Tile::kRowB + b % 128));
  }
}

// Output bytes [lo, V) of input byte column cbj from tile row rb on (1- or 2-byte elements), to their
// V-aligned place `at`, in pieces of 1, 2, 4 and 8 bytes each aligned to its size: at most four stores
// where one per element would write the sector in part as many times.
template <typename Tile, int E = Tile::kE, int V = Tile::kVBytes>
__device__ __forceinline__ void store_column_tail(unsigned char* at, const unsigned char* tile, int rb, int cbj,
                                                  int lo) {
  static_assert(E <= 2, "packed elements");
#pragma unroll
  for (int p = E; p < V; p *= 2) {
    if (lo & p) {
      std::uint64_t x = 0;
#pragma unroll
      for (int k = 0; k < p / E; ++k) {
        using T = typename ElementStorage<E>::type;
        const T e = *reinterpret_cast<const T*>(tile + vec_tile_offset<Tile>(rb + lo / E + k, cbj));
        x |= static_cast<std::uint64_t>(e) << (8 * E * k);
      }
      if (p == 1) at[lo] = static_cast<unsigned char>(x);
      if (p == 2) *reinterpret_cast<std::uint16_t*>(at + lo) = static_cast<std::uint16_t>(x);
      if (p == 4) *reinterpret_cast<std::uint32_t*>(at + lo) = static_cast<std::uint32_t>(x);
      if (p == 8) *reinterpret_cast<std::uint64_t*>(at + lo) = x;
      lo += p;
    }
  }
}

// The unit of kV rows from row rb and kUnit bytes from byte column cb as kColsPerUnit output vectors.
template <typename Tile, int E = Tile::kE, int V = Tile::kVBytes>
__device__ __forceinline__ void vec_gather_unit(const unsigned char* tile, int rb, int cb,
                                                VecWords<V> (&vec)[Tile::kColsPerUnit]) {
  if constexpr (E <= 4) {
    std::uint32_t w[Tile::kV];
#pragma unroll
    for (int i = 0; i < Tile::kV; ++i)
      w[i] = *reinterpret_cast<const std::uint32_t*>(tile + vec_tile_offset<Tile>(rb + i, cb));
#pragma unroll
    for (int j = 0; j < Tile::kColsPerUnit; ++j) vec[j] = gather_column<E, V>(w, j);
  } else {
    // One whole element per row, read as one E-byte access.
#pragma unroll
    for (int i = 0; i < Tile::kV; ++i) {
      const VecWords<E> e = load_vec<E>(tile + vec_tile_offset<Tile>(rb + i, cb));
#pragma unroll
      for (int u = 0; u < E / 4; ++u) vec[0].w[i * (E / 4) + u] = e.w[u];
    }
  }
}

// Store phase: thread (tr, tu) of each group of 32 reads kV rows of one unit (kColsPerUnit input
// columns) and writes kColsPerUnit V-byte output vectors; the kRowThreads tr-threads write
// kRowThreads x V contiguous bytes of each output row. Blocks cut by the matrix edge or a lead are
// written element by element, but for units of 1- or 2-byte elements cut by the lead rows alone.
template <typename Tile, bool kLead = false, int E = Tile::kE, int V = Tile::kVBytes>
__device__ void vec_store_tile(unsigned char* out, std::int64_t ld_out_bytes, int rows_valid, int bytes_valid,
                               unsigned char* tile /* (kRows, kRowBytes) bytes */, int tid, int rows_lo = 0,
                               int bytes_lo = 0) {
  const int lane = tid % kLaneGroup, group = tid / kLaneGroup;
  const int tr = lane % Tile::kRowThreads, tu = lane / Tile::kRowThreads;
  constexpr int kGroups = Tile::kThreads / kLaneGroup;
  // 1-byte tiles of 16 rows: one output vector per column, lanes on consecutive units.
  constexpr bool kStagedRows = E == 1 && V == 16 && Tile::kRows == 16;
  for (int s = group; s < Tile::kRowGroups * Tile::kUnitGroups; s += kGroups) {
    const int rb = ((s % Tile::kRowGroups) * Tile::kRowThreads + tr) * Tile::kV;      // first input row of the block
    const int cb = ((s / Tile::kRowGroups) * Tile::kUnitThreads + tu) * Tile::kUnit;  // byte column of the unit
    const bool whole = rb + Tile::kV <= rows_valid && cb + Tile::kUnit <= bytes_valid &&
                       (!kLead || (rb >= rows_lo && cb >= bytes_lo));
    bool staged = false;  // every lane of the group whole (the vote before any lane leaves)
    if constexpr (kStagedRows) staged = ld_out_bytes == 16 && rt::warp_all(whole);
    if (rb >= rows_valid || cb >= bytes_valid) continue;
    const int col0 = cb / E;  // first input column of the unit = first output row
    if (whole) {
      VecWords<V> vec[Tile::kColsPerUnit];
      vec_gather_unit<Tile>(tile, rb, cb, vec);
      if constexpr (kStagedRows) {
        if (staged) {
          const int cb0 = cb - lane * Tile::kUnit;  // the group's first column
          store_staged_rows<Tile>(tile + cb0, out + cb0 * ld_out_bytes, vec, lane);
          continue;
        }
      }
#pragma unroll
      for (int j = 0; j < Tile::kColsPerUnit; ++j) store_vec<V>(out + (col0 + j) * ld_out_bytes + rb * E, vec[j]);
    } else {
      if constexpr (kLead && E <= 2) {
        // A unit of whole columns cut by the lead rows alone: each output vector from the first row
        // inside on, in aligned pieces. Element by element, u8 8192^2 with the output one element off
        // ran at 0.840 of memcpy, in these pieces at 0.901 (H200).
        if (rb < rows_lo && rows_lo < rb + Tile::kV && rb + Tile::kV <= rows_valid && cb >= bytes_lo &&
            cb + Tile::kUnit <= bytes_valid) {
#pragma unroll 1
          for (int j = 0; j < Tile::kColsPerUnit; ++j)
            store_column_tail<Tile>(out + (col0 + j) * ld_out_bytes + rb * E, tile, rb, cb + j * E, (rows_lo - rb) * E);
          continue;
        }
      }
      // Element by element: matrix edges and the other led edges. (Aligned pieces of each vector for
      // every led edge took registers enough to spill the led kernels: the f32 ones at 32, the u8 ones
      // at 64 once they also held the plain path.)
      for (int j = 0; j < Tile::kColsPerUnit && cb + j * E < bytes_valid; ++j) {
        if (kLead && cb + j * E < bytes_lo) continue;  // a column inside the lead
        for (int r = kLead && rb < rows_lo ? rows_lo : rb; r < rb + Tile::kV && r < rows_valid; ++r)
          copy_element<E>(out + (col0 + j) * ld_out_bytes + r * E,
                          tile + vec_tile_offset<Tile>(r, cb + j * E));
      }
    }
  }
}

// Blocks per SM a kernel keeps resident, the register cap: kVecMinThreadsPerSm threads; three of the
// 32 KiB tiles (kVecLargeTileBlocksPerSm: at four their loads in flight spill). The led kernels keep
// the plain ones' count, which their edge paths would otherwise take registers enough to lose (H200:
// f32 / f64 16 KiB tiles at 46-48 registers, two blocks of 512 threads instead of four, ran at
// 0.77-0.80 of memcpy against 0.97-0.98): capped at the plain kernels' registers, 32 for 4- and 8-byte
// elements, 48 for 16-byte ones; the 1- and 2-byte ones need no cap.
template <typename Tile, bool kLead>
constexpr int tiled_vec_min_blocks() {
  if (Tile::kTileB == kVecTileBytesLarge) return kVecLargeTileBlocksPerSm;
  if (kLead && (Tile::kE == 4 || Tile::kE == 8)) return 2048 / Tile::kThreads;
  if (kLead && Tile::kE == 16) return 1280 / Tile::kThreads;
  return kVecMinThreadsPerSm / Tile::kThreads;
}

// One tile: its loads into registers, then the swizzled tile, then the output vectors.
template <typename Tile, bool kLead>
__device__ __forceinline__ void vec_transpose_tile(const VecTilePos& p, std::int64_t ld_in_bytes,
                                                   std::int64_t ld_out_bytes, unsigned char* tile, int tid) {
  {
    VecWords<Tile::kVBytes> v[Tile::kLoadsPerThread];
    vec_issue_loads<Tile, kLead>(p, ld_in_bytes, tid, v);
    vec_commit_loads<Tile, kLead>(p, tid, v, tile);
  }
  __syncthreads();
  if constexpr (Tile::kLdmatrix && !kLead)
    ldmatrix_store_tile<Tile>(p.dst, ld_out_bytes, p.rows_valid, p.bytes_valid, tile, tid);
  else
    vec_store_tile<Tile, kLead>(p.dst, ld_out_bytes, p.rows_valid, p.bytes_valid, tile, tid, p.rows_lo, p.bytes_lo);
}

// Block (Tile::kThreads), one tile per block; tile Tile::kRows x kRowBytes bytes of input, swizzled,
// in kTileBytes of shared memory; grid (tiles) in the order of Grid's tile_coord (TileGrid,
// BandedTileGrid, or LedBandedTileGrid with a lead). Needs V-byte aligned base pointers and row/batch
// strides that are multiples of V bytes. The register cap keeps tiled_vec_min_blocks blocks per SM resident.
// (A persistent variant that loaded the next tile while storing this one measured slower on an
// H200 and needed registers enough to spill the 1-byte kernels: gone.)
// kLead: the grid starts `lead` before the matrix (TileLead); the kernels without one compile as before.
template <typename Tile, typename Grid = TileGrid, bool kLead = false>
__global__ void __launch_bounds__(Tile::kThreads,
                                  (tiled_vec_min_blocks<Tile, kLead>()))  // parenthesized: HIP's is a macro
    tiled_vec_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                     Grid grid, TileLead lead = {}) {
  alignas(16) __shared__ unsigned char tile[Tile::kTileB];  // (kRows, kRowBytes) bytes, swizzled
  const std::int64_t ld_in_bytes = g.ld_in * Tile::kE, ld_out_bytes = g.ld_out * Tile::kE;
  const int tid = threadIdx.x;
  const VecTilePos p = vec_tile_position<Tile, Grid, kLead>(in, out, g, grid, blockIdx.x, lead);
  if constexpr (kLead) {
    // Tiles the lead does not touch take the plain path (the whole block alike): the led checks on
    // every access cost the u8 and f32 8192^2 tiles 2-3% on an H200 (a led kernel with no lead
    // against the plain one, bench/results/h200_2026-11-30c_led_interior.txt).
    if (p.rows_lo > 0 || p.bytes_lo > 0) {
      vec_transpose_tile<Tile, true>(p, ld_in_bytes, ld_out_bytes, tile, tid);
      return;
    }
  }
  vec_transpose_tile<Tile, false>(p, ld_in_bytes, ld_out_bytes, tile, tid);
}

}  // namespace xpose::gpu

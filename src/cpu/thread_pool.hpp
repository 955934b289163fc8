// The CPU backend's worker threads, started once and kept: starting threads per call cost tens of
// microseconds each (about 45 on a 16-core Xeon VM), as long as a mid-size transpose takes.
#pragma once

#include <cstdint>
#include <functional>

namespace xpose::cpu {

// Runs piece(i) for every i in [0, pieces), on the calling thread and the pool's workers (one per
// hardware thread past the first), and returns when all are done. The caller takes pieces too, so
// every piece runs even where no worker is free. Calls from several threads take turns; a call made
// from inside a piece runs its own pieces on that thread, one after another.
void parallel_for(std::int64_t pieces, const std::function<void(std::int64_t)>& piece);

}  // namespace xpose::cpu

// What a Plan holds: the resolved descriptor, the chosen algorithm and its launch config.
#pragma once

#include <memory>

#include "xpose/plan.hpp"

namespace xpose {

struct Plan::State {
  TransposeDesc desc;  // resolved
  Algorithm algorithm = Algorithm::automatic;
  Backend backend = Backend::cpu;
  LaunchConfig config;
  int alignment = 16;  // pointer alignment the plan was made for (PlanOptions::alignment)
  // Offsets modulo 16 bytes the pointers must have, or -1: any. A led tiled_vec plan keeps both; a
  // tiled_unaligned plan whose tiles take one side's chunks whole, below a 16-byte alignment, keeps 0
  // for that side.
  int in_offset16 = -1, out_offset16 = -1;
  std::shared_ptr<void> vendor_handle;  // cuBLAS/rocBLAS handle, owned by the plan
};

}  // namespace xpose

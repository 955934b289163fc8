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
  std::shared_ptr<void> vendor_handle;  // cuBLAS/rocBLAS handle, owned by the plan
};

}  // namespace xpose

// Running a transpose plan whose pointers have been checked: the backend's dispatch, shared by
// execute and by the permutations that reduce to a transpose.
#pragma once

#include "plan/plan_state.hpp"

namespace xpose::core {

// Hands `plan` to its backend; the caller has validated the pointers for it.
Status run_checked_plan(const Plan::State& plan, const void* in, void* out, StreamHandle stream);

}  // namespace xpose::core

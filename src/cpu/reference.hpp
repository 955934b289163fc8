// The test oracle: plain loops that are obviously right, one element (of any size) at a time.
#pragma once

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// out[b][c][r] = in[b][r][c] on a resolved descriptor.
void reference_transpose(const TransposeDesc& desc, const void* in, void* out);
// out[b][r][c] = in[b][r][c], the output in the input's layout (the copy baseline's meaning).
void reference_copy(const TransposeDesc& desc, const void* in, void* out);

}  // namespace xpose::cpu

// The bench's CPU memcpy baseline: copy_host_to_host copies every byte, on one thread or several, and
// writes nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "test_support.hpp"
#include "xpose/device.hpp"

namespace {

using namespace xpose_test;

TEST(HostCopy, CopiesEveryByteAndNothingElse) {
  // 0, 1 and odd sizes on one thread; 9 MiB and 3 bytes on two (one per 4 MiB, where the machine has
  // two hardware threads), in pieces of odd length.
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4099}, (std::size_t{9} << 20) + 3}) {
    const auto src = random_bytes(bytes, 11);
    std::vector<unsigned char> dst(bytes + 2, kPoison);
    xpose::copy_host_to_host(dst.data() + 1, src.data(), bytes);
    EXPECT_EQ(dst.front(), kPoison) << bytes << " bytes: the byte before was written";
    EXPECT_EQ(dst.back(), kPoison) << bytes << " bytes: the byte after was written";
    EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + 1)) << bytes << " bytes differ";
  }
}

}  // namespace

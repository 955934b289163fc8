// How many threads the CPU backend gives a job (cpu/threads.hpp): one under 1 MiB, and under 2 MiB
// where fewer than four would share it; else one per 64 KiB, never more than the hardware threads or
// the work items. Checked for machines of 1, 2, 4 and 16 hardware threads.
#include <gtest/gtest.h>

#include <cstdint>

#include "cpu/threads.hpp"

namespace {

using xpose::cpu::threads_for;

constexpr std::int64_t kKiB = 1024, kMiB = 1024 * kKiB, kMany = 1 << 20;

TEST(ThreadsFor, OneThreadUnderOneMebibyte) {
  for (std::int64_t hw : {1, 2, 4, 16})
    for (std::int64_t bytes : {std::int64_t{0}, std::int64_t{1}, 64 * kKiB, kMiB - 1})
      EXPECT_EQ(threads_for(bytes, kMany, hw), 1) << bytes << " bytes, " << hw << " hardware threads";
}

TEST(ThreadsFor, OnePerSixtyFourKibibytesUpToTheHardwareAndTheWork) {
  EXPECT_EQ(threads_for(2 * kMiB, kMany, 16), 16);
  EXPECT_EQ(threads_for(2 * kMiB, kMany, 64), 32);  // 32 pieces of 64 KiB
  EXPECT_EQ(threads_for(64 * kMiB, kMany, 2), 2);
  EXPECT_EQ(threads_for(64 * kMiB, 3, 16), 3);   // three work items
  EXPECT_EQ(threads_for(64 * kMiB, 1, 16), 1);
  EXPECT_EQ(threads_for(64 * kMiB, kMany, 1), 1);
}

TEST(ThreadsFor, UnderTwoMebibytesOnlyWhereFourOrMoreShare) {
  EXPECT_EQ(threads_for(kMiB, kMany, 16), 16);  // 16 pieces of 64 KiB
  EXPECT_EQ(threads_for(kMiB, kMany, 4), 4);
  EXPECT_EQ(threads_for(kMiB, kMany, 2), 1);  // two threads at 1 MiB lost to one
  EXPECT_EQ(threads_for(2 * kMiB - 1, 3, 16), 1);
  EXPECT_EQ(threads_for(2 * kMiB, kMany, 2), 2);
  EXPECT_EQ(threads_for(kMiB + 3 * 64 * kKiB, kMany, 16), 16);
}

}  // namespace

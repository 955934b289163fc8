// The CPU backend's thread pool: every piece of every job runs exactly once, jobs back to back, from
// several calling threads at once, and from inside a piece.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cpu/thread_pool.hpp"

namespace {

// Runs a job of `pieces` pieces and checks that each ran once.
void expect_each_piece_once(std::int64_t pieces) {
  std::vector<std::atomic<int>> runs(static_cast<std::size_t>(pieces));
  for (auto& r : runs) r = 0;
  xpose::cpu::parallel_for(pieces, [&](std::int64_t i) { runs[static_cast<std::size_t>(i)]++; });
  for (std::int64_t i = 0; i < pieces; ++i)
    ASSERT_EQ(runs[static_cast<std::size_t>(i)], 1) << "piece " << i << " of " << pieces;
}

TEST(ThreadPool, RunsEveryPieceOnceJobAfterJob) {
  expect_each_piece_once(0);
  for (int round = 0; round < 200; ++round) expect_each_piece_once(1 + round % 37);
}

TEST(ThreadPool, TakesJobsFromSeveralThreadsInTurn) {
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([] {
      for (int round = 0; round < 50; ++round) expect_each_piece_once(2 + round % 9);
    });
  for (auto& c : callers) c.join();
}

// A job whose pieces start jobs of their own (the permutations' slices call the blocked transpose
// from the pool's threads): every inner piece runs once, and nothing waits forever.
TEST(ThreadPool, RunsJobsStartedFromInsideAPiece) {
  constexpr int kOuter = 12, kInner = 7;
  std::vector<std::atomic<int>> runs(kOuter * kInner);
  for (auto& r : runs) r = 0;
  xpose::cpu::parallel_for(kOuter, [&](std::int64_t i) {
    xpose::cpu::parallel_for(kInner, [&](std::int64_t j) { runs[static_cast<std::size_t>(i * kInner + j)]++; });
  });
  for (std::size_t k = 0; k < runs.size(); ++k) ASSERT_EQ(runs[k], 1) << "inner piece " << k;
}

}  // namespace

// The CPU backend's thread pool: every piece of every job runs exactly once, jobs back to back and
// from several calling threads at once.
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

}  // namespace

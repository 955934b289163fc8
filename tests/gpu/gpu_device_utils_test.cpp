// Device utilities the bench relies on: an owned stream, and a stream held busy so that work queued
// behind the hold runs back to back.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

namespace {

using xpose::StatusCode;

TEST(DeviceUtils, RefusedWithoutDevice) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present; the no-device refusal cannot be shown here";
  xpose::DeviceStream stream;
  EXPECT_EQ(stream.create().code(), StatusCode::no_device);
  EXPECT_EQ(xpose::hold_stream(10.0).code(), StatusCode::no_device);
}

TEST(DeviceUtils, HeldStreamRunsLaterWorkAfterTheHold) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::DeviceStream stream;
  ASSERT_TRUE(stream.create().ok());
  ASSERT_NE(stream.handle(), nullptr);
  xpose::EventPair events;
  ASSERT_TRUE(events.create().ok());
  // The stop event sits behind a 2 ms hold; the bound leaves room for a clock that runs fast.
  ASSERT_TRUE(events.record_start(stream.handle()).ok());
  ASSERT_TRUE(xpose::hold_stream(2000.0, stream.handle()).ok());
  ASSERT_TRUE(events.record_stop(stream.handle()).ok());
  float ms = 0.0f;
  ASSERT_TRUE(events.elapsed_ms(ms).ok());
  EXPECT_GT(ms, 1.0f);
  EXPECT_LT(ms, 100.0f);
}

}  // namespace

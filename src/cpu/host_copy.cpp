// The CPU backend's copy: the bytes split into one contiguous piece per thread, on the threads its
// transpose takes for as many bytes, so that the bench's memcpy baseline is the copy those threads
// could do.
#include <cstring>

#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"
#include "xpose/device.hpp"

namespace xpose {

void copy_host_to_host(void* dst, const void* src, std::size_t bytes) {
  const auto total = static_cast<std::int64_t>(bytes);
  const std::int64_t n = cpu::threads_for(total, total);
  cpu::parallel_for(n, [&](std::int64_t i) {
    const std::int64_t first = total * i / n, last = total * (i + 1) / n;
    std::memcpy(static_cast<unsigned char*>(dst) + first, static_cast<const unsigned char*>(src) + first,
                static_cast<std::size_t>(last - first));
  });
}

}  // namespace xpose

// Names of status codes.
#include "xpose/status.hpp"

namespace xpose {

const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::overlap: return "overlap";
    case StatusCode::unsupported: return "unsupported";
    case StatusCode::no_device: return "no_device";
    case StatusCode::wrong_memory: return "wrong_memory";
    case StatusCode::device_error: return "device_error";
    case StatusCode::internal: return "internal";
  }
  return "unknown";
}

}  // namespace xpose

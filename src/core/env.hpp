// Environment switches for debugging and for measuring alternatives on a new GPU (unset in normal
// use), read by the planner and the launchers.
#pragma once

#include <cstdlib>

namespace xpose::core {

// True when environment variable `name` is set and starts with `c`.
inline bool env_starts_with(const char* name, char c) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] == c;
}

// The integer in environment variable `name`, or `fallback` where it is unset or empty.
inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' ? std::atoi(v) : fallback;
}

}  // namespace xpose::core

// Names of algorithms and backends, and which backend runs each algorithm.
#include <string>

#include "xpose/plan.hpp"

namespace xpose {
namespace {

struct AlgorithmInfo {
  Algorithm algorithm;
  const char* name;
  Backend backend;
};

constexpr AlgorithmInfo kAlgorithms[] = {
    {Algorithm::automatic, "auto", Backend::automatic},
    {Algorithm::copy, "copy", Backend::cuda},
    {Algorithm::naive_read, "naive_read", Backend::cuda},
    {Algorithm::naive_write, "naive_write", Backend::cuda},
    {Algorithm::tiled, "tiled", Backend::cuda},
    {Algorithm::tiled_padded, "tiled_padded", Backend::cuda},
    {Algorithm::tiled_vec, "tiled_vec", Backend::cuda},
    {Algorithm::tiled_unaligned, "tiled_unaligned", Backend::cuda},
    {Algorithm::skinny, "skinny", Backend::cuda},
    {Algorithm::gather, "gather", Backend::cuda},
    {Algorithm::tiled_sectors, "tiled_sectors", Backend::cuda},
    {Algorithm::small_batch, "small_batch", Backend::cuda},
    {Algorithm::vendor_geam, "geam", Backend::cuda},
    {Algorithm::vector_copy, "vector_copy", Backend::cuda},
    {Algorithm::cpu_reference, "cpu_reference", Backend::cpu},
    {Algorithm::cpu_blocked, "cpu_blocked", Backend::cpu},
};

}  // namespace

const char* algorithm_name(Algorithm algorithm) {
  for (const auto& info : kAlgorithms)
    if (info.algorithm == algorithm) return info.name;
  return "unknown";
}

bool parse_algorithm(const std::string& name, Algorithm& out) {
  for (const auto& info : kAlgorithms) {
    if (name == info.name) {
      out = info.algorithm;
      return true;
    }
  }
  return false;
}

Backend algorithm_backend(Algorithm algorithm) {
  for (const auto& info : kAlgorithms)
    if (info.algorithm == algorithm) return info.backend;
  return Backend::automatic;
}

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::cuda: return "cuda";
    case Backend::cpu: return "cpu";
  }
  return "unknown";
}

bool parse_backend(const std::string& name, Backend& out) {
  for (Backend b : {Backend::automatic, Backend::cuda, Backend::cpu}) {
    if (name == backend_name(b)) {
      out = b;
      return true;
    }
  }
  return false;
}

}  // namespace xpose

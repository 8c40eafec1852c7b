#include "vectors/dot_product.hpp"

namespace opbase::vdb {

// Thirty-two partial sums: the compiler keeps them in four vector registers (it may not reorder
// one chain of float additions on its own), and four independent chains keep the multiply-add
// units busy instead of each addition waiting for the one before (four times faster here).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
float dot_product(const float* a, const float* b, size_t n) {
  constexpr size_t kLanes = 32;
  float sums[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t lane = 0; lane < kLanes; ++lane) sums[lane] += a[i + lane] * b[i + lane];
  }
  float total = 0;
  for (; i < n; ++i) total += a[i] * b[i];
  for (const float s : sums) total += s;
  return total;
}

}  // namespace opbase::vdb

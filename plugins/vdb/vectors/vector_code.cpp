#include "vectors/vector_code.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "vectors/dot_product.hpp"

namespace opbase::vdb {

void encode(std::span<const float> unit_vector, std::byte* code) {
  float largest = 0;
  for (const float x : unit_vector) largest = std::max(largest, std::fabs(x));
  const float scale = largest > 0 ? largest / 127 : 1;
  std::memcpy(code, &scale, sizeof scale);
  auto* components = reinterpret_cast<int8_t*>(code + sizeof scale);
  for (size_t i = 0; i < unit_vector.size(); ++i) {
    const long q = std::lround(unit_vector[i] / scale);
    components[i] = static_cast<int8_t>(std::clamp(q, -127L, 127L));
  }
}

float code_dot(const std::byte* a, const std::byte* b, size_t dimensions) {
  float scale_a = 0, scale_b = 0;
  std::memcpy(&scale_a, a, sizeof scale_a);
  std::memcpy(&scale_b, b, sizeof scale_b);
  const int32_t sum =
      int8_dot_product(reinterpret_cast<const int8_t*>(a + sizeof(float)),
                       reinterpret_cast<const int8_t*>(b + sizeof(float)), dimensions);
  return scale_a * scale_b * static_cast<float>(sum);
}

}  // namespace opbase::vdb

#include "ops/vector_text.hpp"

#include <charconv>
#include <cmath>

namespace opbase::ai {

std::string vector_json(const std::vector<float>& vector) {
  std::string text;
  text.reserve(vector.size() * 12 + 2);
  text.push_back('[');
  char digits[32];
  for (size_t i = 0; i < vector.size(); ++i) {
    if (i > 0) text.push_back(',');
    const float x = std::isfinite(vector[i]) ? vector[i] : 0.0f;
    const auto printed = std::to_chars(digits, digits + sizeof digits, x);
    text.append(digits, printed.ptr);
  }
  text.push_back(']');
  return text;
}

double vector_norm(const std::vector<float>& vector) {
  double sum = 0;
  for (const float x : vector) sum += static_cast<double>(x) * x;
  return std::sqrt(sum);
}

}  // namespace opbase::ai

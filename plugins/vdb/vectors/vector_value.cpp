#include "vectors/vector_value.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "opbase/base64.hpp"
#include "opbase/field_error.hpp"

namespace opbase::vdb {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the stored form is little-endian float32: add a byte swap for this machine");

Status refused(std::string_view field, std::string_view reason, std::string message,
               std::optional<size_t> index = std::nullopt) {
  nlohmann::json more = {{"reason", reason}};
  if (index) more["index"] = *index;
  return field_error(field, std::string(field) + " " + message, std::move(more));
}

// A vector given in the stored form: base64 of float32 values, little-endian.
Result<std::vector<float>> read_vector_text(const std::string& text, std::string_view field) {
  const std::optional<std::string> bytes = base64_decode(text);
  if (!bytes || bytes->empty() || bytes->size() % sizeof(float) != 0) {
    return refused(field, "not_base64", "as text must be base64 of float32 values, little-endian");
  }
  if (bytes->size() / sizeof(float) > kMaxDimensions) {
    return refused(field, "too_many",
                   "has more than " + std::to_string(kMaxDimensions) + " numbers");
  }
  std::vector<float> vector(bytes->size() / sizeof(float));
  std::memcpy(vector.data(), bytes->data(), bytes->size());
  for (size_t i = 0; i < vector.size(); ++i) {
    if (!std::isfinite(vector[i])) {
      return refused(field, "not_finite", "holds a value that is not a finite number", i);
    }
  }
  if (norm(vector) == 0) return refused(field, "zero_norm", "must not be all zeros");
  return vector;
}

}  // namespace

Result<std::vector<float>> read_vector(const nlohmann::json& value, std::string_view field) {
  if (value.is_string()) return read_vector_text(value.get_ref<const std::string&>(), field);
  if (!value.is_array()) {
    return refused(field, "not_array", "must be an array of numbers (or base64 of float32 values)");
  }
  if (value.empty()) return refused(field, "empty", "must have at least one number");
  if (value.size() > kMaxDimensions) {
    return refused(field, "too_many",
                   "has more than " + std::to_string(kMaxDimensions) + " numbers");
  }
  std::vector<float> vector;
  vector.reserve(value.size());
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  for (size_t i = 0; i < value.size(); ++i) {
    const nlohmann::json& component = value[i];
    if (!component.is_number()) {
      return refused(field, "not_number", "must hold numbers only", i);
    }
    const double number = component.get<double>();
    if (!std::isfinite(number) || std::fabs(number) > kFloatMax) {
      return refused(field, "not_finite", "holds a number out of float32's range", i);
    }
    vector.push_back(static_cast<float>(number));
  }
  if (norm(vector) == 0) return refused(field, "zero_norm", "must not be all zeros");
  return vector;
}

double printable(float value) {
  char text[32];
  const auto printed = std::to_chars(text, text + sizeof text, value);
  double shortest = value;
  std::from_chars(text, printed.ptr, shortest);
  return shortest;
}

double norm(std::span<const float> vector) {
  double sum = 0;
  for (const float x : vector) sum += static_cast<double>(x) * x;
  return std::sqrt(sum);
}

std::vector<float> unit(std::span<const float> vector) {
  const double length = norm(vector);
  std::vector<float> out(vector.begin(), vector.end());
  if (length > 0) {
    for (float& x : out) x = static_cast<float>(x / length);
  }
  return out;
}

std::string vector_text(std::span<const float> vector) {
  return base64_encode(std::string_view(reinterpret_cast<const char*>(vector.data()),
                                        vector.size() * sizeof(float)));
}

std::optional<std::vector<float>> vector_from_text(std::string_view text, size_t dimensions) {
  if (dimensions == 0 || dimensions > kMaxDimensions) return std::nullopt;
  const std::optional<std::string> bytes = base64_decode(text);
  if (!bytes || bytes->size() != dimensions * sizeof(float)) return std::nullopt;
  std::vector<float> vector(dimensions);
  std::memcpy(vector.data(), bytes->data(), bytes->size());
  return vector;
}

}  // namespace opbase::vdb

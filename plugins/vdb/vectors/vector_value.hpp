// A record's vector as vdb keeps it: float32 components. read_vector() takes one a client gave
// (a JSON array of numbers), vector_text() and vector_from_text() are its stored form (the
// float32 values little-endian, base64 in the record's document), and unit() scales a copy to
// length 1, the form the index compares by inner product (the cosine).
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::vdb {

// The most components a vector may have (OpenAI's largest embedding model has 3072).
inline constexpr size_t kMaxDimensions = 8192;

// `value` as a vector: an array of 1 to kMaxDimensions numbers, each finite as a float32, not all
// zero; or the same as a string in the stored form (base64 of the float32 values,
// little-endian), which a client parses and sends many times faster than decimal numbers. Else
// VALIDATION_ERROR naming `field`, with details {"field", "reason": "not_array", "not_base64",
// "empty", "too_many", "not_number", "not_finite" or "zero_norm", and "index" for a bad
// component}.
Result<std::vector<float>> read_vector(const nlohmann::json& value, std::string_view field);

// `value` as the double of its shortest decimal form ("0.1", not 0.10000000149011612), so
// float32 values print in JSON as a client wrote them.
double printable(float value);

// The Euclidean length.
double norm(std::span<const float> vector);

// A copy of `vector` with length 1 (the caller has checked it is not all zero).
std::vector<float> unit(std::span<const float> vector);

// The stored form: base64 of the float32 values, little-endian.
std::string vector_text(std::span<const float> vector);

// The values of a stored form, or nullopt when it is not base64 of exactly `dimensions` float32
// values (1 to kMaxDimensions).
std::optional<std::vector<float>> vector_from_text(std::string_view text, size_t dimensions);

}  // namespace opbase::vdb

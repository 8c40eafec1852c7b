// Fuzzes the reading of a client's vector (plugins/vdb/vectors/vector_value.hpp), its stored
// form and the bodies of vdb.insert, vdb.search and vdb.delete with their filters
// (plugins/vdb/ops/): any JSON must give a vector or a VALIDATION_ERROR with a reason, never a
// crash; an insert body read must hold 1 to kMaxInsertRecords records, each with a vector or
// content that is not blank; a search read has exactly one of query and vector, a limit of 1 to
// kMaxSearchLimit and a min_score in [-1, 1]; every condition of a filter or match read tests
// metadata.<path> or a system field a filter may test; the index code of a vector read has a
// finite cosine with itself, at most 1 but for rounding. A vector read must be finite, not all
// zero and within kMaxDimensions; its unit copy must have length 1; its stored form must read
// back bit for bit; and any text read as a stored form must be exactly the bytes of that many
// floats. A failure traps; add the input to
// tests/unit/vdb/vectors/vector_value_test.cpp once fixed.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>

#include "ops/insert_request.hpp"
#include "ops/search_request.hpp"
#include "vectors/dot_product.hpp"
#include "vectors/vector_code.hpp"
#include "vectors/vector_value.hpp"

namespace {

using opbase::vdb::kMaxDimensions;

void check_vector(const nlohmann::json& value) {
  auto read = opbase::vdb::read_vector(value, "vector");
  if (!read) {
    if (read.status().code() != opbase::code::kValidationError) __builtin_trap();
    if (!read.status().details().contains("reason")) __builtin_trap();
    return;
  }
  const std::vector<float>& v = *read;
  if (v.empty() || v.size() > kMaxDimensions) __builtin_trap();
  for (const float x : v) {
    if (!std::isfinite(x)) __builtin_trap();
  }
  const std::vector<float> u = opbase::vdb::unit(v);
  const double length = opbase::vdb::norm(u);
  if (std::fabs(length - 1.0) > 1e-3) __builtin_trap();
  if (std::fabs(opbase::vdb::dot_product(u.data(), u.data(), u.size()) - 1.0) > 1e-3) {
    __builtin_trap();
  }
  // Its index code: a cosine with itself that is finite, not above 1 by more than rounding.
  std::vector<std::byte> code(opbase::vdb::code_size(u.size()));
  opbase::vdb::encode(u, code.data());
  const float self = opbase::vdb::code_dot(code.data(), code.data(), u.size());
  if (!std::isfinite(self) || self < 0 || self > 1.05f) __builtin_trap();
  auto back = opbase::vdb::vector_from_text(opbase::vdb::vector_text(v), v.size());
  if (!back || std::memcmp(back->data(), v.data(), v.size() * sizeof(float)) != 0) {
    __builtin_trap();
  }
}

void check_insert(const nlohmann::json& body) {
  auto read = opbase::vdb::read_insert_request(body);
  if (!read) {
    const auto code = read.status().code();
    if (code != opbase::code::kValidationError && code != opbase::code::kContentEmpty) {
      __builtin_trap();
    }
    return;
  }
  if (read->items.empty() || read->items.size() > opbase::vdb::kMaxInsertRecords) __builtin_trap();
  for (const auto& item : read->items) {
    if (!item.vector && (!item.content || item.content->empty())) __builtin_trap();
    if (!item.metadata.is_object()) __builtin_trap();
  }
}

bool refusal_expected(const opbase::Status& status) {
  return status.code() == opbase::code::kValidationError ||
         status.code() == opbase::code::kContentEmpty;
}

void check_filter(const opbase::query::Match& match) {
  for (const auto& condition : match) {
    const std::string& top = condition.path.segments.front();
    const bool allowed = (top == "metadata" && condition.path.segments.size() > 1) ||
                         top == "_key" || top == "_created_at" || top == "_modified_at";
    if (!allowed) __builtin_trap();
  }
}

void check_search(const nlohmann::json& body) {
  auto read = opbase::vdb::read_search_request(body);
  if (!read) {
    if (!refusal_expected(read.status())) __builtin_trap();
    return;
  }
  if (read->query.has_value() == read->vector.has_value()) __builtin_trap();
  if (read->limit < 1 || read->limit > opbase::vdb::kMaxSearchLimit) __builtin_trap();
  if (read->min_score && !(*read->min_score >= -1 && *read->min_score <= 1)) __builtin_trap();
  check_filter(read->filter);
}

void check_delete(const nlohmann::json& body) {
  auto read = opbase::vdb::read_delete_request(body);
  if (!read) {
    if (read.status().code() != opbase::code::kValidationError) __builtin_trap();
    return;
  }
  check_filter(read->match);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (!value.is_discarded()) check_vector(value);
  if (value.is_object()) {
    check_insert(value);
    check_search(value);
    check_delete(value);
  }
  // The same bytes as a stored form of a few lengths.
  for (const size_t dimensions : {size_t{1}, size_t{3}, size / 2}) {
    auto stored = opbase::vdb::vector_from_text(text, dimensions);
    if (stored && stored->size() != dimensions) __builtin_trap();
  }
  return 0;
}

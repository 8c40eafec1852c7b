// Fuzzes the datastore's query language (opbase/query.hpp) with any bytes: as JSON they are a
// match (evaluated against fixed documents, checking that $ne / $nin are the complements of
// eq / $in), a projection and a paging body; as text they are a sort. Nothing may crash or throw,
// and sorting must be antisymmetric.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"

namespace {

using nlohmann::json;
using namespace opbase::query;

const std::vector<json>& documents() {
  static const std::vector<json> docs = {
      json::parse(R"({"_key": "k1", "name": "Lamp", "price": 25, "ratio": 0.5, "stock": null,
                      "tags": ["home", "light"], "address": {"city": "Paris", "geo": {"lat": 48.8}},
                      "items": [{"sku": "a1", "qty": 2}, {"sku": "b2"}, 7, []]})"),
      json::parse(R"({"_key": "k2", "name": "日本😀", "price": 9223372036854775807,
                      "ratio": -1e300, "tags": [], "matrix": [[1, 2], [3]], "active": true})"),
      json::parse(R"({"_key": "k3", "price": 18446744073709551615, "address": "none",
                      "items": {"sku": "c3"}, "o": {"b": 2, "a": 1.0}})"),
      json::object(),
  };
  return docs;
}

ParseOptions options() {
  ParseOptions o;
  o.system_fields = {"_key", "_userkey", "_created_at", "_modified_at"};
  return o;
}

// The complement of a condition's operator, for the ones that have one in the language.
bool complement(Op op, Op* out) {
  switch (op) {
    case Op::kEq:
      *out = Op::kNe;
      return true;
    case Op::kNe:
      *out = Op::kEq;
      return true;
    case Op::kIn:
      *out = Op::kNin;
      return true;
    case Op::kNin:
      *out = Op::kIn;
      return true;
    default:
      return false;
  }
}

void fuzz_json(const json& input, const ParseOptions& opts) {
  if (auto match = parse_match(input, opts); match.is_ok()) {
    for (const json& doc : documents()) {
      const bool all = matches(*match, doc);
      bool each = true;
      for (const Condition& condition : *match) {
        const bool one = matches(condition, doc);
        each = each && one;
        Condition negated = condition;
        if (complement(condition.op, &negated.op) && matches(negated, doc) == one) std::abort();
      }
      if (all != each) std::abort();
    }
  }
  if (auto projection = parse_projection(input, opts); projection.is_ok()) {
    for (const json& doc : documents()) {
      const json out = apply_projection(doc, *projection);
      if (!out.is_object()) std::abort();
    }
  }
  if (auto paging = parse_paging(input, opts); paging.is_ok()) {
    if (paging->limit < 0 || paging->limit > opts.limit_cap || paging->offset < 0) std::abort();
  }
}

void fuzz_sort(std::string_view text, const ParseOptions& opts) {
  auto keys = parse_sort(text, opts, "_key desc");
  if (!keys.is_ok()) return;
  const auto& docs = documents();
  for (const json& a : docs) {
    for (const json& b : docs) {
      const int ab = compare_for_sort(a, b, *keys), ba = compare_for_sort(b, a, *keys);
      if ((ab < 0) != (ba > 0) || (ab == 0) != (ba == 0)) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ParseOptions opts = options();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_sort(text, opts);
  const json input = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!input.is_discarded()) fuzz_json(input, opts);
  return 0;
}

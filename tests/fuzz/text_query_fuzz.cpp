// Fuzzes TextQuery (host/store/text_query.hpp) against the reference evaluator (opbase/query.hpp).
// The input is `match NUL document [NUL sort]`:
// - match: a match object's JSON text; an input whose match does not parse (as JSON, or as a
//   match) is skipped;
// - document: any bytes. TextQuery reads them from a heap block of exactly their size, so a read
//   past the end is a sanitizer error; it must never crash, whatever the bytes;
// - sort: a sort text ("a desc, b"); when it is absent or does not parse, the match's paths are
//   the sort keys, their directions alternating.
// When the document is what TextQuery promises an answer for (one JSON object, without repeated
// keys at any level), matches() must equal query::matches on the parsed document, and when it
// matches, sort_values() must hold what query::resolve reaches (null for nothing), of the same
// type. The whole match is checked, and each of its conditions alone. A difference is printed and
// aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "../support/stored_text.hpp"
#include "opbase/query.hpp"
#include "store/text_query.hpp"

namespace {

using nlohmann::json;
using namespace opbase;

query::ParseOptions options() {
  query::ParseOptions o;
  o.allow_system_fields = true;
  o.system_fields = {"$k"};
  return o;
}

// The next part of `rest` up to a NUL (or its end), removed from `rest` with the NUL.
std::string_view next_part(std::string_view& rest, bool* found) {
  const std::size_t nul = rest.find('\0');
  *found = nul != std::string_view::npos;
  const std::string_view part = rest.substr(0, nul);
  rest.remove_prefix(*found ? nul + 1 : rest.size());
  return part;
}

// The parsed document when `text` is one the store keeps (stored_text.hpp), else a discarded
// value.
json covered_document(std::string_view text) {
  if (!opbase::test::is_stored_text(text)) return json(json::value_t::discarded);
  return json::parse(text);
}

bool same_value(const json& a, const json& b) {
  return a.type() == b.type() && a == b &&
         a.dump(-1, ' ', false, json::error_handler_t::replace) ==
             b.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string shown(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace) + " (" + value.type_name() +
         ")";
}

[[noreturn]] void mismatch(const std::string& what, const query::Match& match,
                           std::string_view doc) {
  std::string conditions;
  for (const query::Condition& c : match) {
    conditions += " " + c.path.text + " " + std::string(query::op_name(c.op)) + " " +
                  c.value.dump(-1, ' ', false, json::error_handler_t::replace) + ";";
  }
  std::fprintf(stderr, "text_query_fuzz: %s\n  match:%s\n  document: %.*s\n", what.c_str(),
               conditions.c_str(), static_cast<int>(doc.size()), doc.data());
  __builtin_trap();
}

// Runs the match and sort over the document; when the document is covered, compares with the
// reference.
void check(const query::Match& match, const std::vector<query::SortKey>& sort,
           std::string_view text, const json& doc) {
  opbase::host::TextQuery query(match, sort);
  const bool matched = query.matches(text);
  if (matched) {
    for (const json& value : query.sort_values()) (void)shown(value);
  }
  if (doc.is_discarded()) return;
  const bool expected = query::matches(match, doc);
  if (matched != expected) {
    mismatch(std::string("matches() is ") + (matched ? "true" : "false") + ", the reference " +
                 (expected ? "true" : "false"),
             match, text);
  }
  if (!matched) return;
  const std::vector<json>& values = query.sort_values();
  if (values.size() != sort.size()) mismatch("sort_values() has the wrong size", match, text);
  for (std::size_t i = 0; i < sort.size(); ++i) {
    const json* reached = query::resolve(doc, sort[i].path);
    const json want = reached != nullptr ? *reached : json();
    if (!same_value(values[i], want)) {
      mismatch("sort key " + sort[i].path.text + ": " + shown(values[i]) +
                   ", query::resolve gives " + shown(want),
               match, text);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const query::ParseOptions opts = options();
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  bool has_doc = false, has_sort = false;
  const std::string_view match_text = next_part(rest, &has_doc);
  if (!has_doc) return 0;
  const std::string_view doc_text = next_part(rest, &has_sort);
  const json match_json = json::parse(match_text, nullptr, /*allow_exceptions=*/false);
  if (match_json.is_discarded()) return 0;
  auto match = query::parse_match(match_json, opts);
  if (!match.is_ok()) return 0;

  std::vector<query::SortKey> sort;
  if (has_sort) {
    if (auto parsed = query::parse_sort(rest, opts); parsed.is_ok()) sort = *parsed;
  }
  if (sort.empty()) {
    for (const query::Condition& condition : *match) {
      sort.push_back(query::SortKey{condition.path, sort.size() % 2 == 1});
    }
  }

  // The document alone in a block of its exact size.
  const std::unique_ptr<char[]> block = std::make_unique<char[]>(doc_text.size());
  if (!doc_text.empty()) std::memcpy(block.get(), doc_text.data(), doc_text.size());
  const std::string_view text(block.get(), doc_text.size());
  const json doc = covered_document(text);

  check(*match, sort, text, doc);
  if (match->size() > 1) {
    for (const query::Condition& condition : *match) check({condition}, {}, text, doc);
  }
  return 0;
}

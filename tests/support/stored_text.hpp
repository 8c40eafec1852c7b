// What the store keeps as a document's text, for tests and fuzzers that compare a reader of
// stored texts (TextQuery) with the reference evaluator: one JSON object by json_text's rules
// (nlohmann's, without a BOM or a NUL), no key repeated in any of its objects. Header-only, so
// the fuzz build (which builds no test libraries) includes it too.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/json_text.hpp"

namespace opbase::test {

// Whether `text` holds an object with a key repeated in it, at any level.
inline bool has_repeated_keys(std::string_view text) {
  std::vector<std::set<std::string>> open;
  bool repeated = false;
  nlohmann::json::parser_callback_t callback =
      [&](int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::object_start) {
          open.emplace_back();
        } else if (event == nlohmann::json::parse_event_t::object_end) {
          if (!open.empty()) open.pop_back();
        } else if (event == nlohmann::json::parse_event_t::key && !open.empty()) {
          repeated = repeated || !open.back().insert(parsed.get<std::string>()).second;
        }
        return true;
      };
  const nlohmann::json parsed = nlohmann::json::parse(text, callback, /*allow_exceptions=*/false);
  return !parsed.is_discarded() && repeated;
}

inline bool is_stored_text(std::string_view text) {
  return json_text::is_object(text) && !has_repeated_keys(text);
}

}  // namespace opbase::test

// A match and sort keys evaluated over a stored document's JSON text in one pass, without
// building the document: the sqlite driver's scan reads each row once this way instead of
// parsing it again for every condition and sort key.
//
// The answer is the reference evaluator's (opbase/query.hpp, docs/query.md) on the parsed
// document, exactly: matches(doc) == query::matches(match, json::parse(doc)), and sort_values()
// holds query::resolve's value for each key (null when missing). The walk enters only the
// members that lie on a path of the query and skips every other value by its brackets and
// quotes. Scalars are compared where they lie in the text; an object or array operand, or an
// object or array reached where one is the operand's type, is parsed (only that value).
//
// The text is trusted to be what the store keeps: one valid JSON object without repeated keys
// (insert_text.hpp checks every text before it is stored). Any other text is still read safely,
// never beyond its end, but what it matches is unspecified: the walk checks the grammar only as
// far as it needs to find its way (brackets, quotes, commas), not each value it skips or
// compares. Not thread-safe: it keeps per-document scratch state; a scan makes its own.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"

namespace opbase::host {

class TextQuery {
 public:
  explicit TextQuery(const query::Match& match, const std::vector<query::SortKey>& sort = {});
  ~TextQuery();
  TextQuery(TextQuery&&) noexcept;
  TextQuery& operator=(TextQuery&&) noexcept;

  // Whether the document `doc` satisfies the match. When it does, sort_values() holds the
  // document's sort key values until the next call.
  bool matches(std::string_view doc);

  // One value per sort key, in the keys' order: what query::resolve reaches (through objects
  // only), or null when it reaches nothing.
  const std::vector<nlohmann::json>& sort_values() const;

  // False when the match is empty and there are no sort keys: every document matches, and its
  // text need not be read at all.
  bool reads_documents() const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

// Orders two rows of sort values by the keys (query::compare_values, each key in its direction):
// <0 when `a` sorts first, 0 on a tie.
int compare_sort_values(const std::vector<nlohmann::json>& a, const std::vector<nlohmann::json>& b,
                        const std::vector<query::SortKey>& keys);

}  // namespace opbase::host

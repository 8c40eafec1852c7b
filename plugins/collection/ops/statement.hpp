// The statement form of insert (docs/api.md#the-statement-form): a request {query, variables} whose
// query is one of
//   INSERT $<variable> IN <collection>
//   INSERT INTO <collection> VALUES $<variable>
// Keywords are case-insensitive; any whitespace separates tokens; one trailing ';' is allowed.
// <variable> is [A-Za-z_][A-Za-z0-9_]* and names a key of `variables`; <collection> must pass
// check_collection_name. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::collection {

// Longer queries are refused before parsing (VALIDATION_ERROR, details {"field", "max", "size"}).
inline constexpr std::size_t kMaxQueryBytes = 4096;

struct InsertStatement {
  std::string collection;  // a valid collection name
  std::string variable;    // the name after '$', e.g. "data"
};

// The statement in `query`, or VALIDATION_ERROR:
// - empty or whitespace-only query, or one over kMaxQueryBytes: details {"field": "query", ...};
// - any other statement (SELECT, UPDATE, ...), or an INSERT of another recognisable shape (a
//   literal document, a column list, SELECT, RETURN ...): message "statement not supported",
//   details {"statement": the keyword in upper case, "position": where the unsupported part is};
// - a bad collection name: check_collection_name's error, with "position" added to its details;
// - anything else: "syntax error at position <n>: expected <what>", details
//   {"position": n, "expected": what}.
// Positions are 1-based character positions; one past the last character means the query ended
// too early.
Result<InsertStatement> parse_statement(std::string_view query);

// The documents to insert: the value of `statement.variable` in `variables`, which must be an
// object or a non-empty array of objects. VALIDATION_ERROR otherwise: `variables` not an object
// (details {"field": "variables"}), the variable missing or of the wrong shape (details
// {"variable": name}, plus "index" for a bad array element).
Result<nlohmann::json> bind_statement_data(const InsertStatement& statement,
                                           const nlohmann::json& variables);

}  // namespace opbase::collection

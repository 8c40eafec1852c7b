// The columns the sqlite store files a document under, read from the document, and the one way
// its code runs a statement whose rows it does not read.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace opbase::host::sqlite {

// The `owner` column, from the value of `_userkey` (null unless a string), or from the document.
Bind owner_value_bind(const nlohmann::json& owner);
Bind owner_bind(const nlohmann::json& doc);

// The `created` column, from the value of `_created_at`, or from the document. SQLite orders
// NULL < numbers < text, the brackets of compare_values, so the column sorts exactly for the
// types the store accepts there (store.hpp).
Bind created_value_bind(const nlohmann::json& created);
Bind created_bind(const nlohmann::json& doc);

// A stored text as a tree; INTERNAL_ERROR when it is not JSON (it always is: the store checks
// every text it keeps).
Result<nlohmann::json> parse_doc(std::string_view text);

// Runs one statement to completion.
Status run(Connection& db, const std::string& sql, const std::vector<Bind>& binds);

}  // namespace opbase::host::sqlite

// The SQL functions opbase adds to every sqlite connection, so that SQL returns exactly what the
// reference evaluator (query.hpp) returns where plain SQL cannot:
//   ob_match(doc, match)   1 when the document (JSON text) matches the match (match syntax, JSON
//                          text), by query::matches. The parsed match is cached per statement.
//   ob_extract(doc, path)  the JSON text of the value at a dot path (query::resolve), or NULL;
//                          for sort keys whose names JSON paths cannot spell.
//   COLLATE ob_json        orders two JSON texts by query::compare_values (objects and arrays in
//                          sort keys).
#pragma once

#include <sqlite3.h>

#include "opbase/status.hpp"

namespace opbase::host::sqlite {

Status register_functions(sqlite3* db);

}  // namespace opbase::host::sqlite

// opbase's SQL functions for the sqlite driver (see sqlite_functions.hpp).
#include "store/sqlite/sqlite_functions.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/query.hpp"
#include "opbase/store.hpp"

namespace opbase::host::sqlite {
namespace {

using nlohmann::json;

std::string_view text_arg(sqlite3_value* value) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
  if (text == nullptr) return {};
  return {text, static_cast<std::size_t>(sqlite3_value_bytes(value))};
}

json parse(std::string_view text) { return json::parse(text, nullptr, false); }

void delete_match(void* match) { delete static_cast<query::Match*>(match); }

// The parsed match of argument 1, parsed once per statement execution (SQLite keeps it as
// auxiliary data while the argument is the same bound value).
const query::Match* cached_match(sqlite3_context* context, sqlite3_value* argument) {
  if (auto* cached = static_cast<query::Match*>(sqlite3_get_auxdata(context, 1))) return cached;
  const json wire = parse(text_arg(argument));
  auto match = query::parse_match(wire, store::wire_parse_options());
  if (!match) return nullptr;
  auto* owned = new query::Match(std::move(match).value());
  sqlite3_set_auxdata(context, 1, owned, &delete_match);
  return static_cast<query::Match*>(sqlite3_get_auxdata(context, 1));
}

void ob_match(sqlite3_context* context, int, sqlite3_value** argv) {
  try {
    const query::Match* match = cached_match(context, argv[1]);
    if (match == nullptr) {
      sqlite3_result_error(context, "ob_match: invalid match", -1);
      return;
    }
    const json doc = parse(text_arg(argv[0]));
    sqlite3_result_int(context, !doc.is_discarded() && query::matches(*match, doc) ? 1 : 0);
  } catch (const std::exception&) {
    sqlite3_result_error_nomem(context);
  }
}

void ob_extract(sqlite3_context* context, int, sqlite3_value** argv) {
  try {
    const json doc = parse(text_arg(argv[0]));
    auto path = query::parse_path(text_arg(argv[1]), store::wire_parse_options());
    const json* value = doc.is_discarded() || !path ? nullptr : query::resolve(doc, *path);
    if (value == nullptr) {
      sqlite3_result_null(context);
      return;
    }
    const std::string text = value->dump();
    sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  } catch (const std::exception&) {
    sqlite3_result_error_nomem(context);
  }
}

int compare_json_texts(void*, int a_len, const void* a, int b_len, const void* b) {
  try {
    const json left = parse({static_cast<const char*>(a), static_cast<std::size_t>(a_len)});
    const json right = parse({static_cast<const char*>(b), static_cast<std::size_t>(b_len)});
    return query::compare_values(left.is_discarded() ? json() : left,
                                 right.is_discarded() ? json() : right);
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

Status register_functions(sqlite3* db) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  if (sqlite3_create_function_v2(db, "ob_match", 2, flags, nullptr, &ob_match, nullptr, nullptr,
                                 nullptr) != SQLITE_OK ||
      sqlite3_create_function_v2(db, "ob_extract", 2, flags, nullptr, &ob_extract, nullptr, nullptr,
                                 nullptr) != SQLITE_OK ||
      sqlite3_create_collation_v2(db, "ob_json", SQLITE_UTF8, nullptr, &compare_json_texts,
                                  nullptr) != SQLITE_OK) {
    return Status::internal(std::string("sqlite: registering functions: ") + sqlite3_errmsg(db));
  }
  return Status::ok();
}

}  // namespace opbase::host::sqlite

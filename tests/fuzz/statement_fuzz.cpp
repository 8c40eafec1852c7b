// Fuzzes the collection plugin's statement parser with any bytes as the query. It must never
// crash; a parsed statement must name a valid collection and a valid variable (and bind from a
// matching `variables`); a refusal must be a VALIDATION_ERROR whose position, if any, lies within
// the query or one past it. check_collection_name on the raw bytes must agree with the rules.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/collection_name.hpp"
#include "ops/statement.hpp"

namespace {

using namespace opbase::collection;

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool valid_identifier(std::string_view text) {
  if (text.empty() || !is_ident_start(text.front())) return false;
  for (const char c : text) {
    if (!is_ident_char(c)) return false;
  }
  return true;
}

// Spec 2.2, written independently of check_collection_name.
bool valid_collection_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    if (!lower && c != '_' && (i == 0 || !digit)) return false;
  }
  return true;
}

void check_refusal(const opbase::Status& status, std::size_t size) {
  if (status.is_ok() || status.code() != "VALIDATION_ERROR" || status.message().empty()) {
    std::abort();
  }
  if (!status.details().is_object()) std::abort();
  const auto position = status.details().find("position");
  if (position != status.details().end()) {
    if (!position->is_number_unsigned()) std::abort();
    const auto at = position->get<std::size_t>();
    if (at < 1 || at > size + 1) std::abort();
  }
  // The error envelope writes details with invalid UTF-8 replaced; that must not throw.
  (void)status.details().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view query(reinterpret_cast<const char*>(data), size);

  const opbase::Status name_status = check_collection_name(query);
  if (name_status.is_ok() != valid_collection_name(query)) std::abort();
  if (!name_status.is_ok()) check_refusal(name_status, size);

  const auto parsed = parse_statement(query);
  if (!parsed) {
    check_refusal(parsed.status(), size);
    return 0;
  }
  if (!check_collection_name(parsed->collection).is_ok()) std::abort();
  if (!valid_identifier(parsed->variable)) std::abort();
  if (query.find(parsed->collection) == std::string_view::npos) std::abort();

  const nlohmann::json variables = {{parsed->variable, nlohmann::json::object()}};
  if (!bind_statement_data(*parsed, variables)) std::abort();
  if (bind_statement_data(*parsed, nlohmann::json::object())) std::abort();
  return 0;
}

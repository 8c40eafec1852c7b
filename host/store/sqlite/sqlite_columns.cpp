// Document columns and statements of the sqlite store (see sqlite_columns.hpp).
#include "store/sqlite/sqlite_columns.hpp"

namespace opbase::host::sqlite {

using nlohmann::json;

Bind owner_value_bind(const json& owner) {
  if (!owner.is_string()) return nullptr;
  return owner.get<std::string>();
}

Bind owner_bind(const json& doc) {
  const auto it = doc.find("_userkey");
  return it == doc.end() ? Bind(nullptr) : owner_value_bind(*it);
}

Bind created_value_bind(const json& created) {
  if (created.is_string()) return created.get<std::string>();
  if (created.is_number_integer()) return created.get<int64_t>();
  if (created.is_number()) return created.get<double>();
  return nullptr;
}

Bind created_bind(const json& doc) {
  const auto it = doc.find("_created_at");
  return it == doc.end() ? Bind(nullptr) : created_value_bind(*it);
}

Result<json> parse_doc(std::string_view text) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Status::internal("sqlite: a stored document is not valid JSON");
  return doc;
}

Status run(Connection& db, const std::string& sql, const std::vector<Bind>& binds) {
  auto stmt = db.prepare(sql);
  if (!stmt) return stmt.status();
  (*stmt)->bind_all(binds);
  while ((*stmt)->step()) {
  }
  return (*stmt)->status();
}

}  // namespace opbase::host::sqlite

#include "records/file_record.hpp"

namespace opbase::file {

using nlohmann::json;

json pending_record(const NewFile& file, std::string_view key, std::string_view owner,
                    std::string_view now_iso, std::string_view nonce_sha256) {
  return {{"_key", key},
          {"_userkey", owner},
          {"_created_at", now_iso},
          {"_modified_at", now_iso},
          {"name", file.name},
          {"content_type", file.content_type},
          {"size", file.size},
          {"sha256", file.sha256 ? json(*file.sha256) : json()},
          {"metadata", file.metadata},
          {"public", file.is_public},
          {"readers", json::array()},
          {"state", "pending"},
          {"upload_nonce", nonce_sha256}};
}

json client_record(const json& stored) {
  json record = json::object();
  for (const char* field :
       {"_key", "_userkey", "_created_at", "_modified_at", "name", "content_type", "size", "sha256",
        "metadata", "public", "readers", "state"}) {
    const auto found = stored.find(field);
    record[field] = found == stored.end() ? json() : *found;
  }
  return record;
}

FileRef file_ref(std::string_view project, const json& stored) {
  FileRef ref{std::string(project),
              stored.value("_key", ""),
              stored.value("name", ""),
              stored.value("content_type", ""),
              stored.value("size", int64_t{0}),
              std::nullopt};
  if (const auto sha = stored.find("sha256"); sha != stored.end() && sha->is_string()) {
    ref.sha256 = sha->get<std::string>();
  }
  return ref;
}

Reach reach_of(const json& stored, std::string_view user, bool admin) {
  if (admin) return Reach::kChange;
  if (user.empty()) return Reach::kNone;
  if (stored.value("_userkey", "") == user) return Reach::kChange;
  const auto readers = stored.find("readers");
  if (readers != stored.end() && readers->is_array()) {
    for (const json& reader : *readers) {
      if (reader.is_string() && reader.get_ref<const std::string&>() == user) return Reach::kRead;
    }
  }
  return Reach::kNone;
}

}  // namespace opbase::file

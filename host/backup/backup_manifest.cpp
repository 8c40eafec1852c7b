// The manifest of a backup (see backup_manifest.hpp).
#include "backup/backup_manifest.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "opbase/iso_time.hpp"
#include "projects/projects.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

constexpr std::string_view kStoreFileSuffix = ".db";

Status invalid(const std::string& why) {
  return Status::validation("the backup's " + std::string(kManifestName) + " " + why);
}

bool is_sha256_hex(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Result<BackupFile> file_of(const json& entry, std::set<std::string>& seen) {
  if (!entry.is_object()) return invalid("has a file entry that is not an object");
  const auto name = entry.find("name");
  if (name == entry.end() || !name->is_string()) return invalid("has a file without a name");
  BackupFile file;
  file.name = name->get<std::string>();
  if (!is_backup_file_name(file.name)) {
    return invalid("names the file '" + file.name + "', which a backup may not hold (only " +
                   "<project>.db and " + std::string(kDefaultKeysFileName) + ")");
  }
  if (!seen.insert(file.name).second) return invalid("lists the file " + file.name + " twice");
  const auto bytes = entry.find("bytes");
  if (bytes == entry.end() || !bytes->is_number_unsigned()) {
    return invalid("gives no size (bytes) for " + file.name);
  }
  file.bytes = bytes->get<uint64_t>();
  const auto sha = entry.find("sha256");
  if (sha == entry.end() || !sha->is_string() || !is_sha256_hex(sha->get<std::string>())) {
    return invalid("gives no sha256 (64 lowercase hex digits) for " + file.name);
  }
  file.sha256 = sha->get<std::string>();
  return file;
}

}  // namespace

const BackupFile* BackupManifest::file(std::string_view name) const {
  for (const BackupFile& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string BackupManifest::to_json() const {
  // In this order, for people who read it (tar -xOf FILE manifest.json).
  nlohmann::ordered_json out = {{"format", kBackupFormatName},
                                {"format_version", format_version},
                                {"opbase_version", opbase_version},
                                {"created", iso_time(created_ms)},
                                {"created_ms", created_ms},
                                {"storage_driver", "sqlite"},
                                {"projects", projects},
                                {"files", nlohmann::ordered_json::array()}};
  for (const BackupFile& f : files) {
    out["files"].push_back({{"name", f.name}, {"bytes", f.bytes}, {"sha256", f.sha256}});
  }
  return out.dump(2) + "\n";
}

std::optional<std::string> project_of_store_file(std::string_view name) {
  if (!name.ends_with(kStoreFileSuffix)) return std::nullopt;
  const std::string_view id = name.substr(0, name.size() - kStoreFileSuffix.size());
  if (!is_valid_project_id(id)) return std::nullopt;
  return std::string(id);
}

bool is_backup_file_name(std::string_view name) {
  return name == kDefaultKeysFileName || project_of_store_file(name).has_value();
}

Result<BackupManifest> parse_backup_manifest(std::string_view text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return invalid("is not a JSON object");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() ||
      format->get_ref<const std::string&>() != kBackupFormatName) {
    return invalid("does not say \"format\": \"" + std::string(kBackupFormatName) +
                   "\": this is not an opbase backup");
  }
  BackupManifest manifest;
  const auto version = doc.find("format_version");
  if (version == doc.end() || !version->is_number_unsigned() || *version == 0) {
    return invalid("has no format_version");
  }
  if (*version > static_cast<unsigned>(kBackupFormatVersion)) {
    return Status::validation("the backup has format version " + version->dump() +
                              "; this opbase reads versions up to " +
                              std::to_string(kBackupFormatVersion) +
                              ": restore it with the opbase that wrote it or a newer one");
  }
  manifest.format_version = version->get<int>();
  const auto written_by = doc.find("opbase_version");
  if (written_by != doc.end() && written_by->is_string()) {
    manifest.opbase_version = written_by->get<std::string>();
  }
  const auto created = doc.find("created_ms");
  if (created == doc.end() || !created->is_number_integer()) return invalid("has no created_ms");
  manifest.created_ms = created->get<int64_t>();

  const auto files = doc.find("files");
  if (files == doc.end() || !files->is_array()) return invalid("has no files list");
  std::set<std::string> seen;
  std::vector<std::string> store_projects;
  for (const json& entry : *files) {
    Result<BackupFile> file = file_of(entry, seen);
    if (!file) return file.status();
    if (auto project = project_of_store_file(file->name)) store_projects.push_back(*project);
    manifest.files.push_back(std::move(*file));
  }
  if (store_projects.empty()) return invalid("lists no project file (<project>.db)");
  const auto projects = doc.find("projects");
  if (projects == doc.end() || !projects->is_array() || *projects != json(store_projects)) {
    return invalid("has a projects list that does not match its <project>.db files");
  }
  manifest.projects = std::move(store_projects);
  return manifest;
}

}  // namespace opbase::host

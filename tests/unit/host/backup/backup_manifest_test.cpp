// BackupManifest: the names a backup may hold, the manifest written and read back, and each way
// a manifest is refused, with its message.
#include "backup/backup_manifest.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace opbase::host {
namespace {

using nlohmann::json;

const std::string kSha(64, 'a');

BackupManifest two_projects() {
  BackupManifest manifest;
  manifest.opbase_version = "1.2.3";
  manifest.created_ms = 1'700'000'000'123;
  manifest.projects = {"default", "shop"};
  manifest.files = {{"default.db", 4096, kSha},
                    {"shop.db", 8192, std::string(64, 'b')},
                    {"default-project.properties", 120, std::string(64, 'c')}};
  return manifest;
}

json manifest_json() { return json::parse(two_projects().to_json()); }

std::string refusal(const json& manifest) {
  const auto parsed = parse_backup_manifest(manifest.dump());
  EXPECT_FALSE(parsed.is_ok()) << manifest.dump();
  return parsed.status().message();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(BackupManifest, NamesAreProjectStoresAndTheDefaultKeysOnly) {
  EXPECT_EQ(project_of_store_file("shop.db"), "shop");
  EXPECT_EQ(project_of_store_file("a_b-9.db"), "a_b-9");
  for (const char* name : {".db", "Shop.db", "../shop.db", "a/shop.db", "/shop.db", "shop.db-wal",
                           "shop.db.before-restore-20260101T000000Z", "shop", "shop.DB",
                           "manifest.json", "sh op.db"}) {
    EXPECT_FALSE(project_of_store_file(name).has_value()) << name;
    EXPECT_FALSE(is_backup_file_name(name)) << name;
  }
  EXPECT_FALSE(project_of_store_file(std::string(65, 'a') + ".db").has_value());
  EXPECT_TRUE(is_backup_file_name("default-project.properties"));
  EXPECT_TRUE(is_backup_file_name("default.db"));
}

TEST(BackupManifest, WrittenAndReadBack) {
  const BackupManifest written = two_projects();
  const json doc = json::parse(written.to_json());
  EXPECT_EQ(doc["format"], "opbase-backup");
  EXPECT_EQ(doc["format_version"], kBackupFormatVersion);
  EXPECT_EQ(doc["created"], "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(doc["storage_driver"], "sqlite");
  EXPECT_EQ(written.to_json().find("\"format\""), 4u) << "the format comes first";

  const auto read = parse_backup_manifest(written.to_json());
  ASSERT_TRUE(read.is_ok()) << read.status().to_string();
  EXPECT_EQ(read->opbase_version, "1.2.3");
  EXPECT_EQ(read->created_ms, written.created_ms);
  EXPECT_EQ(read->projects, written.projects);
  ASSERT_EQ(read->files.size(), 3u);
  EXPECT_EQ(read->files[1].name, "shop.db");
  EXPECT_EQ(read->files[1].bytes, 8192u);
  EXPECT_EQ(read->files[1].sha256, std::string(64, 'b'));
  EXPECT_EQ(read->file("default-project.properties")->bytes, 120u);
  EXPECT_EQ(read->file("nosuch.db"), nullptr);
}

TEST(BackupManifest, ANewerFormatIsRefusedNamingBothVersions) {
  json doc = manifest_json();
  doc["format_version"] = kBackupFormatVersion + 1;
  const std::string why = refusal(doc);
  EXPECT_TRUE(contains(why, "format version " + std::to_string(kBackupFormatVersion + 1))) << why;
  EXPECT_TRUE(contains(why, "reads versions up to " + std::to_string(kBackupFormatVersion))) << why;
}

TEST(BackupManifest, EachFlawIsRefusedSayingWhat) {
  EXPECT_TRUE(contains(refusal(json("text")), "is not a JSON object"));
  EXPECT_TRUE(contains(parse_backup_manifest("{").status().message(), "is not a JSON object"));

  const std::vector<std::pair<std::function<void(json&)>, std::string>> flaws = {
      {[](json& d) { d["format"] = "tarball"; }, "this is not an opbase backup"},
      {[](json& d) { d.erase("format"); }, "this is not an opbase backup"},
      {[](json& d) { d["format_version"] = 0; }, "has no format_version"},
      {[](json& d) { d["format_version"] = "1"; }, "has no format_version"},
      {[](json& d) { d.erase("created_ms"); }, "has no created_ms"},
      {[](json& d) { d.erase("files"); }, "has no files list"},
      {[](json& d) { d["files"][0] = "default.db"; }, "not an object"},
      {[](json& d) { d["files"][0].erase("name"); }, "has a file without a name"},
      {[](json& d) { d["files"][0]["name"] = "../default.db"; }, "names the file '../default.db'"},
      {[](json& d) { d["files"][0]["name"] = "evil-link"; }, "which a backup may not hold"},
      {[](json& d) { d["files"][1]["name"] = "default.db"; }, "lists the file default.db twice"},
      {[](json& d) { d["files"][0]["bytes"] = -1; }, "gives no size (bytes) for default.db"},
      {[](json& d) { d["files"][0]["sha256"] = "abc"; }, "gives no sha256"},
      {[](json& d) { d["files"][0]["sha256"] = std::string(64, 'A'); }, "gives no sha256"},
      {[](json& d) { d["projects"] = {"default"}; }, "does not match its <project>.db files"},
      {[](json& d) { d.erase("projects"); }, "does not match its <project>.db files"},
      {[](json& d) {
         d["files"] = json::array({d["files"][2]});
         d["projects"] = json::array();
       },
       "lists no project file"},
  };
  for (const auto& [flaw, message] : flaws) {
    json doc = manifest_json();
    flaw(doc);
    const std::string why = refusal(doc);
    EXPECT_TRUE(contains(why, message)) << why << "\nexpected: " << message;
  }
}

}  // namespace
}  // namespace opbase::host

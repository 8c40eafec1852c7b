// The backup archive: what write_backup_archive writes, extract_backup_archive reads back
// byte for byte; and every archive it must refuse (built here entry by entry with libarchive):
// links, folders, paths, files the manifest does not list or lists but lacks, a wrong size or
// SHA-256, a manifest that is not first, a cut-short file. Each refusal says what is wrong.
#include "backup/backup_archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "file_text.hpp"
#include "temp_dir.hpp"

namespace opbase::host {
namespace {

using test::file_text;

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// One entry of a hand-made archive.
struct RawEntry {
  RawEntry(std::string name, std::string content, unsigned type = AE_IFREG, std::string link = "")
      : name(std::move(name)), content(std::move(content)), type(type), link(std::move(link)) {}
  std::string name;
  std::string content;
  unsigned type;
  std::string link;  // a symlink's target, or a hard link's
};

void write_raw_archive(const std::string& path, const std::vector<RawEntry>& entries) {
  struct archive* a = archive_write_new();
  archive_write_add_filter_zstd(a);
  archive_write_set_format_pax_restricted(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const RawEntry& e : entries) {
    struct archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, 0644);
    if (e.type == AE_IFLNK) archive_entry_set_symlink(entry, e.link.c_str());
    if (e.type == AE_IFREG && !e.link.empty()) archive_entry_set_hardlink(entry, e.link.c_str());
    archive_entry_set_size(entry,
                           e.type == AE_IFREG ? static_cast<la_int64_t>(e.content.size()) : 0);
    ASSERT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << archive_error_string(a);
    if (!e.content.empty()) archive_write_data(a, e.content.data(), e.content.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
}

class BackupArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    std::filesystem::create_directory(source());
    // Not a real database: the archive carries any bytes.
    std::string db(300'000, '\0');
    for (size_t i = 0; i < db.size(); ++i) db[i] = static_cast<char>((i * 7919) % 251);
    files_ = {{"shop.db", db}, {"default-project.properties", "projects.default.api_key = k\n"}};
    manifest_.opbase_version = "1.2.3";
    manifest_.created_ms = 1'700'000'000'000;
    manifest_.projects = {"shop"};
    for (const auto& [name, content] : files_) {
      write_file(source() + "/" + name, content);
      auto file = describe_backup_file(source(), name);
      ASSERT_TRUE(file.is_ok()) << file.status().to_string();
      manifest_.files.push_back(*file);
    }
  }

  std::string source() const { return dir_.path() + "/source"; }
  std::string archive() const { return dir_.path() + "/backup.tar.zst"; }

  // A fresh, empty folder to extract into.
  std::string target() {
    const std::string path = dir_.path() + "/target-" + std::to_string(++targets_);
    std::filesystem::create_directory(path);
    return path;
  }

  void write_good_archive() {
    const int fd = ::open(archive().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    const Status written = write_backup_archive(fd, manifest_, source());
    ::close(fd);
    ASSERT_TRUE(written.is_ok()) << written.to_string();
  }

  // The message of a refused extraction of `entries`; the target folder is left as the caller
  // found it but for files of the manifest.
  std::string refusal(const std::vector<RawEntry>& entries) {
    write_raw_archive(archive(), entries);
    const auto extracted = extract_backup_archive(archive(), target());
    EXPECT_FALSE(extracted.is_ok());
    return extracted.status().message();
  }

  RawEntry manifest_entry() const { return {"manifest.json", manifest_.to_json()}; }
  RawEntry file_entry(const std::string& name) const { return {name, files_.at(name)}; }

  test::TempDir dir_{"opbase-backup-archive"};
  std::map<std::string, std::string> files_;
  BackupManifest manifest_;
  int targets_ = 0;
};

TEST_F(BackupArchive, WhatIsWrittenIsReadBackByteForByte) {
  write_good_archive();
  const std::string into = target();
  const auto extracted = extract_backup_archive(archive(), into);
  ASSERT_TRUE(extracted.is_ok()) << extracted.status().to_string();
  EXPECT_EQ(extracted->projects, std::vector<std::string>{"shop"});
  EXPECT_EQ(extracted->opbase_version, "1.2.3");
  for (const auto& [name, content] : files_) {
    EXPECT_EQ(file_text(into + "/" + name), content) << name;
    EXPECT_EQ(std::filesystem::status(into + "/" + name).permissions(),
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  }
  EXPECT_LT(std::filesystem::file_size(archive()), 300'000u) << "it is compressed";
}

TEST_F(BackupArchive, TheSameEntriesByHandAreAccepted) {
  // The refusals below differ from this archive in one thing each.
  write_raw_archive(archive(), {manifest_entry(), file_entry("shop.db"),
                                file_entry("default-project.properties")});
  EXPECT_TRUE(extract_backup_archive(archive(), target()).is_ok());
}

TEST_F(BackupArchive, LinksFoldersAndPathsAreRefused) {
  const RawEntry keys = file_entry("default-project.properties");
  EXPECT_TRUE(contains(refusal({manifest_entry(), {"shop.db", "", AE_IFLNK, "/etc/passwd"}, keys}),
                       "its entry shop.db is not a plain file"));
  EXPECT_TRUE(contains(refusal({manifest_entry(), {"shop.db", "", AE_IFREG, "other.db"}, keys}),
                       "its entry shop.db is not a plain file"));
  // A folder's name reads with a '/' at its end.
  const std::string folder = refusal({manifest_entry(), {"shop.db", "", AE_IFDIR}, keys});
  EXPECT_TRUE(contains(folder, "its entry shop.db is not a plain file") ||
              contains(folder, "it holds 'shop.db/', which its manifest does not list"))
      << folder;
  EXPECT_TRUE(contains(refusal({manifest_entry(), {"../shop.db", files_["shop.db"]}, keys}),
                       "it holds '../shop.db', which its manifest does not list"));
  EXPECT_TRUE(contains(refusal({manifest_entry(), {"sub/shop.db", files_["shop.db"]}, keys}),
                       "it holds 'sub/shop.db', which its manifest does not list"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/shop.db"));
}

TEST_F(BackupArchive, FilesMustBeExactlyTheManifests) {
  const RawEntry db = file_entry("shop.db");
  const RawEntry keys = file_entry("default-project.properties");
  EXPECT_TRUE(contains(refusal({manifest_entry(), db, keys, {"extra.db", "x"}}),
                       "it holds 'extra.db', which its manifest does not list"));
  EXPECT_TRUE(contains(refusal({manifest_entry(), db, keys, db}), "it holds shop.db twice"));
  EXPECT_TRUE(contains(refusal({manifest_entry(), db}),
                       "default-project.properties is missing (the file may be cut short)"));
  RawEntry changed = db;
  changed.content[1000] ^= 1;
  EXPECT_TRUE(contains(refusal({manifest_entry(), changed, keys}), "shop.db has SHA-256 "));
  EXPECT_TRUE(contains(refusal({manifest_entry(), changed, keys}), "it is damaged"));
  RawEntry shorter = db;
  shorter.content.pop_back();
  EXPECT_TRUE(contains(refusal({manifest_entry(), shorter, keys}),
                       "shop.db is not the 300000 bytes its manifest gives"));
}

TEST_F(BackupArchive, TheManifestComesFirstAndIsChecked) {
  const RawEntry db = file_entry("shop.db");
  const RawEntry keys = file_entry("default-project.properties");
  EXPECT_TRUE(
      contains(refusal({db, manifest_entry(), keys}), "it does not begin with manifest.json"));
  EXPECT_TRUE(contains(refusal({}), "it does not begin with manifest.json"));
  EXPECT_TRUE(contains(refusal({{"manifest.json", "{\"format\": \"zip\"}"}, db, keys}),
                       "this is not an opbase backup"));
  EXPECT_TRUE(contains(refusal({{"manifest.json", std::string(kMaxManifestBytes + 1, ' ')}}),
                       "manifest.json is too large"));
}

TEST_F(BackupArchive, ACutShortOrUnreadableFileIsRefused) {
  write_good_archive();
  const std::string whole = file_text(archive());
  for (const size_t keep : {whole.size() / 2, whole.size() - 10, size_t{10}, size_t{0}}) {
    write_file(archive(), whole.substr(0, keep));
    const auto extracted = extract_backup_archive(archive(), target());
    ASSERT_FALSE(extracted.is_ok()) << "kept " << keep << " bytes";
    EXPECT_TRUE(
        contains(extracted.status().message(), archive() + " is not a whole opbase backup: "))
        << extracted.status().message();
  }
  const auto missing = extract_backup_archive(dir_.path() + "/nosuch", target());
  EXPECT_TRUE(contains(missing.status().message(), "cannot open the backup "));
}

}  // namespace
}  // namespace opbase::host

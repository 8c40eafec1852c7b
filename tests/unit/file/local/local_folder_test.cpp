// The local backend's folder (local/local_folder.hpp) on a temporary directory: an upload written
// in pieces and committed is at path_of with exactly its bytes, its size and the SHA-256 OpenSSL
// computes of the whole, and leaves no partial file behind; an upload dropped without commit leaves
// nothing, neither the final file nor the partial one; two uploads of one key write apart and the
// last commit stays; prepare() makes the folder, removes what interrupted uploads left in each
// project's .partial and keeps committed files; size_of answers nullopt for a missing file and the
// size of a stored one; remove of a missing file is OK; path_of spreads files by the key's last
// two characters; a root that cannot be a folder is refused with INTERNAL_ERROR.
#include "local/local_folder.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "file_text.hpp"
#include "opbase/hex.hpp"
#include "temp_dir.hpp"

namespace opbase::file {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kKey = "01a223ef6ba6f883f29338a74e2bf34b";
constexpr std::string_view kOtherKey = "01a223ef6ba6f883f29338a74e2bf3c7";

std::string sha256_of(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return hex_encode({reinterpret_cast<const char*>(digest), sizeof digest});
}

// Bytes of every value, long enough to take several writes of the disk.
std::string sample_bytes(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + i / 256) % 256);
  return bytes;
}

void write_file(const fs::path& path, std::string_view bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

// The entries of `folder`, none when it does not exist.
size_t entries_in(const fs::path& folder) {
  std::error_code error;
  size_t count = 0;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    ++count;
  }
  return count;
}

class LocalFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(folder_.prepare().is_ok());
  }

  // A whole upload of `bytes` under `key`, committed.
  void store(std::string_view key, std::string_view bytes) {
    auto partial = folder_.begin(kProject, key);
    ASSERT_TRUE(partial.is_ok()) << partial.status().to_string();
    ASSERT_TRUE((*partial)->write(bytes).is_ok());
    (void)(*partial)->sha256_hex();
    ASSERT_TRUE((*partial)->commit().is_ok());
  }
  fs::path partial_folder() const { return root_ / std::string(kProject) / ".partial"; }

  opbase::test::TempDir dir_{"opbase-local-folder"};
  fs::path root_ = fs::path(dir_.path()) / "files";
  LocalFolder folder_{root_.string()};
};

TEST_F(LocalFolderTest, AnUploadWrittenInPiecesAndCommittedIsStoredWithItsSha256) {
  const std::string whole = sample_bytes(300'000);
  auto begun = folder_.begin(kProject, kKey);
  ASSERT_TRUE(begun.is_ok()) << begun.status().to_string();
  LocalFolder::Partial& partial = **begun;
  for (size_t at = 0, piece = 1; at < whole.size(); at += piece, piece *= 3) {
    ASSERT_TRUE(partial.write(std::string_view(whole).substr(at, piece)).is_ok());
  }
  ASSERT_TRUE(partial.write("").is_ok());
  EXPECT_EQ(partial.size(), 300'000);
  EXPECT_FALSE(fs::exists(folder_.path_of(kProject, kKey)));  // not before commit
  EXPECT_EQ(entries_in(partial_folder()), 1u);
  const std::string sha = partial.sha256_hex();
  ASSERT_TRUE(partial.commit().is_ok());
  EXPECT_EQ(sha, sha256_of(whole));
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kKey)), whole);
  EXPECT_EQ(entries_in(partial_folder()), 0u);
  begun->reset();  // a committed upload's end removes nothing
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kKey)), whole);
}

TEST_F(LocalFolderTest, AnEmptyUploadIsStoredWithTheSha256OfNothing) {
  auto partial = folder_.begin(kProject, kKey);
  ASSERT_TRUE(partial.is_ok());
  EXPECT_EQ((*partial)->sha256_hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  ASSERT_TRUE((*partial)->commit().is_ok());
  auto size = folder_.size_of(kProject, kKey);
  ASSERT_TRUE(size.is_ok());
  EXPECT_EQ(*size, std::optional<int64_t>(0));
}

TEST_F(LocalFolderTest, AnUploadDroppedWithoutCommitLeavesNothing) {
  {
    auto partial = folder_.begin(kProject, kKey);
    ASSERT_TRUE(partial.is_ok());
    ASSERT_TRUE((*partial)->write(sample_bytes(5000)).is_ok());
    EXPECT_EQ(entries_in(partial_folder()), 1u);
  }
  EXPECT_FALSE(fs::exists(folder_.path_of(kProject, kKey)));
  EXPECT_EQ(entries_in(partial_folder()), 0u);
  {
    auto partial = folder_.begin(kProject, kKey);  // dropped after its digest, too
    ASSERT_TRUE(partial.is_ok());
    ASSERT_TRUE((*partial)->write("abc").is_ok());
    (void)(*partial)->sha256_hex();
  }
  EXPECT_FALSE(fs::exists(folder_.path_of(kProject, kKey)));
  EXPECT_EQ(entries_in(partial_folder()), 0u);
}

TEST_F(LocalFolderTest, AnUploadDroppedWithoutCommitKeepsTheFileStoredBefore) {
  store(kKey, "first");
  {
    auto partial = folder_.begin(kProject, kKey);
    ASSERT_TRUE(partial.is_ok());
    ASSERT_TRUE((*partial)->write("second, cut short").is_ok());
  }
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kKey)), "first");
}

TEST_F(LocalFolderTest, TwoUploadsOfOneKeyWriteApartAndTheLastCommitStays) {
  auto first = folder_.begin(kProject, kKey);
  auto second = folder_.begin(kProject, kKey);
  ASSERT_TRUE(first.is_ok());
  ASSERT_TRUE(second.is_ok());
  ASSERT_TRUE((*first)->write("one").is_ok());
  ASSERT_TRUE((*second)->write("two!").is_ok());
  EXPECT_EQ(entries_in(partial_folder()), 2u);
  ASSERT_TRUE((*second)->commit().is_ok());
  ASSERT_TRUE((*first)->commit().is_ok());
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kKey)), "one");
  EXPECT_EQ(entries_in(partial_folder()), 0u);
}

TEST_F(LocalFolderTest, PrepareRemovesWhatInterruptedUploadsLeftAndKeepsStoredFiles) {
  store(kKey, "kept");
  write_file(partial_folder() / (std::string(kKey) + ".0011223344556677"), "half");
  write_file(partial_folder() / "odd" / "nested", "left");
  const fs::path other_partial = root_ / "p2" / ".partial" / "x.1";
  write_file(other_partial, "other project's");
  const fs::path other_stored = root_ / "p2" / "aa" / "xaa";
  write_file(other_stored, "other stored");
  ASSERT_TRUE(folder_.prepare().is_ok());
  EXPECT_EQ(entries_in(partial_folder()), 0u);
  EXPECT_FALSE(fs::exists(other_partial));
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kKey)), "kept");
  EXPECT_EQ(opbase::test::file_text(other_stored.string()), "other stored");
  store(kOtherKey, "after");  // uploads work again after it
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kOtherKey)), "after");
}

TEST_F(LocalFolderTest, PrepareMakesTheFolderAndItsParents) {
  const fs::path deep = fs::path(dir_.path()) / "a" / "b" / "files";
  LocalFolder fresh(deep.string());
  ASSERT_TRUE(fresh.prepare().is_ok());
  EXPECT_TRUE(fs::is_directory(deep));
  ASSERT_TRUE(fresh.prepare().is_ok());  // and again, on a folder that is there
}

TEST_F(LocalFolderTest, SizeOfAMissingFileIsNulloptAndOfAStoredOneItsSize) {
  auto none = folder_.size_of(kProject, kKey);  // not even the project's folder yet
  ASSERT_TRUE(none.is_ok());
  EXPECT_FALSE(none->has_value());
  store(kKey, sample_bytes(1234));
  auto stored = folder_.size_of(kProject, kKey);
  ASSERT_TRUE(stored.is_ok());
  EXPECT_EQ(*stored, std::optional<int64_t>(1234));
  auto other = folder_.size_of(kProject, kOtherKey);  // the project's folder is there now
  ASSERT_TRUE(other.is_ok());
  EXPECT_FALSE(other->has_value());
  auto elsewhere = folder_.size_of("p2", kKey);
  ASSERT_TRUE(elsewhere.is_ok());
  EXPECT_FALSE(elsewhere->has_value());
}

TEST_F(LocalFolderTest, RemoveTakesAStoredFileAndIsOkForAMissingOne) {
  EXPECT_TRUE(folder_.remove(kProject, kKey).is_ok());
  store(kKey, "bytes");
  store(kOtherKey, "others");
  EXPECT_TRUE(folder_.remove(kProject, kKey).is_ok());
  EXPECT_FALSE(fs::exists(folder_.path_of(kProject, kKey)));
  EXPECT_FALSE(folder_.size_of(kProject, kKey)->has_value());
  EXPECT_TRUE(folder_.remove(kProject, kKey).is_ok());  // again
  EXPECT_EQ(opbase::test::file_text(folder_.path_of(kProject, kOtherKey)), "others");
}

TEST_F(LocalFolderTest, PathOfSpreadsFilesByTheKeysLastTwoCharacters) {
  const std::string root = root_.string();
  EXPECT_EQ(folder_.path_of(kProject, kKey), root + "/p1/4b/" + std::string(kKey));
  EXPECT_EQ(folder_.path_of(kProject, kOtherKey), root + "/p1/c7/" + std::string(kOtherKey));
  EXPECT_EQ(folder_.path_of("p2", kKey), root + "/p2/4b/" + std::string(kKey));
  store(kKey, "x");
  EXPECT_TRUE(fs::is_regular_file(root_ / "p1" / "4b" / std::string(kKey)));
}

TEST_F(LocalFolderTest, ARootThatCannotBeAFolderIsRefused) {
  const fs::path file = fs::path(dir_.path()) / "a-file";
  write_file(file, "not a folder");
  LocalFolder blocked(file.string());
  const Status prepared = blocked.prepare();
  EXPECT_EQ(prepared.code(), code::kInternalError);
  auto begun = blocked.begin(kProject, kKey);
  ASSERT_FALSE(begun.is_ok());
  EXPECT_EQ(begun.status().code(), code::kInternalError);
  EXPECT_NE(begun.status().message().find(file.string()), std::string::npos)
      << begun.status().message();
}

}  // namespace
}  // namespace opbase::file

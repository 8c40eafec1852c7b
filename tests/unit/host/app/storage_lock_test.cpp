// StorageLock: the flock on <storage.path>/opbase.lock. Daemons share it; a restore holds it
// alone; each refusal says who holds it. flock locks belong to an open file, so two locks taken
// in this one process conflict as two processes' would.
#include "app/storage_lock.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"

namespace opbase::host {
namespace {

using Mode = StorageLock::Mode;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(StorageLock, DaemonsShareItARestoreHoldsItAlone) {
  const test::TempDir dir("opbase-storage-lock");
  ASSERT_FALSE(dir.path().empty());
  const std::string storage = dir.path() + "/data";  // made when missing
  {
    auto first = StorageLock::take(storage, Mode::kShared);
    ASSERT_TRUE(first.is_ok()) << first.status().to_string();
    EXPECT_TRUE(std::filesystem::exists(storage + "/opbase.lock"));
    auto second = StorageLock::take(storage, Mode::kShared);
    EXPECT_TRUE(second.is_ok()) << second.status().to_string();

    auto restore = StorageLock::take(storage, Mode::kExclusive);
    ASSERT_FALSE(restore.is_ok());
    EXPECT_EQ(restore.status().message(), "opbase is running on storage.path " + storage +
                                              " (a daemon or an admin command holds " + storage +
                                              "/opbase.lock): stop it before the restore");
  }
  {
    auto restore = StorageLock::take(storage, Mode::kExclusive);
    ASSERT_TRUE(restore.is_ok()) << "released when the daemons' locks went";
    auto daemon = StorageLock::take(storage, Mode::kShared);
    ASSERT_FALSE(daemon.is_ok());
    EXPECT_TRUE(
        contains(daemon.status().message(), "storage.path " + storage + " is being restored"))
        << daemon.status().message();
  }
  EXPECT_TRUE(StorageLock::take(storage, Mode::kShared).is_ok());
}

TEST(StorageLock, AFolderThatCannotBeMadeIsAnError) {
  const test::TempDir dir("opbase-storage-lock");
  ASSERT_FALSE(dir.path().empty());
  const std::string file = dir.path() + "/file";
  std::ofstream(file) << "x";  // a file where a folder would go
  auto lock = StorageLock::take(file + "/data", Mode::kShared);
  ASSERT_FALSE(lock.is_ok());
  EXPECT_TRUE(contains(lock.status().message(), "cannot create storage.path " + file + "/data"))
      << lock.status().message();
}

}  // namespace
}  // namespace opbase::host

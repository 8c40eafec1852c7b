// The embedded store's files under storage.path: which a backup copies, which a restore
// replaces, the names it keeps them aside under, the refusal of the MongoDB store, and the
// mode (0600 whatever the umask) the live store's files have.
#include "backup/storage_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "store/sqlite/sqlite_driver.hpp"
#include "store/sqlite/sqlite_file_mode.hpp"
#include "temp_dir.hpp"

namespace opbase::host {
namespace {

void touch(const std::string& path) { std::ofstream(path) << "x"; }

mode_t mode_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return info.st_mode & 07777;
}

// The umask the daemon runs under in the foreground, `make run` and the container, for one test.
class Umask022 {
 public:
  Umask022() : before_(::umask(022)) {}
  ~Umask022() { ::umask(before_); }
  Umask022(const Umask022&) = delete;
  Umask022& operator=(const Umask022&) = delete;

 private:
  mode_t before_;
};

TEST(StorageFiles, StoresAndProjectFilesInAFolder) {
  const test::TempDir dir("opbase-storage-files");
  ASSERT_FALSE(dir.path().empty());
  for (const char* name :
       {"shop.db", "shop.db-wal", "shop.db-shm", "default.db", "default.db-journal",
        "default-project.properties", "opbase.lock", "notes.txt", "Shop.db", "x.db-wal",
        "shop.db.before-restore-20260101T000000Z", "shop.db.before-restore-20260101T000000Z-wal"}) {
    touch(dir.path() + "/" + name);
  }
  std::filesystem::create_directory(dir.path() + "/folder.db");
  std::filesystem::create_directory(dir.path() + "/.restore-abc");

  const auto stores = store_files_in(dir.path());
  ASSERT_TRUE(stores.is_ok());
  EXPECT_EQ(*stores, (std::vector<std::string>{"default.db", "shop.db"}));
  const auto project = project_files_in(dir.path());
  ASSERT_TRUE(project.is_ok());
  EXPECT_EQ(*project, (std::vector<std::string>{"default-project.properties", "default.db",
                                                "default.db-journal", "folder.db", "shop.db",
                                                "shop.db-shm", "shop.db-wal", "x.db-wal"}));

  const auto none = project_files_in(dir.path() + "/nosuch");
  ASSERT_TRUE(none.is_ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(store_files_in(dir.path() + "/nosuch").is_ok());
}

TEST(StorageFiles, KeptAsideNamesKeepADatabaseWithItsJournal) {
  const std::string suffix = ".before-restore-20260101T000000Z";
  EXPECT_EQ(kept_aside_name("shop.db", suffix), "shop.db" + suffix);
  EXPECT_EQ(kept_aside_name("shop.db-wal", suffix), "shop.db" + suffix + "-wal");
  EXPECT_EQ(kept_aside_name("shop.db-shm", suffix), "shop.db" + suffix + "-shm");
  EXPECT_EQ(kept_aside_name("default-project.properties", suffix),
            "default-project.properties" + suffix);
}

TEST(StorageFiles, OnlyTheEmbeddedStoreIsBackedUp) {
  EXPECT_TRUE(require_embedded_store(Config::defaults_with(), "backup").is_ok());
  const Status mongo =
      require_embedded_store(Config::defaults_with({{"storage.driver", "mongodb"}}), "restore");
  EXPECT_EQ(mongo.message(),
            "storage.driver is mongodb: opbase restore covers the embedded store only; back up "
            "and restore the databases opbase_<project> with MongoDB's own tools (mongodump, "
            "mongorestore)");
  EXPECT_FALSE(
      require_embedded_store(Config::defaults_with({{"storage.driver", "redis"}}), "backup")
          .is_ok());
  EXPECT_EQ(storage_path_of(Config::defaults_with({{"storage.path", "/srv/x"}})), "/srv/x");
}

TEST(StorageFiles, TheLiveStoreIsPrivateUnderUmask022) {
  const Umask022 umask;
  const test::TempDir dir("opbase-store-mode");
  ASSERT_FALSE(dir.path().empty());
  SqliteDriver driver(SqliteOptions{dir.path()});
  auto store = driver.open("default");  // creates the schema: the WAL and its index are open
  ASSERT_TRUE(store.is_ok()) << store.status().message();
  for (const char* name : {"/default.db", "/default.db-wal", "/default.db-shm"}) {
    ASSERT_TRUE(std::filesystem::exists(dir.path() + name)) << name;
    EXPECT_EQ(mode_of(dir.path() + name), 0600) << name;
  }
}

TEST(StorageFiles, FilesAnOlderVersionLeftOpenAreTightened) {
  const Umask022 umask;
  const test::TempDir dir("opbase-store-mode");
  ASSERT_FALSE(dir.path().empty());
  const std::string db = dir.path() + "/shop.db";
  {
    SqliteDriver driver(SqliteOptions{dir.path()});
    ASSERT_TRUE(driver.open("shop").is_ok());
  }
  ASSERT_EQ(::chmod(db.c_str(), 0644), 0);
  SqliteDriver driver(SqliteOptions{dir.path()});
  ASSERT_TRUE(driver.open("shop").is_ok());
  EXPECT_EQ(mode_of(db), 0600);
  EXPECT_EQ(mode_of(db + "-wal"), 0600);

  // Companions left 0644 beside a database are tightened too; missing ones are not made.
  touch(dir.path() + "/old.db-wal");
  touch(dir.path() + "/old.db-shm");
  ASSERT_EQ(mode_of(dir.path() + "/old.db-wal"), 0644);
  ASSERT_TRUE(sqlite::keep_store_files_private(dir.path() + "/old.db").is_ok());
  for (const char* name : {"/old.db", "/old.db-wal", "/old.db-shm"}) {
    EXPECT_EQ(mode_of(dir.path() + name), 0600) << name;
  }
  ASSERT_TRUE(sqlite::keep_store_files_private(dir.path() + "/new.db").is_ok());
  EXPECT_EQ(mode_of(dir.path() + "/new.db"), 0600);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/new.db-wal"));
}

}  // namespace
}  // namespace opbase::host

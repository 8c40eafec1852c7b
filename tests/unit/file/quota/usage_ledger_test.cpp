// The file quota's ledger (quota/usage_ledger.hpp) on the reference store: charges pass up to the
// files limit and up to the bytes limit (a file that ends exactly at it fits), then the next is
// QUOTA_EXCEEDED with details quota ("files" or "bytes"), limit and used; a refused charge counts
// nothing, not even a first one; a limit of 0 counts without refusing; a release gives back bytes
// and files (bytes only for a failed upload) and writes nothing for a user with no count; users
// are counted apart; racing charges from many threads pass exactly the limit; the count's
// document has a key of its own, so a user whose key is already taken in the store is counted.
#include "quota/usage_ledger.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr char kAda[] = "ada";

class UsageLedgerTest : public ::testing::Test {
 protected:
  Status charge(int64_t bytes, const UsageLimits& limits, std::string_view user = kAda) {
    return ledger_.charge(kProject, user, bytes, limits);
  }
  int charges_that_pass(int tries, int64_t bytes, const UsageLimits& limits) {
    int passed = 0;
    for (int i = 0; i < tries; ++i) passed += charge(bytes, limits).is_ok() ? 1 : 0;
    return passed;
  }
  std::vector<json> documents() { return env_.documents(kProject, "file_usage"); }
  // The one count of `user`; an empty object when there is none.
  json usage_of(std::string_view user) {
    for (json& usage : documents()) {
      if (usage.value("_userkey", "") == user) return usage;
    }
    return json::object();
  }

  opbase::test::StoreBackedHost env_{"file"};
  DocumentStore store_{env_.host()};
  UsageLedger ledger_{store_};
};

TEST_F(UsageLedgerTest, ChargesPassUpToTheFilesLimitThenTheNextIsRefusedNamingFiles) {
  const UsageLimits three_files{0, 3};
  EXPECT_EQ(charges_that_pass(3, 10, three_files), 3);
  const Status refused = charge(10, three_files);
  ASSERT_EQ(refused.code(), code::kQuotaExceeded);
  EXPECT_EQ(refused.details()["quota"], "files");
  EXPECT_EQ(refused.details()["limit"], 3);
  EXPECT_EQ(refused.details()["used"], 3);
  EXPECT_EQ(charges_that_pass(5, 0, three_files), 0);  // an empty file is still a file
  EXPECT_EQ(usage_of(kAda)["files"], 3);
  EXPECT_EQ(usage_of(kAda)["bytes"], 30);
}

TEST_F(UsageLedgerTest, ChargesPassUpToTheBytesLimitThenTheNextIsRefusedNamingBytes) {
  const UsageLimits hundred_bytes{100, 0};
  EXPECT_TRUE(charge(60, hundred_bytes).is_ok());
  const Status refused = charge(41, hundred_bytes);
  ASSERT_EQ(refused.code(), code::kQuotaExceeded);
  EXPECT_EQ(refused.details()["quota"], "bytes");
  EXPECT_EQ(refused.details()["limit"], 100);
  EXPECT_EQ(refused.details()["used"], 60);
  EXPECT_TRUE(charge(40, hundred_bytes).is_ok());  // ends exactly at the limit: fits
  EXPECT_EQ(charge(1, hundred_bytes).details()["used"], 100);
  EXPECT_TRUE(charge(0, hundred_bytes).is_ok());  // takes no room
  EXPECT_EQ(usage_of(kAda)["bytes"], 100);
  EXPECT_EQ(usage_of(kAda)["files"], 3);
}

TEST_F(UsageLedgerTest, AFullFilesCountIsNamedBeforeAFullBytesCount) {
  const UsageLimits both{50, 1};
  EXPECT_TRUE(charge(50, both).is_ok());
  EXPECT_EQ(charge(10, both).details()["quota"], "files");
}

TEST_F(UsageLedgerTest, ARefusedChargeCountsNothing) {
  const UsageLimits limits{100, 2};
  EXPECT_TRUE(charge(70, limits).is_ok());
  EXPECT_EQ(charge(31, limits).code(), code::kQuotaExceeded);
  EXPECT_EQ(usage_of(kAda)["bytes"], 70);
  EXPECT_EQ(usage_of(kAda)["files"], 1);
  EXPECT_TRUE(charge(30, limits).is_ok());
  EXPECT_EQ(charge(0, limits).code(), code::kQuotaExceeded);
  EXPECT_EQ(usage_of(kAda)["bytes"], 100);
  EXPECT_EQ(usage_of(kAda)["files"], 2);
}

TEST_F(UsageLedgerTest, AFirstChargeThatCannotFitIsRefusedAndWritesNothing) {
  const Status refused = charge(101, UsageLimits{100, 5}, "bob");
  ASSERT_EQ(refused.code(), code::kQuotaExceeded);
  EXPECT_EQ(refused.details()["quota"], "bytes");
  EXPECT_EQ(refused.details()["used"], 0);
  EXPECT_TRUE(documents().empty());
}

TEST_F(UsageLedgerTest, LimitsOfZeroCountWithoutRefusing) {
  EXPECT_EQ(charges_that_pass(50, 1'000'000, UsageLimits{0, 0}), 50);
  EXPECT_EQ(usage_of(kAda)["files"], 50);
  EXPECT_EQ(usage_of(kAda)["bytes"], 50'000'000);
}

TEST_F(UsageLedgerTest, AReleaseGivesBackBytesAndFiles) {
  const UsageLimits limits{100, 2};
  EXPECT_TRUE(charge(60, limits).is_ok());
  EXPECT_TRUE(charge(40, limits).is_ok());
  EXPECT_EQ(charge(0, limits).code(), code::kQuotaExceeded);
  ledger_.release(kProject, kAda, 60, 1);
  EXPECT_EQ(usage_of(kAda)["bytes"], 40);
  EXPECT_EQ(usage_of(kAda)["files"], 1);
  EXPECT_TRUE(charge(60, limits).is_ok());
  EXPECT_EQ(charge(0, limits).code(), code::kQuotaExceeded);
}

TEST_F(UsageLedgerTest, AFailedUploadGivesBackItsBytesButStillCountsAsAFile) {
  const UsageLimits one_file{100, 1};
  EXPECT_TRUE(charge(100, one_file).is_ok());
  ledger_.release(kProject, kAda, 100, 0);
  const Status refused = charge(10, one_file);
  EXPECT_EQ(refused.details()["quota"], "files");
  EXPECT_EQ(usage_of(kAda)["bytes"], 0);
  EXPECT_EQ(usage_of(kAda)["files"], 1);
}

TEST_F(UsageLedgerTest, AReleaseForAUserWithNoCountWritesNothing) {
  ledger_.release(kProject, "nobody", 10, 1);
  EXPECT_TRUE(documents().empty());
}

TEST_F(UsageLedgerTest, UsersAreCountedApart) {
  const UsageLimits one_file{0, 1};
  EXPECT_TRUE(charge(10, one_file, "ada").is_ok());
  EXPECT_TRUE(charge(20, one_file, "bob").is_ok());
  EXPECT_EQ(charge(10, one_file, "ada").code(), code::kQuotaExceeded);
  EXPECT_EQ(charge(10, one_file, "bob").code(), code::kQuotaExceeded);
  ASSERT_EQ(documents().size(), 2u);
  EXPECT_EQ(usage_of("ada")["bytes"], 10);
  EXPECT_EQ(usage_of("bob")["bytes"], 20);
  ledger_.release(kProject, "ada", 10, 1);
  EXPECT_TRUE(charge(10, one_file, "ada").is_ok());
  EXPECT_EQ(charge(10, one_file, "bob").code(), code::kQuotaExceeded);
}

TEST_F(UsageLedgerTest, RacingChargesPassExactlyTheFilesLimit) {
  const UsageLimits forty_files{0, 40};
  std::atomic<int> passed{0}, exceeded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        const Status charged = charge(3, forty_files);
        if (charged.is_ok()) ++passed;
        if (charged.code() == code::kQuotaExceeded) ++exceeded;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(passed.load(), 40);
  EXPECT_EQ(exceeded.load(), 120);  // no release races them, so no RATE_LIMIT_EXCEEDED either
  ASSERT_EQ(documents().size(), 1u);
  EXPECT_EQ(usage_of(kAda)["files"], 40);
  EXPECT_EQ(usage_of(kAda)["bytes"], 120);
}

TEST_F(UsageLedgerTest, RacingChargesPassExactlyTheBytesLimit) {
  const UsageLimits thousand_bytes{1000, 0};
  std::atomic<int> passed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) passed += charge(25, thousand_bytes).is_ok() ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(passed.load(), 40);
  EXPECT_EQ(usage_of(kAda)["bytes"], 1000);
  EXPECT_EQ(usage_of(kAda)["files"], 40);
}

TEST_F(UsageLedgerTest, TheCountsKeyIsNotTheUsersOwn) {
  // Keys are unique across the store: another collection holds a document keyed by the user.
  const Status profile =
      store_.insert(kProject, {"profiles", {json{{"_key", kAda}, {"_userkey", kAda}}}});
  ASSERT_TRUE(profile.is_ok()) << profile.to_string();
  EXPECT_TRUE(charge(10, UsageLimits{100, 10}).is_ok());
  ASSERT_EQ(documents().size(), 1u);
  EXPECT_NE(documents().front()["_key"], kAda);
  EXPECT_EQ(documents().front()["_userkey"], kAda);
  EXPECT_EQ(documents().front()["files"], 1);
}

}  // namespace
}  // namespace opbase::file

// PasswordDictionary on Debian's cracklib dictionary (cracklib-runtime): passwords that meet
// the MEDIUM policy but are easy to guess are refused with cracklib's reason; unusual ones
// pass; "off" checks nothing; a missing dictionary refuses the setting.
#include "passwords/password_dictionary.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "passwords/password.hpp"

namespace opbase::auth {
namespace {

PasswordDictionary system_dictionary() {
  auto dictionary = PasswordDictionary::open("system");
  EXPECT_TRUE(dictionary.is_ok()) << dictionary.status().to_string();
  return dictionary.is_ok() ? *dictionary : PasswordDictionary();
}

TEST(PasswordDictionary, RefusesCommonPasswordsThatMeetThePolicyWithTheReason) {
  const PasswordDictionary dictionary = system_dictionary();
  ASSERT_TRUE(dictionary.enabled());
  for (const char* common : {"Password1", "Qwerty123", "Welcome1", "Letmein1", "Passw0rd"}) {
    ASSERT_TRUE(check_password(common, named_policy("MEDIUM")).is_ok()) << common;
    const Status refused = dictionary.check(common, "ann@example.com");
    EXPECT_EQ(refused.code(), code::kWeakPassword) << common;
    EXPECT_EQ(refused.details()["field"], "password");
    EXPECT_EQ(refused.details()["reason"], "it is based on a dictionary word") << common;
    EXPECT_EQ(refused.message(), "password is too easy to guess: it is based on a dictionary word");
  }
}

TEST(PasswordDictionary, RefusesRunsAndTheUsersOwnName) {
  const PasswordDictionary dictionary = system_dictionary();
  EXPECT_EQ(dictionary.check("Abcdefgh1", "ann@example.com").code(), code::kWeakPassword);
  EXPECT_TRUE(dictionary.check("Qvtrelmo7", "ann@example.com").is_ok());
  const Status own_name = dictionary.check("Qvtrelmo7", "qvtrelmo@example.com");
  EXPECT_EQ(own_name.code(), code::kWeakPassword);
  EXPECT_EQ(own_name.details()["reason"], "it is based on your username");
}

TEST(PasswordDictionary, LetsUnusualPasswordsThrough) {
  const PasswordDictionary dictionary = system_dictionary();
  for (const char* strong : {"Plum-Orchard-42", "Tulip-Harbor-9", "Xk9vTq2mLp"}) {
    EXPECT_TRUE(dictionary.check(strong, "ann@example.com").is_ok()) << strong;
  }
}

TEST(PasswordDictionary, OffChecksNothing) {
  auto off = PasswordDictionary::open("off");
  ASSERT_TRUE(off.is_ok());
  EXPECT_FALSE(off->enabled());
  EXPECT_TRUE(off->check("Password1", "ann@example.com").is_ok());
}

TEST(PasswordDictionary, AMissingDictionaryRefusesTheSettingNamingTheKey) {
  auto missing = PasswordDictionary::open("/nonexistent/cracklib_dict");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(missing.status().code(), code::kValidationError);
  EXPECT_EQ(missing.status().details()["key"], "auth.password_dictionary");
  EXPECT_NE(missing.status().message().find("/nonexistent/cracklib_dict.pwd"), std::string::npos);
}

TEST(PasswordDictionary, ChecksFromManyThreadsAtOnce) {
  const PasswordDictionary dictionary = system_dictionary();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        if (dictionary.check("Password1", "a@b.c").is_ok()) ++wrong;
        if (!dictionary.check("Plum-Orchard-42", "a@b.c").is_ok()) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace opbase::auth

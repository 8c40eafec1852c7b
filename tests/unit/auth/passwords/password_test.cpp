// argon2id hashing (PHC strings, verification, rehash detection, the unknown-user dummy) and
// password policies (named, from settings JSON, checked in Unicode code points). Hashes use tiny
// costs so the tests stay fast; one test runs the defaults.
#include "passwords/password.hpp"

#include <argon2.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr Argon2Params kFast{1, 256, 1};

std::string hash_ok(std::string_view password, const Argon2Params& params = kFast) {
  Result<std::string> encoded = hash_password(password, params);
  EXPECT_TRUE(encoded.is_ok()) << encoded.status().to_string();
  return encoded.is_ok() ? *encoded : std::string();
}

// ---- hashing

TEST(PasswordHash, VerifiesTheRightPasswordOnly) {
  const std::string encoded = hash_ok("correct horse battery staple");
  EXPECT_TRUE(verify_password("correct horse battery staple", encoded));
  EXPECT_FALSE(verify_password("correct horse battery stapl", encoded));
  EXPECT_FALSE(verify_password("Correct horse battery staple", encoded));
  EXPECT_FALSE(verify_password("", encoded));
}

TEST(PasswordHash, TakesEveryByteIntoAccount) {
  const std::string with_nul("pass\0word", 9);
  const std::string encoded = hash_ok(with_nul);
  EXPECT_TRUE(verify_password(with_nul, encoded));
  EXPECT_FALSE(verify_password("pass", encoded));
  const std::string unicode = hash_ok("pässwörd-密码-🔑");
  EXPECT_TRUE(verify_password("pässwörd-密码-🔑", unicode));
  EXPECT_FALSE(verify_password("passwörd-密码-🔑", unicode));
  EXPECT_TRUE(verify_password("", hash_ok("")));
}

TEST(PasswordHash, IsAPhcStringWithItsParamsAndARandomSalt) {
  const std::string a = hash_ok("pw", {3, 512, 2});
  EXPECT_EQ(a.rfind("$argon2id$v=19$m=512,t=3,p=2$", 0), 0u) << a;
  const std::string salt_and_hash = a.substr(a.rfind(",p=2$") + 5);
  const size_t dollar = salt_and_hash.find('$');
  EXPECT_EQ(dollar, 22u);                             // 16-byte salt
  EXPECT_EQ(salt_and_hash.size() - dollar - 1, 43u);  // 32-byte hash
  EXPECT_NE(hash_ok("pw", {3, 512, 2}), a);           // a fresh salt each time
  // The string carries its params: it verifies whatever is configured now.
  EXPECT_TRUE(verify_password("pw", a));
}

TEST(PasswordHash, RefusesParamsOutOfRange) {
  for (const Argon2Params& params :
       {Argon2Params{0, 256, 1}, Argon2Params{65, 256, 1}, Argon2Params{1, 256, 0},
        Argon2Params{1, 256, 65}, Argon2Params{1, 7, 1}, Argon2Params{1, 31, 4},
        Argon2Params{1, 4u * 1024 * 1024 + 1, 1}}) {
    const Result<std::string> encoded = hash_password("pw", params);
    ASSERT_FALSE(encoded.is_ok());
    EXPECT_EQ(encoded.status().code(), code::kValidationError);
  }
}

TEST(PasswordHash, RefusesOverlongPasswords) {
  const std::string longest(kMaxPasswordBytes, 'x');
  const std::string encoded = hash_ok(longest);
  EXPECT_TRUE(verify_password(longest, encoded));
  EXPECT_EQ(hash_password(longest + "x", kFast).status().code(), code::kValidationError);
  EXPECT_FALSE(verify_password(longest + "x", encoded));
}

TEST(PasswordHash, MalformedEncodingsAreFalseNotErrors) {
  const std::string good = hash_ok("pw");
  std::string changed_hash = good;
  changed_hash.back() = changed_hash.back() == 'A' ? 'B' : 'A';
  const std::string suffix = good.substr(good.find("$m="));
  for (const std::string& encoded :
       {std::string(), std::string("pw"), std::string("$argon2id$"), good.substr(0, 40),
        good.substr(0, good.size() - 1), changed_hash, good + "$", good + "x",
        "$argon2i" + good.substr(9), "$argon2d" + good.substr(9), "$argon2id$v=16" + suffix,
        "$argon2id" + suffix, " " + good, good + std::string("\0", 1) + "junk",
        // Costs no stored hash may have: refused before argon2 allocates gigabytes.
        "$argon2id$v=19$m=4294967295,t=1,p=1" + good.substr(good.find(",p=1$") + 4),
        "$argon2id$v=19$m=256,t=4294967295,p=1" + good.substr(good.find(",p=1$") + 4),
        "$argon2id$v=19$m=256,t=-1,p=1" + good.substr(good.find(",p=1$") + 4),
        "$argon2id$v=19$m=256,t=1,p=1,x=2" + good.substr(good.find(",p=1$") + 4)}) {
    EXPECT_FALSE(verify_password("pw", encoded)) << encoded;
  }
  EXPECT_TRUE(verify_password("pw", good));
}

TEST(PasswordHash, NeedsRehashWhenAnythingDiffers) {
  const std::string encoded = hash_ok("pw");
  EXPECT_FALSE(needs_rehash(encoded, kFast));
  EXPECT_TRUE(needs_rehash(encoded, {2, 256, 1}));
  EXPECT_TRUE(needs_rehash(encoded, {1, 512, 1}));
  EXPECT_TRUE(needs_rehash(encoded, {1, 256, 2}));
  EXPECT_TRUE(needs_rehash(encoded, Argon2Params{}));
  EXPECT_TRUE(needs_rehash("", kFast));
  EXPECT_TRUE(needs_rehash("$argon2i" + encoded.substr(9), kFast));
  EXPECT_TRUE(needs_rehash(encoded.substr(0, encoded.size() - 2), kFast));  // a shorter hash
}

TEST(PasswordHash, TheDummyNeverMatches) {
  EXPECT_FALSE(verify_dummy_password("", kFast));
  EXPECT_FALSE(verify_dummy_password("anything", kFast));
  EXPECT_FALSE(verify_dummy_password("anything", {2, 256, 1}));  // cached per params
  EXPECT_FALSE(verify_dummy_password("anything", kFast));
  EXPECT_FALSE(verify_dummy_password("anything", {0, 0, 0}));  // bad params: still false
}

TEST(PasswordHash, TheDefaultsAreOwaspsAndWork) {
  const Argon2Params defaults;
  EXPECT_EQ(defaults, (Argon2Params{2, 19456, 1}));
  const std::string encoded = hash_ok("correct horse battery staple", defaults);
  EXPECT_EQ(encoded.rfind("$argon2id$v=19$m=19456,t=2,p=1$", 0), 0u) << encoded;
  EXPECT_TRUE(verify_password("correct horse battery staple", encoded));
  EXPECT_FALSE(verify_password("wrong", encoded));
  EXPECT_FALSE(needs_rehash(encoded, defaults));
}

TEST(PasswordHash, VerifiesLibargon2sOwnEncodingAndLibargon2VerifiesOurs) {
  // Hashes stored by earlier versions came from argon2id_hash_encoded; they must keep working.
  const unsigned char salt[16] = {7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  char theirs[160];
  ASSERT_EQ(argon2id_hash_encoded(2, 512, 2, "pw", 2, salt, sizeof salt, 32, theirs, sizeof theirs),
            ARGON2_OK);
  EXPECT_TRUE(verify_password("pw", theirs));
  EXPECT_FALSE(verify_password("pW", theirs));
  EXPECT_FALSE(needs_rehash(theirs, {2, 512, 2}));

  const std::string ours = hash_ok("pw", {2, 512, 2});
  EXPECT_EQ(argon2id_verify(ours.c_str(), "pw", 2), ARGON2_OK) << ours;
  EXPECT_EQ(argon2id_verify(ours.c_str(), "pW", 2), ARGON2_VERIFY_MISMATCH);
}

TEST(PasswordHash, CostsAboveTheKeptSizeStillWork) {
  const std::string encoded = hash_ok("pw", {1, 65 * 1024, 1});  // 65 MiB: allocated per run
  EXPECT_TRUE(verify_password("pw", encoded));
  EXPECT_FALSE(verify_password("px", encoded));
}

TEST(PasswordHash, ManyThreadsAtOnceEachGetTheirOwnAnswer) {
  // More threads than cores: runs wait for a workspace, and no two share one.
  constexpr int kThreads = 8;
  std::vector<std::string> hashes;
  for (int i = 0; i < kThreads; ++i) hashes.push_back(hash_ok("pw" + std::to_string(i)));
  std::atomic<int> right{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int round = 0; round < 4; ++round) {
        const bool mine = verify_password("pw" + std::to_string(i), hashes[i]);
        const bool other = verify_password("pw" + std::to_string(i), hashes[(i + 1) % kThreads]);
        if (mine && !other) ++right;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(right.load(), kThreads * 4);
}

// ---- policies

TEST(PasswordPolicy, NamedPolicies) {
  EXPECT_EQ(to_json(named_policy("LOW")),
            json::parse(R"({"LENGTH":[6,64],"LOWERCASE":false,"NUMBERS":false,
                            "SYMBOLS":false,"UPPERCASE":false})"));
  EXPECT_EQ(to_json(named_policy("MEDIUM")),
            json::parse(R"({"LENGTH":[8,64],"LOWERCASE":true,"NUMBERS":true,
                            "SYMBOLS":false,"UPPERCASE":true})"));
  EXPECT_EQ(to_json(named_policy("HIGH")),
            json::parse(R"({"LENGTH":[12,64],"LOWERCASE":true,"NUMBERS":true,
                            "SYMBOLS":true,"UPPERCASE":true})"));
  EXPECT_EQ(named_policy("MEDIUM"), PasswordPolicy{});
  EXPECT_EQ(named_policy("medium"), PasswordPolicy{});  // anything else is the default
}

struct Case {
  const char* policy;
  std::string password;
  const char* missing;  // null when the password passes; else what the message must name
};

TEST(PasswordPolicy, Table) {
  const std::string e_acute = "\xc3\xa9";        // é: 1 code point, 2 bytes, a symbol
  const std::string emoji = "\xf0\x9f\x94\x91";  // 🔑: 1 code point, 4 bytes
  std::string accents;
  for (int i = 0; i < 64; ++i) accents += e_acute;
  const std::vector<Case> cases{
      {"LOW", "abcdef", nullptr},
      {"LOW", "abcde", "at least 6 characters"},
      {"LOW", "      ", nullptr},
      {"LOW", accents, nullptr},  // 64 code points, 128 bytes
      {"LOW", accents + "a", "at most 64 characters"},
      {"LOW", e_acute + e_acute + e_acute + "abc", nullptr},        // 6 code points, 9 bytes
      {"LOW", e_acute + e_acute + "abc", "at least 6 characters"},  // 5 code points, 7 bytes
      {"LOW", emoji + "abcde", nullptr},                            // an emoji is one code point
      {"MEDIUM", "Abcdefg1", nullptr},
      {"MEDIUM", "Abcdef1", "at least 8 characters"},
      {"MEDIUM", "abcdefg1", "an uppercase letter"},
      {"MEDIUM", "ABCDEFG1", "a lowercase letter"},
      {"MEDIUM", "Abcdefgh", "a number"},
      {"MEDIUM", "Abc1" + e_acute + e_acute + e_acute + e_acute, nullptr},
      {"MEDIUM", std::string(65, 'a') + "A1", "at most 64 characters"},
      {"MEDIUM", "abc", "at least 8 characters, an uppercase letter, a number"},
      {"HIGH", "Abcdefghij1!", nullptr},
      {"HIGH", "Abcdefghij1" + e_acute, nullptr},  // non-ASCII letters count as symbols
      {"HIGH", "Abcdefghij1 ", nullptr},
      {"HIGH", "Abcdefghij12", "a symbol"},
      {"HIGH", "Abcdefgh1!", "at least 12 characters"},
      {"HIGH", "",
       "at least 12 characters, a lowercase letter, an uppercase letter, a number, "
       "a symbol"},
  };
  for (const Case& c : cases) {
    const Status status = check_password(c.password, named_policy(c.policy));
    if (c.missing == nullptr) {
      EXPECT_TRUE(status.is_ok()) << c.policy << " " << c.password << ": " << status.to_string();
      continue;
    }
    ASSERT_FALSE(status.is_ok()) << c.policy << " " << c.password;
    EXPECT_EQ(status.code(), code::kWeakPassword);
    EXPECT_EQ(status.message(), std::string("password must have ") + c.missing)
        << c.policy << " " << c.password;
  }
}

TEST(PasswordPolicy, FailureDetailsNameTheFieldAndThePolicy) {
  const PasswordPolicy high = named_policy("HIGH");
  const Status status = check_password("Secret", high);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.details(), (json{{"field", "password"}, {"policy", to_json(high)}}));
  EXPECT_EQ(status.message().find("Secret"), std::string::npos);  // never the password
  EXPECT_EQ(status.code(), code::kWeakPassword);
  EXPECT_EQ(status.http_status(), 422);
}

TEST(PasswordPolicy, RefusesInvalidUtf8) {
  for (const std::string& bad :
       {std::string("Abcdefg1\xff"), std::string("Abcdefg1\xc3"), std::string("Abcdefg1\xc0\xaf"),
        std::string("Abcdefg1\xed\xa0\x80"), std::string("Abcdefg1\xf4\x90\x80\x80")}) {
    const Status status = check_password(bad, PasswordPolicy{});
    ASSERT_FALSE(status.is_ok());
    EXPECT_EQ(status.code(), code::kValidationError);
    EXPECT_EQ(status.message(), "password is not valid UTF-8");
  }
}

TEST(PasswordPolicy, FromSettingsJson) {
  const json custom = json::parse(
      R"({"LENGTH":[10,20],"LOWERCASE":false,"NUMBERS":true,"SYMBOLS":true,"UPPERCASE":false})");
  const Result<PasswordPolicy> policy = policy_from_json(custom);
  ASSERT_TRUE(policy.is_ok()) << policy.status().to_string();
  EXPECT_EQ(*policy, (PasswordPolicy{10, 20, false, false, true, true}));
  EXPECT_EQ(to_json(*policy), custom);
  EXPECT_TRUE(check_password("1234567890!", *policy).is_ok());
  EXPECT_EQ(check_password("1234567890a", *policy).message(), "password must have a symbol");
  for (const char* name : {"LOW", "MEDIUM", "HIGH"}) {
    EXPECT_EQ(*policy_from_json(name), named_policy(name));
    EXPECT_EQ(*policy_from_json(to_json(named_policy(name))), named_policy(name));
  }
  // Built in C++ the numbers are signed; parsed they are unsigned. Both work.
  EXPECT_TRUE(policy_from_json({{"LENGTH", {1, 1024}},
                                {"LOWERCASE", true},
                                {"NUMBERS", true},
                                {"SYMBOLS", true},
                                {"UPPERCASE", true}}));
}

TEST(PasswordPolicy, BadSettingsJsonIsAValidationError) {
  const std::string base = R"("LOWERCASE":true,"NUMBERS":true,"SYMBOLS":false,"UPPERCASE":true)";
  const std::vector<std::string> bad{
      "null",
      "[]",
      "7",
      "\"low\"",
      "\"EXTREME\"",
      "{}",
      R"({"LENGTH":[8,64],"LOWERCASE":true,"NUMBERS":true,"SYMBOLS":false})",  // missing key
      R"({"LENGTH":[8,64],"UPPER":true,)" + base + "}",                        // unknown key
      R"({"LENGTH":[8,64],"LOWERCASE":"yes","NUMBERS":true,"SYMBOLS":false,"UPPERCASE":true})",
      R"({"LENGTH":[8,64],"LOWERCASE":1,"NUMBERS":true,"SYMBOLS":false,"UPPERCASE":true})",
      R"({"LENGTH":[0,64],)" + base + "}",
      R"({"LENGTH":[9,8],)" + base + "}",
      R"({"LENGTH":[8,1025],)" + base + "}",
      R"({"LENGTH":[-1,8],)" + base + "}",
      R"({"LENGTH":[8],)" + base + "}",
      R"({"LENGTH":[8,64,1],)" + base + "}",
      R"({"LENGTH":[8.0,64],)" + base + "}",
      R"({"LENGTH":"8-64",)" + base + "}",
      R"({"LENGTH":{"min":8,"max":64},)" + base + "}",
      R"({"LENGTH":[8,18446744073709551615],)" + base + "}",
      "{" + base + "}"};
  for (const std::string& text : bad) {
    const Result<PasswordPolicy> policy = policy_from_json(json::parse(text));
    ASSERT_FALSE(policy.is_ok()) << text;
    EXPECT_EQ(policy.status().code(), code::kValidationError) << text;
    EXPECT_EQ(policy.status().details(), (json{{"field", "password_policy"}})) << text;
  }
  EXPECT_TRUE(policy_from_json(json::parse(R"({"LENGTH":[8,64],)" + base + "}")));
}

}  // namespace
}  // namespace opbase::auth

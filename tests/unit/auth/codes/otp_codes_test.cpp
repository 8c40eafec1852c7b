// One-time codes on the reference store with a fake clock (docs/api.md#one-time-codes): single use,
// five wrong tries void a code, ten minutes of life to the millisecond, a newer code voids the
// older, codes bound to their e-mail and intent, never stored in clear, and intent names.
#include "codes/otp_codes.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kSecret = "code-secret-of-p1";
constexpr std::string_view kEmail = "ada@example.com";

class OtpCodesTest : public ::testing::Test {
 protected:
  std::string issue(OtpIntent intent = OtpIntent::kSignin, std::string_view email = kEmail) {
    Result<std::string> code = codes_.issue(kProject, kSecret, email, intent, env_.now_ms());
    EXPECT_TRUE(code.is_ok()) << code.status().to_string();
    return code.is_ok() ? *code : std::string();
  }

  Status consume(std::string_view code, OtpIntent intent = OtpIntent::kSignin,
                 std::string_view email = kEmail) {
    return codes_.consume(kProject, kSecret, email, intent, code, env_.now_ms());
  }

  // A 6-digit code that is not `code`.
  static std::string other_than(const std::string& code) {
    return code == "000000" ? "000001" : "000000";
  }

  // Every document of `otp_codes` in `state`, as the store holds it.
  std::vector<json> documents(store::State state = store::State::kActive) {
    return env_.documents(kProject, "otp_codes", state);
  }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  OtpCodes codes_{store_};
};

TEST_F(OtpCodesTest, RightCodeWorksOnceThenIsInvalid) {
  const std::string code = issue();
  EXPECT_TRUE(consume(code).is_ok());
  const Status again = consume(code);
  EXPECT_EQ(again.code(), code::kOtpInvalid);
  EXPECT_EQ(again.message(), "the code is not valid");
}

TEST_F(OtpCodesTest, WrongCodeIsInvalidAndTheRightOneStillWorks) {
  const std::string code = issue();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(consume(other_than(code)).code(), code::kOtpInvalid);
  EXPECT_TRUE(consume(code).is_ok());
}

TEST_F(OtpCodesTest, FiveWrongTriesVoidTheCode) {
  const std::string code = issue();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(consume(other_than(code)).code(), code::kOtpInvalid);
  EXPECT_EQ(consume(code).code(), code::kOtpInvalid);
}

TEST_F(OtpCodesTest, MalformedCodesCountAsWrongTries) {
  const std::string code = issue();
  for (std::string_view bad : {"", "12345", "1234567", "12a456", " 12345", "１２３４５６"}) {
    EXPECT_EQ(consume(bad).code(), code::kOtpInvalid) << bad;
  }
  EXPECT_EQ(consume(code).code(), code::kOtpInvalid);  // six malformed guesses: void
}

TEST_F(OtpCodesTest, ValidUntilTenMinutesToTheMillisecond) {
  const std::string code = issue();
  env_.fake().advance_ms(599'999);
  EXPECT_TRUE(consume(code).is_ok());
}

TEST_F(OtpCodesTest, ExpiredAfterTenMinutes) {
  const std::string code = issue();
  env_.fake().advance_ms(600'000);
  const Status late = consume(code);
  EXPECT_EQ(late.code(), code::kOtpExpired);
  EXPECT_EQ(late.message(), "the code has expired");
  // A guess at an expired code does not learn that a code was issued.
  EXPECT_EQ(consume(other_than(code)).code(), code::kOtpInvalid);
}

TEST_F(OtpCodesTest, NewerCodeVoidsTheOlder) {
  std::string first = issue();
  std::string second = issue();
  while (second == first) second = issue();  // one chance in a million
  EXPECT_EQ(consume(first).code(), code::kOtpInvalid);
  EXPECT_TRUE(consume(second).is_ok());
}

TEST_F(OtpCodesTest, NewerCodeResetsWrongTries) {
  const std::string first = issue();
  for (int i = 0; i < 5; ++i) consume(other_than(first));
  const std::string second = issue();
  EXPECT_TRUE(consume(second).is_ok());
}

TEST_F(OtpCodesTest, CodeIsBoundToItsIntent) {
  const std::string code = issue(OtpIntent::kChangePassword);
  EXPECT_EQ(consume(code, OtpIntent::kSignin).code(), code::kOtpInvalid);
  EXPECT_TRUE(consume(code, OtpIntent::kChangePassword).is_ok());
}

TEST_F(OtpCodesTest, CodeIsBoundToItsEmail) {
  const std::string code = issue();
  EXPECT_EQ(consume(code, OtpIntent::kSignin, "bob@example.com").code(), code::kOtpInvalid);
  EXPECT_TRUE(consume(code).is_ok());
}

TEST_F(OtpCodesTest, NothingIssuedIsInvalid) {
  EXPECT_EQ(consume("123456").code(), code::kOtpInvalid);
}

// The compare-and-set: of several requests racing with the right code, exactly one spends it.
TEST_F(OtpCodesTest, ConcurrentConsumersSpendTheCodeOnce) {
  const std::string code = issue();
  std::atomic<int> accepted{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (consume(code).is_ok()) ++accepted;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(accepted.load(), 1);
}

TEST_F(OtpCodesTest, CodeAndEmailAreNeverStoredInClear) {
  const std::string code = issue();
  const std::vector<json> stored = documents();
  ASSERT_EQ(stored.size(), 1U);
  const std::string dump = stored.front().dump();
  EXPECT_EQ(dump.find(code), std::string::npos) << dump;
  EXPECT_EQ(dump.find(kEmail), std::string::npos) << dump;
  EXPECT_TRUE(stored.front().contains("code_hmac")) << dump;
}

TEST_F(OtpCodesTest, CodesAreSixDigitsAndVary) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string code = issue(OtpIntent::kSignin, "user" + std::to_string(i) + "@example.com");
    ASSERT_EQ(code.size(), 6U) << code;
    for (char c : code) EXPECT_TRUE(c >= '0' && c <= '9') << code;
    seen.insert(code);
  }
  EXPECT_GT(seen.size(), 1U);
}

TEST(OtpIntentTest, NamesRoundTrip) {
  for (OtpIntent intent : {OtpIntent::kSignin, OtpIntent::kInvite, OtpIntent::kChangePassword,
                           OtpIntent::kChangeEmail, OtpIntent::kChangeUsername}) {
    Result<OtpIntent> parsed = parse_intent(intent_name(intent));
    ASSERT_TRUE(parsed.is_ok()) << intent_name(intent);
    EXPECT_EQ(*parsed, intent);
  }
  EXPECT_EQ(intent_name(OtpIntent::kChangeEmail), "change_email");
}

TEST(OtpIntentTest, UnknownIntentIsAValidationError) {
  for (std::string_view bad : {"", "SIGNIN", "sign_in", "change_phone", "signin "}) {
    Result<OtpIntent> parsed = parse_intent(bad);
    ASSERT_FALSE(parsed.is_ok()) << bad;
    EXPECT_EQ(parsed.status().code(), code::kValidationError);
    EXPECT_EQ(parsed.status().details(), json({{"field", "intent"}}));
  }
}

}  // namespace
}  // namespace opbase::auth

// The captcha plugin's ALTCHA format against npm altcha-lib (tests/support/altcha_lib.mjs), an
// independent implementation: altcha-lib solves a challenge opbase makes and its verifySolution
// accepts the answer under the same key (and refuses it under another); a challenge and answer
// altcha-lib makes pass opbase's check (and fail under another key).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "altcha/altcha.hpp"
#include "altcha_lib.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

constexpr std::string_view kKey = "opbase-interop-key";

int64_t now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string reason_of(const Status& status) {
  return status.is_ok() ? "ok" : status.details().value("reason", status.code());
}

TEST(CaptchaInterop, AltchaLibSolvesAndAcceptsOpbasesChallenges) {
  const Challenge made =
      make_challenge(kKey, 31'337, 50'000, "a1b2c3d4e5f60718293a4b5c", now_s() + 600);
  int exit_code = -1;
  const std::string payload = test::altcha_lib({"solve", made.to_json().dump()}, &exit_code);
  ASSERT_EQ(exit_code, 0) << payload;
  auto solution = parse_solution(payload);
  ASSERT_TRUE(solution.is_ok()) << payload;
  EXPECT_EQ(solution->number, 31'337);
  EXPECT_EQ(reason_of(check_solution(*solution, kKey, now_s())), "ok");

  EXPECT_EQ(test::altcha_lib({"check", std::string(kKey), payload}, &exit_code), "true");
  EXPECT_EQ(test::altcha_lib({"check", "another key", payload}, &exit_code), "false");
}

TEST(CaptchaInterop, OpbaseAcceptsAltchaLibsChallengesAndAnswers) {
  int exit_code = -1;
  const int64_t expires = now_s() + 600;
  const std::string made =
      test::altcha_lib({"make", std::string(kKey), "2718", std::to_string(expires)}, &exit_code);
  ASSERT_EQ(exit_code, 0) << made;
  const json parsed = json::parse(made);
  auto solution = parse_solution(parsed["payload"].get<std::string>());
  ASSERT_TRUE(solution.is_ok()) << made;
  EXPECT_EQ(reason_of(check_solution(*solution, kKey, now_s())), "ok");
  EXPECT_EQ(reason_of(check_solution(*solution, "another key", now_s())), "signature");
  // altcha-lib ends its salts with '&' too, so its expiry is the one opbase reads.
  EXPECT_EQ(salt_expiry(solution->salt), expires) << solution->salt;
}

}  // namespace
}  // namespace opbase::captcha

// The auth plugin's ops where time matters or the bus is watched: AuthService on a FakeHost
// whose store.* runs on the memory driver, with the fake clock moved by the test (expired id
// tokens, codes and refresh tokens), mails captured from the mail.send service, and the user
// events read from the fake host's bus. The HTTP behaviour is tests/integration/auth_test.cpp.
#include "ops/auth_service.hpp"

#include <gtest/gtest.h>

#include <regex>

#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr const char* kProject = "p1";
constexpr const char* kPassword = "Plum-Orchard-42";

class AuthServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env_.fake().provide_service("mail.send",
                                [this](std::string_view, const json& mail) -> Result<json> {
                                  mails_.push_back(mail);
                                  return json{{"sent", true}};
                                });
    start_service();
  }

  // (Re)makes the service from the fake host's configuration, after set_config.
  void start_service() {
    auto config = AuthConfig::load(env_.host());
    ASSERT_TRUE(config.is_ok()) << config.status().to_string();
    service_ = std::make_unique<AuthService>(env_.host(), std::move(*config));
  }

  Result<Reply> refresh(const json& tokens) {
    return call(&AuthService::refresh_token,
                {{"refresh_token", tokens["refresh_token"]}, {"id_token", tokens["id_token"]}});
  }

  // Calls one op as the gateway would, anonymous.
  Result<Reply> call(Result<Reply> (AuthService::*op)(const Request&) const, json body) {
    const std::string raw = body.dump();
    const Request request{"", "", raw, body, kProject, "", "", "req-1", "127.0.0.1", ""};
    return ((*service_).*op)(request);
  }

  json signed_up_and_in(const std::string& email) {
    auto up = call(&AuthService::signup,
                   {{"email", email}, {"password", kPassword}, {"display_name", "Ann"}});
    EXPECT_TRUE(up.is_ok()) << up.status().to_string();
    auto in = call(&AuthService::signin,
                   {{"grant_type", "password"}, {"email", email}, {"password", kPassword}});
    EXPECT_TRUE(in.is_ok()) << in.status().to_string();
    return in.is_ok() ? in->data : json();
  }

  // The gateway's token check, with the input it sends.
  Result<std::string> verify(const json& token) {
    return service_->verify_token(kProject, json{{"token", token}}.dump());
  }

  std::string last_code() {
    std::smatch match;
    const std::string text = mails_.empty() ? "" : mails_.back().value("text", "");
    return std::regex_search(text, match, std::regex(R"(\b(\d{6})\b)")) ? match[1].str() : "";
  }

  test::StoreBackedHost env_{"auth"};
  std::vector<json> mails_;
  std::unique_ptr<AuthService> service_;
};

TEST_F(AuthServiceTest, AnIdTokenExpiresAfterItsTtlAndRefreshesAfterwards) {
  const json tokens = signed_up_and_in("ann@example.com");
  auto fresh = verify(tokens["id_token"]);
  ASSERT_TRUE(fresh.is_ok()) << fresh.status().to_string();
  EXPECT_EQ(json::parse(*fresh)["sub"], tokens["user_profile"]["_userkey"]);

  env_.fake().advance_ms(3600 * 1000);
  auto expired = verify(tokens["id_token"]);
  EXPECT_EQ(expired.status().code(), code::kTokenExpired);
  EXPECT_EQ(call(&AuthService::verify_id_token, {{"id_token", tokens["id_token"]}}).status().code(),
            code::kTokenExpired);

  auto refreshed = call(&AuthService::refresh_token, {{"refresh_token", tokens["refresh_token"]},
                                                      {"id_token", tokens["id_token"]}});
  ASSERT_TRUE(refreshed.is_ok()) << refreshed.status().to_string();
  EXPECT_TRUE(verify(refreshed->data["id_token"]).is_ok());
}

TEST_F(AuthServiceTest, TheTokenCheckReadsAnySpellingOfItsInputAndNothingElse) {
  const json tokens = signed_up_and_in("amy@example.com");
  const std::string token = tokens["id_token"];
  // The gateway's compact form is read without a parser; other spellings are parsed.
  auto spaced = service_->verify_token(kProject, "{ \"token\" : \"" + token + "\" }");
  ASSERT_TRUE(spaced.is_ok()) << spaced.status().to_string();
  EXPECT_EQ(json::parse(*spaced)["sub"], tokens["user_profile"]["_userkey"]);
  for (const std::string input : {"", "not json", "[]", R"({"token":1})", R"({"tok":"x"})",
                                  R"({"token":"a\"b"})", R"({"token":""})"}) {
    EXPECT_EQ(service_->verify_token(kProject, input).status().code(), code::kTokenInvalid)
        << input;
  }
}

TEST_F(AuthServiceTest, ATokenCheckedInOneProjectIsNotTakenInAnother) {
  const json tokens = signed_up_and_in("abe@example.com");
  ASSERT_TRUE(verify(tokens["id_token"]).is_ok());  // now in the verified-token cache
  const std::string input = json{{"token", tokens["id_token"]}}.dump();
  EXPECT_EQ(service_->verify_token("p2", input).status().code(), code::kTokenInvalid);
}

TEST_F(AuthServiceTest, ARefreshTokenExpiresThirtyDaysAfterItsLastUse) {
  const json tokens = signed_up_and_in("ben@example.com");
  env_.fake().advance_ms(int64_t{30} * 86'400 * 1000);
  auto late = call(&AuthService::refresh_token,
                   {{"refresh_token", tokens["refresh_token"]}, {"id_token", tokens["id_token"]}});
  EXPECT_EQ(late.status().code(), code::kTokenExpired);
}

TEST_F(AuthServiceTest, ACodeExpiresAfterTenMinutes) {
  signed_up_and_in("cat@example.com");
  ASSERT_TRUE(
      call(&AuthService::send_otp, {{"email", "cat@example.com"}, {"intent", "signin"}}).is_ok());
  const std::string code = last_code();
  ASSERT_EQ(code.size(), 6u);
  env_.fake().advance_ms(10 * 60 * 1000);
  auto late = call(&AuthService::signin,
                   {{"grant_type", "otp"}, {"email", "cat@example.com"}, {"otp", code}});
  EXPECT_EQ(late.status().code(), code::kOtpExpired);
}

TEST_F(AuthServiceTest, SignupSigninAndSignoutRaiseUserEvents) {
  const json tokens = signed_up_and_in("dan@example.com");
  ASSERT_TRUE(call(&AuthService::signout, {{"id_token", tokens["id_token"]}}).is_ok());
  const json key = {{"_key", tokens["user_profile"]["_userkey"]}};
  std::vector<std::string> types;
  for (const auto& event : env_.fake().published()) {
    types.push_back(event.type);
    EXPECT_EQ(event.payload, key) << event.type;
    EXPECT_EQ(event.project_id, kProject);
  }
  EXPECT_EQ(types, (std::vector<std::string>{"user.signedup", "user.signedin", "user.signedout"}));
}

TEST_F(AuthServiceTest, NewKeysSignAfterRotationAndTheRetiredKeyStaysPublished) {
  const json tokens = signed_up_and_in("eve@example.com");
  const auto kid_of = [](const std::string& token) {
    return token.substr(0, token.find('.'));  // the header holds the kid
  };
  env_.fake().advance_ms(int64_t{91} * 86'400 * 1000);
  auto again =
      call(&AuthService::signin,
           {{"grant_type", "password"}, {"email", "eve@example.com"}, {"password", kPassword}});
  ASSERT_TRUE(again.is_ok()) << again.status().to_string();
  EXPECT_NE(kid_of(again->data["id_token"]), kid_of(tokens["id_token"]));
  auto jwks = service_->jwks(kProject, json::object());
  ASSERT_TRUE(jwks.is_ok());
  EXPECT_EQ((*jwks)["keys"].size(), 2u);  // the retired key is still published
}

// ---- the refresh grace ---------------------------------------------------------------------

TEST_F(AuthServiceTest, ARefreshTokenPresentedAgainWithinTheGraceAnswersTheSamePair) {
  const json tokens = signed_up_and_in("fay@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok()) << first.status().to_string();
  env_.fake().advance_ms(9'000);  // the default grace is 10 s
  auto second = refresh(tokens);
  ASSERT_TRUE(second.is_ok()) << second.status().to_string();
  EXPECT_EQ(second->data["refresh_token"], first->data["refresh_token"]);
  EXPECT_EQ(second->data["id_token"], first->data["id_token"]);
  // The pair both tabs hold goes on working.
  auto next = refresh(first->data);
  ASSERT_TRUE(next.is_ok()) << next.status().to_string();
  EXPECT_TRUE(verify(next->data["id_token"]).is_ok());
}

TEST_F(AuthServiceTest, AfterTheGraceAReusedRefreshTokenEndsTheSession) {
  const json tokens = signed_up_and_in("gil@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok());
  env_.fake().advance_ms(10'001);
  EXPECT_EQ(refresh(tokens).status().code(), code::kTokenInvalid);
  EXPECT_EQ(refresh(first->data).status().code(), code::kTokenInvalid);
  EXPECT_EQ(verify(first->data["id_token"]).status().code(), code::kTokenInvalid);
}

TEST_F(AuthServiceTest, OnlyTheTokenJustReplacedHasAGrace) {
  const json tokens = signed_up_and_in("hal@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok());
  auto second = refresh(first->data);
  ASSERT_TRUE(second.is_ok());
  // Two replacements ago: reuse, within the grace or not.
  EXPECT_EQ(refresh(tokens).status().code(), code::kTokenInvalid);
  EXPECT_EQ(verify(second->data["id_token"]).status().code(), code::kTokenInvalid);
}

TEST_F(AuthServiceTest, AGraceOfZeroEndsTheSessionOnTheFirstReuse) {
  env_.fake().set_config("auth.refresh_grace_s", "0");
  start_service();
  const json tokens = signed_up_and_in("ida@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok());
  EXPECT_EQ(refresh(tokens).status().code(), code::kTokenInvalid);
  EXPECT_EQ(verify(first->data["id_token"]).status().code(), code::kTokenInvalid);
}

TEST_F(AuthServiceTest, TheStoreKeepsNoRefreshTokenInClear) {
  const json tokens = signed_up_and_in("jon@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok());
  DocumentStore store(env_.host());
  store::FindRequest find;
  find.collection = "sessions";
  find.scope = store::Scope::everyone();
  auto sessions = store.find(kProject, find);
  ASSERT_TRUE(sessions.is_ok());
  ASSERT_FALSE(sessions->documents.empty());
  for (const json& session : sessions->documents) {
    const std::string text = session.dump();
    EXPECT_EQ(text.find(tokens["refresh_token"].get<std::string>()), std::string::npos);
    EXPECT_EQ(text.find(first->data["refresh_token"].get<std::string>()), std::string::npos);
    EXPECT_EQ(text.find(first->data["id_token"].get<std::string>()), std::string::npos);
  }
}

TEST_F(AuthServiceTest, UpdateProfileWithATokenJustReplacedChangesNothingAndKeepsTheSession) {
  const json tokens = signed_up_and_in("kim@example.com");
  auto first = refresh(tokens);
  ASSERT_TRUE(first.is_ok());
  auto late = call(&AuthService::update_profile, {{"id_token", first->data["id_token"]},
                                                  {"refresh_token", tokens["refresh_token"]},
                                                  {"data", {{"display_name", "Late"}}}});
  EXPECT_EQ(late.status().code(), code::kTokenInvalid);
  auto profile = call(&AuthService::verify_id_token, {{"id_token", first->data["id_token"]}});
  ASSERT_TRUE(profile.is_ok()) << profile.status().to_string();
  EXPECT_EQ(profile->data["display_name"], "Ann");
}

// send_otp for an unknown address makes the same writes as for a known one: a code and a mail,
// the mail marked as a decoy the host drops unsent.
TEST_F(AuthServiceTest, SendOtpForAnUnknownAddressHandsTheHostADecoy) {
  signed_up_and_in("ned@example.com");
  const size_t before = mails_.size();
  ASSERT_TRUE(
      call(&AuthService::send_otp, {{"email", "ned@example.com"}, {"intent", "signin"}}).is_ok());
  ASSERT_TRUE(call(&AuthService::send_otp, {{"email", "nobody@example.com"}, {"intent", "signin"}})
                  .is_ok());
  ASSERT_EQ(mails_.size(), before + 2);
  EXPECT_FALSE(mails_[before].value("discard", false));
  EXPECT_EQ(mails_[before + 1].value("discard", false), true);
  EXPECT_EQ(mails_[before + 1]["to"], "nobody@example.com");
  // The decoy's code signs nobody in.
  const std::string code = last_code();
  EXPECT_EQ(call(&AuthService::signin,
                 {{"grant_type", "otp"}, {"email", "nobody@example.com"}, {"otp", code}})
                .status()
                .code(),
            code::kOtpInvalid);
}

// ---- easy-to-guess passwords ---------------------------------------------------------------

TEST_F(AuthServiceTest, ACommonPasswordIsRefusedOnSignupAndPasswordChangeWithTheReason) {
  auto up = call(&AuthService::signup,
                 {{"email", "lea@example.com"}, {"password", "Password1"}, {"display_name", "L"}});
  ASSERT_EQ(up.status().code(), code::kWeakPassword);
  EXPECT_EQ(up.status().details()["reason"], "it is based on a dictionary word");
  EXPECT_EQ(up.status().details()["field"], "password");
  EXPECT_EQ(up.status().details()["policy"]["LENGTH"], json({8, 64}));

  signed_up_and_in("lea@example.com");
  ASSERT_TRUE(
      call(&AuthService::send_otp, {{"email", "lea@example.com"}, {"intent", "change_password"}})
          .is_ok());
  auto change = call(&AuthService::update_account, {{"email", "lea@example.com"},
                                                    {"otp", last_code()},
                                                    {"intent", "change_password"},
                                                    {"new_password", "Welcome1"}});
  ASSERT_EQ(change.status().code(), code::kWeakPassword);
  EXPECT_EQ(change.status().details()["field"], "new_password");
  EXPECT_EQ(change.status().details()["reason"], "it is based on a dictionary word");
}

TEST_F(AuthServiceTest, TheDictionaryCanBeSwitchedOff) {
  env_.fake().set_config("auth.password_dictionary", "off");
  start_service();
  EXPECT_TRUE(call(&AuthService::signup,
                   {{"email", "max@example.com"}, {"password", "Password1"}, {"display_name", "M"}})
                  .is_ok());
}

}  // namespace
}  // namespace opbase::auth

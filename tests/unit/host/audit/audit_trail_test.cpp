// The audit log's rules (host/audit/audit_trail.hpp): which admin ops are written (all but the
// reads) and what of a request an entry keeps (every field but op, secrets redacted at any
// depth by meaning: the strings of a field named by a secret word, a URL's userinfo, query
// values and fragment; the whole cut to 4 KiB).
#include "audit/audit_trail.hpp"

#include <gtest/gtest.h>

#include <string>

#include "audit/param_redaction.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

TEST(AuditTrail, EveryAdminOpButTheReadsIsWritten) {
  for (const char* change : {"auth.user.update", "auth.user.signout", "webhooks.endpoint.create",
                             "webhooks.message.resend", "collection.index.add", "probe.admin"}) {
    EXPECT_TRUE(AuditTrail::records(change)) << change;
  }
  for (const char* read : {"auth.user.list", "auth.user.get", "webhooks.endpoint.list",
                           "collection.explain", "collection.index.list", "file.usage"}) {
    EXPECT_FALSE(AuditTrail::records(read)) << read;
  }
}

TEST(AuditTrail, SecretsAreRedactedAtAnyDepth) {
  const json params = audited_params(
      R"({"op":"x.y","password":"p","data":{"secret":"s","New_Password":"q","list":[{"id_token":"t"}]},
          "otp":"123456","api_key":"ak_1","_key":"k","_userkey":"u","name":"n"})");
  EXPECT_EQ(params, json::parse(R"({"password":"[redacted]","data":{"secret":"[redacted]",
      "New_Password":"[redacted]","list":[{"id_token":"[redacted]"}]},"otp":"[redacted]",
      "api_key":"[redacted]","_key":"k","_userkey":"u","name":"n"})"));
}

TEST(AuditTrail, ANumberIsNeverASecret) {
  const json params = audited_params(
      R"({"op":"auth.settings.update","id_token_ttl_s":3600,"refresh_token_ttl_s":2592000,
          "otp":{"length":6,"ttl_s":600,"enabled":true,"sender":"no-reply"},"max_tokens":null})");
  EXPECT_EQ(params, json::parse(R"({"id_token_ttl_s":3600,"refresh_token_ttl_s":2592000,
      "otp":{"length":6,"ttl_s":600,"enabled":true,"sender":"[redacted]"},"max_tokens":null})"));
  // The strings in a secret field are redacted at any depth, numbers kept.
  EXPECT_EQ(audited_params(R"({"tokens":["a",{"v":"b","n":2}],"id_token_ttl_s":"3600"})"),
            json::parse(R"({"tokens":["[redacted]",{"v":"[redacted]","n":2}],
                            "id_token_ttl_s":"[redacted]"})"));
}

TEST(AuditTrail, SecretWordsAreWholeWordParts) {
  for (const char* name :
       {"password",       "New_Password",   "newPassword", "id_token", "idToken", "IDToken",
        "api_key",        "apiKey",         "api-key",     "APIKEY",   "apikey",  "api_keys",
        "webhook_secret", "secrets",        "otp",         "otp_code", "code",    "token2",
        "x.token",        "refresh tokens", "PASSWORD"}) {
    EXPECT_TRUE(is_secret_name(name)) << name;
  }
  for (const char* name : {"_key", "_userkey", "key", "name", "tokenizer", "passwordless", "encode",
                           "codec", "apikeyring", "api", "keys", "mytoken", ""}) {
    EXPECT_FALSE(is_secret_name(name)) << name;
  }
}

TEST(AuditTrail, URLsKeepWhereTheyPointAndLoseTheirCredentials) {
  EXPECT_EQ(redacted_url("https://hooks.example.com/in?token=abc"),
            "https://hooks.example.com/in?token=[redacted]");
  EXPECT_EQ(redacted_url("http://user:pw@hooks.example.com:8443/a/b?x=1&sig=zz&flag#frag"),
            "http://[redacted]@hooks.example.com:8443/a/b?x=[redacted]&sig=[redacted]&[redacted]"
            "#[redacted]");
  EXPECT_EQ(redacted_url("HTTPS://Example.com"), "HTTPS://Example.com");
  EXPECT_EQ(redacted_url("https://example.com:9000?k=v"), "https://example.com:9000?k=[redacted]");
  EXPECT_EQ(redacted_url("https://[::1]:8080/p?"), "https://[::1]:8080/p?");
  EXPECT_EQ(redacted_url("https://a@b@example.com/"), "https://[redacted]@example.com/");
  for (const char* not_url :
       {"example.com/?token=x", "ftp://example.com/?token=x", "https://", "https:///path?x=1",
        "https://:80/", "see https://x.com/?t=1", "https://x.com/a b?t=1", "mailto:a@b.c", ""}) {
    EXPECT_EQ(redacted_url(not_url), std::nullopt) << not_url;
  }
}

TEST(AuditTrail, URLsAreRedactedWhereverTheyAre) {
  const json params = audited_params(
      R"({"op":"webhooks.endpoint.create","url":"https://hooks.example.com/in?token=abc",
          "data":{"targets":["http://u:p@a.example/x?k=1",
                             "https://b.example/y"]},"description":"the https://x?t=1 hook",
          "password":"https://p.example/?q=1"})");
  EXPECT_EQ(params, json::parse(R"({"url":"https://hooks.example.com/in?token=[redacted]",
      "data":{"targets":["http://[redacted]@a.example/x?k=[redacted]","https://b.example/y"]},
      "description":"the https://x?t=1 hook","password":"[redacted]"})"));
}

TEST(AuditTrail, LargeOrUnreadableBodiesAreSummed) {
  const json large = audited_params(json{{"op", "x.y"}, {"blob", std::string(5000, 'a')}}.dump());
  EXPECT_EQ(large["truncated"], true);
  EXPECT_GT(large["bytes"].get<int64_t>(), 4096);
  EXPECT_EQ(audited_params("not json"), json::object());
  EXPECT_EQ(audited_params("[1,2]"), json::object());
}

}  // namespace
}  // namespace opbase::host

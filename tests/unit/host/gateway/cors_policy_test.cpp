// CorsPolicy: server.cors_origins read into "*", "off" or a list, and the CORS headers each
// answers for an origin.
#include "gateway/cors_policy.hpp"

#include <gtest/gtest.h>

#include <string>

#include "http/request_head.hpp"

namespace opbase::host {
namespace {

CorsPolicy policy(const std::string& origins) {
  auto read = CorsPolicy::from(Config::defaults_with({{"server.cors_origins", origins}}));
  EXPECT_TRUE(read.is_ok()) << read.status().message();
  return read.is_ok() ? *read : CorsPolicy::any_origin();
}

std::string refusal(const std::string& origins) {
  auto read = CorsPolicy::from(Config::defaults_with({{"server.cors_origins", origins}}));
  EXPECT_FALSE(read.is_ok()) << origins << " was taken";
  return read.is_ok() ? "" : read.status().message();
}

// The value of `name` among `headers`, "" when absent.
std::string value_of(const CorsPolicy::Headers& headers, const std::string& name) {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return "";
}

CorsPolicy::Headers response_headers(const CorsPolicy& cors, const std::string& origin) {
  CorsPolicy::Headers headers;
  cors.add_headers(origin, headers);
  return headers;
}

http::RequestHead head_of(const std::string& text) {
  return http::parse_request_head(text).head.value_or(http::RequestHead{});
}

TEST(CorsPolicy, TheDefaultAnswersEveryOriginWithAStar) {
  auto cors = CorsPolicy::from(Config::defaults_with());
  ASSERT_TRUE(cors.is_ok());
  const auto headers = response_headers(*cors, "https://app.example.com");
  EXPECT_EQ(value_of(headers, "Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(value_of(headers, "Access-Control-Expose-Headers"), "X-Request-Id, Retry-After");
  EXPECT_EQ(value_of(headers, "Vary"), "") << "one answer for every origin";
  EXPECT_TRUE(response_headers(*cors, "").empty()) << "no Origin, no CORS headers";
}

TEST(CorsPolicy, AListEchoesOnlyItsOriginsAndVariesByOrigin) {
  const CorsPolicy cors = policy(" https://App.example.com/ , http://localhost:5173");
  auto allowed = response_headers(cors, "https://app.example.com");
  EXPECT_EQ(value_of(allowed, "Access-Control-Allow-Origin"), "https://app.example.com");
  EXPECT_EQ(value_of(allowed, "Vary"), "Origin");
  allowed = response_headers(cors, "http://localhost:5173");
  EXPECT_EQ(value_of(allowed, "Access-Control-Allow-Origin"), "http://localhost:5173");

  for (const std::string other : {"http://app.example.com", "https://app.example.com:8443",
                                  "http://localhost:5174", "null", ""}) {
    const auto refused = response_headers(cors, other);
    EXPECT_EQ(value_of(refused, "Access-Control-Allow-Origin"), "") << other;
    EXPECT_EQ(value_of(refused, "Vary"), "Origin") << other << ": caches must not reuse it";
  }
}

TEST(CorsPolicy, OffSendsNothing) {
  const CorsPolicy cors = policy("off");
  EXPECT_TRUE(response_headers(cors, "https://app.example.com").empty());
  EXPECT_TRUE(cors.preflight_headers("https://app.example.com", "POST").empty());
  CorsPolicy::Headers headers;
  cors.add_headers_without_request(headers);
  EXPECT_TRUE(headers.empty());
}

TEST(CorsPolicy, ARefusalBeforeTheHeadIsReadableOnlyUnderTheStar) {
  CorsPolicy::Headers any;
  CorsPolicy::any_origin().add_headers_without_request(any);
  EXPECT_EQ(value_of(any, "Access-Control-Allow-Origin"), "*");
  CorsPolicy::Headers listed;
  policy("https://app.example.com").add_headers_without_request(listed);
  EXPECT_TRUE(listed.empty()) << "the origin is unknown, so none may be echoed";
}

TEST(CorsPolicy, APreflightNamesMethodsHeadersAndHowLongToKeepIt) {
  const CorsPolicy cors = policy("https://app.example.com");
  const auto headers = cors.preflight_headers("https://app.example.com", "POST, OPTIONS");
  EXPECT_EQ(value_of(headers, "Access-Control-Allow-Origin"), "https://app.example.com");
  EXPECT_EQ(value_of(headers, "Access-Control-Allow-Methods"), "POST, OPTIONS");
  const std::string allowed = value_of(headers, "Access-Control-Allow-Headers");
  for (const char* name : {"Content-Type", "X-API-KEY", "Authorization"}) {
    EXPECT_NE(allowed.find(name), std::string::npos) << name;
  }
  EXPECT_EQ(allowed.find("X-Admin-Key"), std::string::npos) << "admin keys stay on servers";
  EXPECT_EQ(value_of(headers, "Access-Control-Max-Age"), "7200");
  EXPECT_TRUE(cors.preflight_headers("https://evil.example.com", "POST").empty());
}

TEST(CorsPolicy, APreflightIsAnOptionsRequestNamingAMethod) {
  EXPECT_TRUE(CorsPolicy::is_preflight(
      head_of("OPTIONS /api/k HTTP/1.1\r\nHost: a\r\nOrigin: https://a.example\r\n"
              "Access-Control-Request-Method: POST\r\n\r\n")));
  EXPECT_FALSE(CorsPolicy::is_preflight(head_of("OPTIONS /api/k HTTP/1.1\r\nHost: a\r\n\r\n")));
  EXPECT_FALSE(CorsPolicy::is_preflight(
      head_of("POST /api/k HTTP/1.1\r\nHost: a\r\nAccess-Control-Request-Method: POST\r\n"
              "Content-Length: 0\r\n\r\n")));
}

TEST(CorsPolicy, RefusesWhatIsNoOrigin) {
  for (const std::string bad : {"app.example.com", "https://app.example.com/path", "ftp://a.b",
                                "https://", "https://*.example.com", ",", ""}) {
    EXPECT_NE(refusal(bad).find("server.cors_origins"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace opbase::host

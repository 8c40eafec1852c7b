// The response envelopes (docs/api.md#envelopes).
#include "gateway/envelope.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::host {
namespace {

using nlohmann::json;

json parse(const std::string& text) {
  auto parsed = json::parse(text, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << "not JSON: " << text;
  return parsed;
}

TEST(SuccessEnvelope, DataOnly) {
  EXPECT_EQ(success_envelope(R"({"pong":true})", std::nullopt, std::nullopt),
            R"({"data":{"pong":true}})");
  EXPECT_EQ(parse(success_envelope("[1,2,3]", std::nullopt, std::nullopt)),
            json({{"data", {1, 2, 3}}}));
  EXPECT_EQ(success_envelope("\"text\"", std::nullopt, std::nullopt), R"({"data":"text"})");
  EXPECT_EQ(success_envelope("null", std::nullopt, std::nullopt), R"({"data":null})");
  // No data written at all is null, never an empty value.
  EXPECT_EQ(success_envelope("", std::nullopt, std::nullopt), R"({"data":null})");
}

TEST(SuccessEnvelope, WithMeta) {
  const json envelope = parse(
      success_envelope(R"([{"_key":"a"}])", std::string(R"({"total":1,"page":1})"), std::nullopt));
  EXPECT_EQ(envelope, json::parse(R"({"data":[{"_key":"a"}],"meta":{"total":1,"page":1}})"));
  EXPECT_FALSE(envelope.contains("error"));
}

TEST(SuccessEnvelope, TopLevelFieldsBesideData) {
  const json envelope = parse(success_envelope(
      R"({"email":"a@b.c"})", std::nullopt, std::string(R"({"email":"a@b.c","roles":["user"]})")));
  EXPECT_EQ(envelope,
            json::parse(R"({"data":{"email":"a@b.c"},"email":"a@b.c","roles":["user"]})"));
}

TEST(SuccessEnvelope, TopLevelCannotReplaceDataMetaOrError) {
  const std::string text = success_envelope(
      R"({"real":1})", std::string(R"({"m":1})"),
      std::string(R"({"data":"fake","meta":"fake","error":{"code":"X"},"extra":[1]})"));
  const json envelope = parse(text);
  EXPECT_EQ(envelope, json::parse(R"({"data":{"real":1},"meta":{"m":1},"extra":[1]})"));
  // Each key appears once in the text, so no parser can pick up a second "data".
  EXPECT_EQ(text.find("\"data\""), text.rfind("\"data\""));
  EXPECT_EQ(text.find("fake"), std::string::npos);
}

TEST(SuccessEnvelope, TopLevelThatIsNotAnObjectAddsNothing) {
  EXPECT_EQ(success_envelope("1", std::nullopt, std::string("[1,2]")), R"({"data":1})");
  EXPECT_EQ(success_envelope("1", std::nullopt, std::string("not json")), R"({"data":1})");
  EXPECT_EQ(success_envelope("1", std::nullopt, std::string("{}")), R"({"data":1})");
}

TEST(ErrorEnvelope, WithoutDetails) {
  const Status status = Status::validation("field 'name' must be a string");
  EXPECT_EQ(
      parse(error_envelope(status, "req-1")),
      json::parse(
          R"({"error":{"code":"VALIDATION_ERROR","message":"field 'name' must be a string"}})"));
}

TEST(ErrorEnvelope, WithDetails) {
  const Status status(code::kRateLimitExceeded, "slow down", {{"retry_after", 30}});
  const json envelope = parse(error_envelope(status, "req-2"));
  EXPECT_EQ(envelope, json::parse(R"({"error":{"code":"RATE_LIMIT_EXCEEDED","message":"slow down",
                                     "details":{"retry_after":30}}})"));
  // Only INTERNAL_ERROR carries the request id.
  EXPECT_FALSE(envelope["error"]["details"].contains("request_id"));
}

TEST(ErrorEnvelope, EmptyOrNonObjectDetailsAreLeftOut) {
  EXPECT_FALSE(
      parse(error_envelope(Status(code::kForbidden, "no", json::object()), ""))["error"].contains(
          "details"));
  EXPECT_FALSE(
      parse(error_envelope(Status(code::kForbidden, "no", json::array({1})), ""))["error"].contains(
          "details"));
  EXPECT_FALSE(parse(error_envelope(Status(code::kForbidden, "no", "text"), ""))["error"].contains(
      "details"));
}

TEST(ErrorEnvelope, InternalErrorCarriesTheRequestId) {
  const json plain = parse(error_envelope(Status::internal("internal error"), "req-42"));
  EXPECT_EQ(plain, json::parse(R"({"error":{"code":"INTERNAL_ERROR","message":"internal error",
                                  "details":{"request_id":"req-42"}}})"));

  const json merged = parse(error_envelope(
      Status(code::kInternalError, "internal error", {{"component", "store"}}), "req-43"));
  EXPECT_EQ(merged["error"]["details"], json({{"component", "store"}, {"request_id", "req-43"}}));

  // Without a request id there is nothing to add.
  EXPECT_FALSE(parse(error_envelope(Status::internal("x"), ""))["error"].contains("details"));
}

TEST(ErrorEnvelope, InvalidUtf8DoesNotThrow) {
  const Status status = Status::validation("unknown collection 'a\xff\xfe b'",
                                           {{"collection", "a\xc3"}, {"ok", "fine"}});
  std::string text;
  ASSERT_NO_THROW(text = error_envelope(status, "req-utf8"));
  const json envelope = parse(text);
  ASSERT_TRUE(envelope.is_object());
  const std::string message = envelope["error"]["message"];
  // Each bad byte becomes U+FFFD; the valid text around it survives.
  EXPECT_EQ(message.rfind("unknown collection 'a", 0), 0u) << message;
  EXPECT_NE(message.find("\xEF\xBF\xBD"), std::string::npos) << message;
  EXPECT_NE(message.find(" b'"), std::string::npos) << message;
  EXPECT_EQ(envelope["error"]["details"]["ok"], "fine");
  EXPECT_EQ(envelope["error"]["code"], "VALIDATION_ERROR");
}

TEST(ErrorEnvelope, InvalidUtf8InRequestIdDoesNotThrow) {
  std::string text;
  ASSERT_NO_THROW(text = error_envelope(Status::internal("x"), "id-\xff"));
  EXPECT_TRUE(parse(text).is_object());
}

}  // namespace
}  // namespace opbase::host

// Dispatcher: the whole API pipeline without HTTP — project and API key, body, op name, access,
// the handler, the envelope, the HTTP status and the metric labels.
#include "gateway/dispatcher.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "opbase/crypto.hpp"
#include "plugin_host/response.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

const std::string kAlphaKey = "alpha-api-key-0123456789";
const std::string kBetaKey = "beta-api-key-0123456789";
constexpr size_t kMaxValues = 1024;

opbase_str str(std::string_view s) { return {s.data(), s.size()}; }
std::string text(opbase_str s) { return std::string(s.ptr, s.len); }

void respond(opbase_response* response, opbase_part part, const json& value) {
  const std::string dumped = value.dump();
  ASSERT_EQ(response_set_part(response, part, str(dumped)), OPBASE_RC_OK) << dumped;
}

opbase_rc fail_with(opbase_response* response, std::string_view code, std::string_view message,
                    const json& details = nullptr, int http_status = 0) {
  const std::string d = details.is_null() ? "" : details.dump();
  response_set_error(response, str(code), str(message), str(d), http_status);
  return OPBASE_RC_ERROR;
}

// ---- test ops: plain functions with the C signature, as a plugin would register them ----------

opbase_rc op_ok(void*, const opbase_request*, opbase_response* response) {
  respond(response, OPBASE_PART_DATA, {{"ok", true}});
  return OPBASE_RC_OK;
}

// Answers everything the host passed in the request.
opbase_rc op_inspect(void*, const opbase_request* r, opbase_response* response) {
  respond(response, OPBASE_PART_DATA,
          {{"struct_size", r->struct_size},
           {"op", text(r->op)},
           {"called_as", text(r->called_as)},
           {"body", text(r->body)},
           {"project_id", text(r->project_id)},
           {"user_id", text(r->user_id)},
           {"user_claims", text(r->user_claims)},
           {"request_id", text(r->request_id)},
           {"client_address", text(r->client_address)},
           {"bearer_token", text(r->bearer_token)}});
  return OPBASE_RC_OK;
}

opbase_rc op_all_parts(void*, const opbase_request*, opbase_response* response) {
  respond(response, OPBASE_PART_DATA, json::array({1, 2}));
  respond(response, OPBASE_PART_META, {{"total", 2}});
  respond(response, OPBASE_PART_TOP_LEVEL, {{"email", "a@b.c"}, {"data", "ignored"}});
  return OPBASE_RC_OK;
}

opbase_rc op_nothing(void*, const opbase_request*, opbase_response*) { return OPBASE_RC_OK; }

opbase_rc op_silent_fail(void*, const opbase_request*, opbase_response*) { return OPBASE_RC_ERROR; }

opbase_rc op_refused_rc(void*, const opbase_request*, opbase_response*) {
  return OPBASE_RC_REFUSED;
}

opbase_rc op_throws(void*, const opbase_request*, opbase_response*) {
  throw std::runtime_error("a bug in the plugin");
}

opbase_rc op_override_status(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kProcessingFailed, "upstream is down", {{"upstream", "ai"}},
                   503);
}

opbase_rc op_rate_limited(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kRateLimitExceeded, "too many sign-in attempts",
                   {{"retry_after", 17}});
}

opbase_rc op_quota(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kQuotaExceeded, "monthly quota used", {{"retry_after", 3600}});
}

opbase_rc op_rate_limited_plain(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kRateLimitExceeded, "slow down");
}

opbase_rc op_validation(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kValidationError, "field 'name' must be a string",
                   {{"field", "name"}});
}

opbase_rc op_custom_code(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, "ORDER_CLOSED", "the order is closed");
}

opbase_rc op_malformed_error(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, "not a code", "lowercase codes are refused");
}

opbase_rc op_error_with_200(void*, const opbase_request*, opbase_response* response) {
  return fail_with(response, code::kValidationError, "an error cannot be 200", nullptr, 200);
}

opbase_rc op_error_but_ok(void*, const opbase_request*, opbase_response* response) {
  respond(response, OPBASE_PART_DATA, {{"half", "written"}});
  fail_with(response, code::kCollectionNotFound, "no collection 'x'", {{"collection", "x"}});
  return OPBASE_RC_OK;
}

// ---- the token verifier service ("auth.verify_token") ----------------------------------------

struct VerifierLog {
  std::mutex mu;
  int calls = 0;
  std::string project_id;
  json input;
};

opbase_rc verify_token(void* state, opbase_str project_id, opbase_str input,
                       opbase_response* response) {
  auto* log = static_cast<VerifierLog*>(state);
  const json parsed = json::parse(text(input));
  {
    std::lock_guard lock(log->mu);
    ++log->calls;
    log->project_id = text(project_id);
    log->input = parsed;
  }
  const std::string token = parsed.at("token");
  if (token == "user-token") {
    respond(response, OPBASE_PART_DATA, {{"sub", "u1"}, {"roles", {"user"}}});
    return OPBASE_RC_OK;
  }
  if (token == "admin-token") {
    respond(response, OPBASE_PART_DATA, {{"sub", "a1"}, {"roles", {"user", "admin"}}});
    return OPBASE_RC_OK;
  }
  if (token == "no-sub") {
    respond(response, OPBASE_PART_DATA, {{"roles", {"admin"}}});
    return OPBASE_RC_OK;
  }
  if (token == "empty-sub") {
    respond(response, OPBASE_PART_DATA, {{"sub", ""}});
    return OPBASE_RC_OK;
  }
  if (token == "numeric-sub") {
    respond(response, OPBASE_PART_DATA, {{"sub", 7}});
    return OPBASE_RC_OK;
  }
  if (token == R"(quote"and\slash)") {
    respond(response, OPBASE_PART_DATA, {{"sub", "u\"q\\"}});  // escapes in the subject too
    return OPBASE_RC_OK;
  }
  if (token == "roles-not-array") {
    respond(response, OPBASE_PART_DATA, {{"sub", "u2"}, {"roles", "admin"}});
    return OPBASE_RC_OK;
  }
  if (token == "expired") {
    return fail_with(response, code::kTokenExpired, "the id token expired", {{"expired_at", 1}});
  }
  return fail_with(response, code::kTokenInvalid, "the id token is not valid",
                   {{"reason", "signature"}});
}

// ---- fixture ----------------------------------------------------------------------------------

struct Call {
  std::optional<std::string> endpoint_key = "alpha-ep";
  std::string api_key = kAlphaKey;
  std::string authorization;
  std::string admin_key;
  std::string body = R"({"op":"test.ok"})";
  std::string request_id = "req-1";
  std::string client_address = "10.0.0.7";
};

class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = Config::defaults_with({{"projects.generate_default", "false"},
                                     {"projects.alpha.endpoint_key", "alpha-ep"},
                                     {"projects.alpha.api_key", kAlphaKey},
                                     {"projects.beta.endpoint_key", "beta-ep"},
                                     {"projects.beta.api_key", kBetaKey}});
    auto loaded = Projects::load(config_);
    ASSERT_TRUE(loaded) << loaded.status().to_string();
    projects_ = std::move(*loaded);

    add("test.ok", OPBASE_ACCESS_API_KEY, &op_ok);
    add("test.inspect", OPBASE_ACCESS_API_KEY, &op_inspect);
    add("test.user", OPBASE_ACCESS_USER, &op_inspect);
    add("test.admin", OPBASE_ACCESS_ADMIN, &op_inspect);
    add("test.optional", OPBASE_ACCESS_USER_OPTIONAL, &op_inspect);
    add("test.all_parts", OPBASE_ACCESS_API_KEY, &op_all_parts);
    add("test.nothing", OPBASE_ACCESS_API_KEY, &op_nothing);
    add("test.silent_fail", OPBASE_ACCESS_API_KEY, &op_silent_fail);
    add("test.refused_rc", OPBASE_ACCESS_API_KEY, &op_refused_rc);
    add("test.throws", OPBASE_ACCESS_API_KEY, &op_throws);
    add("test.override_status", OPBASE_ACCESS_API_KEY, &op_override_status);
    add("test.rate_limited", OPBASE_ACCESS_API_KEY, &op_rate_limited);
    add("test.quota", OPBASE_ACCESS_API_KEY, &op_quota);
    add("test.rate_limited_plain", OPBASE_ACCESS_API_KEY, &op_rate_limited_plain);
    add("test.validation", OPBASE_ACCESS_API_KEY, &op_validation);
    add("test.custom_code", OPBASE_ACCESS_API_KEY, &op_custom_code);
    add("test.malformed_error", OPBASE_ACCESS_API_KEY, &op_malformed_error);
    add("test.error_with_200", OPBASE_ACCESS_API_KEY, &op_error_with_200);
    add("test.error_but_ok", OPBASE_ACCESS_API_KEY, &op_error_but_ok);
    ASSERT_TRUE(registry_.add_op("collection", "collection.statement", OPBASE_ACCESS_API_KEY,
                                 &op_inspect, nullptr));
    ASSERT_TRUE(registry_.add_service("auth", kTokenVerifierService, &verify_token, &verifier_));
    dispatcher_.emplace(*projects_, registry_, kMaxValues);
  }

  void add(std::string_view name, opbase_access access, opbase_op_fn fn) {
    Status added = registry_.add_op("test", name, access, fn, nullptr);
    ASSERT_TRUE(added) << added.to_string();
  }

  ApiAnswer run(const Call& c) const { return run_on(*dispatcher_, c); }

  static ApiAnswer run_on(const Dispatcher& dispatcher, const Call& c) {
    ApiCall call;
    if (c.endpoint_key) call.endpoint_key = std::string_view(*c.endpoint_key);
    call.api_key = c.api_key;
    call.authorization = c.authorization;
    call.admin_key = c.admin_key;
    call.body = c.body;
    call.request_id = c.request_id;
    call.client_address = c.client_address;
    return dispatcher.handle(call);
  }

  // Calls `op` with `authorization`, other fields default.
  ApiAnswer run_op(std::string_view op, std::string authorization = "") const {
    Call c;
    c.body = json({{"op", op}}).dump();
    c.authorization = std::move(authorization);
    return run(c);
  }

  Config config_;
  std::unique_ptr<Projects> projects_;
  Registry registry_;
  VerifierLog verifier_;
  std::optional<Dispatcher> dispatcher_;
};

json body_of(const ApiAnswer& answer) {
  auto parsed = json::parse(answer.body, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << answer.body;
  return parsed;
}

// Checks an error answer and returns its "error" object.
json expect_error(const ApiAnswer& answer, std::string_view code, int http_status) {
  EXPECT_EQ(answer.http_status, http_status) << answer.body;
  EXPECT_EQ(answer.metric_code, code) << answer.body;
  const json body = body_of(answer);
  EXPECT_TRUE(body.is_object() && body.contains("error") && !body.contains("data")) << answer.body;
  if (!body.is_object() || !body.contains("error")) return json::object();
  EXPECT_EQ(body["error"]["code"], code) << answer.body;
  EXPECT_TRUE(body["error"]["message"].is_string()) << answer.body;
  return body["error"];
}

// The data of a successful answer.
json expect_data(const ApiAnswer& answer) {
  EXPECT_EQ(answer.http_status, 200) << answer.body;
  EXPECT_EQ(answer.metric_code, "OK") << answer.body;
  const json body = body_of(answer);
  EXPECT_TRUE(body.is_object() && body.contains("data") && !body.contains("error")) << answer.body;
  return body.is_object() ? body.value("data", json()) : json();
}

std::optional<std::string> header(const ApiAnswer& answer, std::string_view name) {
  for (const auto& [key, value] : answer.headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

// ---- HTTP status of every code (docs/api.md#error-codes)
// ----------------------------------------------------

TEST(ErrorCodes, HttpStatusOfEveryDecidedCode) {
  const std::vector<std::pair<std::string_view, int>> expected = {
      {"VALIDATION_ERROR", 400},    {"INVALID_OPTIONS", 400},
      {"CONTENT_EMPTY", 400},       {"AUTHENTICATION_FAILED", 401},
      {"INVALID_CREDENTIALS", 401}, {"TOKEN_EXPIRED", 401},
      {"TOKEN_INVALID", 401},       {"OTP_INVALID", 401},
      {"OTP_EXPIRED", 401},         {"EMAIL_NOT_VERIFIED", 403},
      {"FORBIDDEN", 403},           {"COLLECTION_NOT_FOUND", 404},
      {"UNKNOWN_OPERATION", 404},   {"EMAIL_ALREADY_EXISTS", 409},
      {"CONTENT_TOO_LONG", 413},    {"PAYLOAD_TOO_LARGE", 413},
      {"WEAK_PASSWORD", 422},       {"INVALID_LANGUAGE", 422},
      {"RATE_LIMIT_EXCEEDED", 429}, {"QUOTA_EXCEEDED", 429},
      {"PROCESSING_FAILED", 502},   {"INTERNAL_ERROR", 500},
  };
  for (const auto& [c, status] : expected) {
    EXPECT_EQ(code::http_status_of(c), status) << c;
    EXPECT_EQ(Status(c, "m").http_status(), status) << c;
  }
  // The constants spell the codes of the table.
  EXPECT_EQ(code::kUnknownOperation, "UNKNOWN_OPERATION");
  EXPECT_EQ(code::kPayloadTooLarge, "PAYLOAD_TOO_LARGE");
  EXPECT_EQ(code::kForbidden, "FORBIDDEN");
  // A plugin's own code is a 400; ok is 200; the lookup is exact.
  EXPECT_EQ(code::http_status_of("ORDER_CLOSED"), 400);
  EXPECT_EQ(code::http_status_of("internal_error"), 400);
  EXPECT_EQ(code::http_status_of(""), 400);
  EXPECT_EQ(Status::ok().http_status(), 200);
  static_assert(code::http_status_of("FORBIDDEN") == 403, "usable at compile time");
}

// ---- project and API key ----------------------------------------------------------------------

TEST_F(DispatcherTest, RightApiKeyReachesTheOp) {
  const ApiAnswer answer = run({});
  EXPECT_EQ(expect_data(answer), json({{"ok", true}}));
  EXPECT_EQ(answer.body, R"({"data":{"ok":true}})");
  EXPECT_EQ(answer.metric_op, "test.ok");
  EXPECT_TRUE(answer.headers.empty());
}

TEST_F(DispatcherTest, MissingApiKey) {
  Call c;
  c.api_key = "";
  const json error = expect_error(run(c), "AUTHENTICATION_FAILED", 401);
  EXPECT_EQ(error["message"], "missing X-API-KEY header");
  EXPECT_EQ(run(c).metric_op, "none");
}

TEST_F(DispatcherTest, WrongApiKey) {
  Call c;
  c.api_key = "alpha-api-key-wrong-value";
  EXPECT_EQ(expect_error(run(c), "AUTHENTICATION_FAILED", 401)["message"], "invalid API key");
}

TEST_F(DispatcherTest, AnotherProjectsApiKeyIsWrong) {
  Call c;
  c.api_key = kBetaKey;  // valid, but for beta-ep
  EXPECT_EQ(expect_error(run(c), "AUTHENTICATION_FAILED", 401)["message"], "invalid API key");
}

TEST_F(DispatcherTest, UnknownEndpointKey) {
  Call c;
  c.endpoint_key = "no-such-endpoint";
  const ApiAnswer answer = run(c);
  EXPECT_EQ(expect_error(answer, "AUTHENTICATION_FAILED", 401)["message"],
            "no project has this endpoint key");
  EXPECT_EQ(answer.metric_op, "none");
}

TEST_F(DispatcherTest, ApiKeyIsCheckedBeforeTheBody) {
  Call c;
  c.api_key = "";
  c.body = "{not json";
  expect_error(run(c), "AUTHENTICATION_FAILED", 401);
}

TEST_F(DispatcherTest, ProjectComesFromTheEndpointKey) {
  Call c;
  c.endpoint_key = "beta-ep";
  c.api_key = kBetaKey;
  c.body = R"({"op":"test.inspect"})";
  EXPECT_EQ(expect_data(run(c))["project_id"], "beta");
}

TEST_F(DispatcherTest, PlainApiRouteChoosesTheProjectByApiKey) {
  Call c;
  c.endpoint_key = std::nullopt;
  c.body = R"({"op":"test.inspect"})";
  c.api_key = kBetaKey;
  EXPECT_EQ(expect_data(run(c))["project_id"], "beta");
  c.api_key = kAlphaKey;
  EXPECT_EQ(expect_data(run(c))["project_id"], "alpha");
  c.api_key = "no-project-has-this-key";
  EXPECT_EQ(expect_error(run(c), "AUTHENTICATION_FAILED", 401)["message"], "invalid API key");
  c.api_key = "";
  EXPECT_EQ(expect_error(run(c), "AUTHENTICATION_FAILED", 401)["message"],
            "missing X-API-KEY header");
}

// ---- the body ---------------------------------------------------------------------------------

// The body `{"op":"test.ok","a":[0,0,...]}` with `zeros` zeros: 3 + zeros values.
std::string body_with_zeros(size_t zeros) {
  std::string body = R"({"op":"test.ok","a":[)";
  for (size_t i = 0; i < zeros; ++i) body += i ? ",0" : "0";
  return body + "]}";
}

TEST_F(DispatcherTest, BodyOfTooManyValuesIsPayloadTooLargeBeforeTheHandler) {
  Call c;
  c.body = body_with_zeros(kMaxValues - 3);
  EXPECT_EQ(run(c).http_status, 200) << "exactly the most values is served";
  c.body = body_with_zeros(kMaxValues - 2);
  const ApiAnswer answer = run(c);
  const json error = expect_error(answer, "PAYLOAD_TOO_LARGE", 413);
  EXPECT_EQ(error["details"]["max_values"], kMaxValues);
  EXPECT_EQ(error["message"], "the request body holds more than 1024 JSON values");
  EXPECT_EQ(answer.metric_op, "none");
  EXPECT_EQ(answer.metric_code, "PAYLOAD_TOO_LARGE");
}

TEST_F(DispatcherTest, ObjectsAndStringsCountAsValuesToo) {
  Call c;
  std::string members;
  for (size_t i = 0; i < kMaxValues; ++i) members += ",\"k" + std::to_string(i) + "\":{}";
  c.body = R"({"op":"test.ok")" + members + "}";
  expect_error(run(c), "PAYLOAD_TOO_LARGE", 413);
}

TEST_F(DispatcherTest, MalformedJsonSaysWhere) {
  Call c;
  c.body = R"({"op":"test.ok",})";
  const ApiAnswer answer = run(c);
  const json error = expect_error(answer, "VALIDATION_ERROR", 400);
  ASSERT_TRUE(error["details"]["position"].is_number_integer()) << answer.body;
  // The parser stops at the '}' that cannot follow ',' — byte 17 of the body (1-based).
  EXPECT_EQ(error["details"]["position"], 17);
  EXPECT_EQ(error["message"], "the request body is not valid JSON (at byte 17)");
  EXPECT_EQ(answer.metric_op, "none");
}

TEST_F(DispatcherTest, EmptyAndTruncatedBodiesAreMalformed) {
  for (const std::string body : {"", " ", "{", R"({"op":"test.ok")", "{\"op\":\"te\xff\"}"}) {
    Call c;
    c.body = body;
    const json error = expect_error(run(c), "VALIDATION_ERROR", 400);
    EXPECT_TRUE(error["details"]["position"].is_number_integer()) << "'" << body << "'";
  }
}

TEST_F(DispatcherTest, NumberTooLargeForADoubleIsAValidationError) {
  // nlohmann reports 1e999 as out_of_range (406), not as a parse_error: it must still become a
  // 400 answer, never an exception out of handle() (the gateway would drop the connection).
  for (const std::string body :
       {R"({"op":"test.ok","n":1e999})", R"({"op":"test.ok","n":-1e400})", "1e999"}) {
    Call c;
    c.body = body;
    ApiAnswer answer;
    ASSERT_NO_THROW(answer = run(c)) << body;
    expect_error(answer, "VALIDATION_ERROR", 400);
    EXPECT_EQ(answer.metric_op, "none");
  }
}

TEST_F(DispatcherTest, BodyMustBeAnObject) {
  for (const std::string body :
       {"[]", R"(["op","test.ok"])", R"("test.ok")", "42", "null", "true"}) {
    Call c;
    c.body = body;
    EXPECT_EQ(expect_error(run(c), "VALIDATION_ERROR", 400)["message"],
              "the request body must be a JSON object")
        << body;
  }
}

TEST_F(DispatcherTest, NestingUpTo512LevelsIsAccepted) {
  // The object is level 1; 511 arrays inside it make 512.
  Call c;
  c.body = R"({"op":"test.ok","x":)" + std::string(511, '[') + std::string(511, ']') + "}";
  expect_data(run(c));
}

TEST_F(DispatcherTest, DeeperNestingIsRefusedNotACrash) {
  const auto expect_too_deep = [&](const std::string& body) {
    Call c;
    c.body = body;
    const ApiAnswer answer = run(c);
    const json error = expect_error(answer, "VALIDATION_ERROR", 400);
    EXPECT_EQ(error["message"], "the request body is nested deeper than 512 levels");
    EXPECT_EQ(error["details"], json({{"max_depth", 512}}));
    EXPECT_EQ(answer.metric_op, "none");
  };
  expect_too_deep(R"({"op":"test.ok","x":)" + std::string(512, '[') + std::string(512, ']') + "}");
  const size_t depth = 100000;
  expect_too_deep(std::string(depth, '[') + std::string(depth, ']'));
  std::string objects = R"({"op":"test.ok","x":)";
  for (size_t i = 0; i < depth; ++i) objects += R"({"a":)";
  expect_too_deep(objects);  // unterminated: refused for its depth before its end is reached
  expect_too_deep(std::string(depth, '['));
}

TEST_F(DispatcherTest, RepeatedOpKeyTheLastOneWins) {
  Call c;
  c.body = R"({"op":"nope.nothing","op":"test.ok"})";
  EXPECT_EQ(run(c).metric_op, "test.ok");
  c.body = R"({"op":"test.ok","op":5})";
  EXPECT_EQ(expect_error(run(c), "VALIDATION_ERROR", 400)["message"],
            "field 'op' must be a string");
}

TEST_F(DispatcherTest, MissingOp) {
  for (const std::string body : {"{}", R"({"query":5})", R"({"data":{"op":"test.ok"}})"}) {
    Call c;
    c.body = body;
    const ApiAnswer answer = run(c);
    EXPECT_EQ(expect_error(answer, "VALIDATION_ERROR", 400)["message"], "missing field 'op'")
        << body;
    EXPECT_EQ(answer.metric_op, "none");
  }
}

TEST_F(DispatcherTest, OpMustBeAString) {
  for (const std::string body : {R"({"op":5})", R"({"op":null})", R"({"op":["test.ok"]})",
                                 R"({"op":{"name":"test.ok"}})", R"({"op":true,"query":"q"})"}) {
    Call c;
    c.body = body;
    EXPECT_EQ(expect_error(run(c), "VALIDATION_ERROR", 400)["message"],
              "field 'op' must be a string")
        << body;
  }
}

TEST_F(DispatcherTest, UnknownOp) {
  Call c;
  c.body = R"({"op":"nope.nothing"})";
  const ApiAnswer answer = run(c);
  const json error = expect_error(answer, "UNKNOWN_OPERATION", 404);
  EXPECT_EQ(error["details"], json({{"op", "nope.nothing"}}));
  EXPECT_EQ(answer.metric_op, "unknown");
  EXPECT_EQ(answer.metric_code, "UNKNOWN_OPERATION");
  // A made-up name never becomes a metric label.
  for (const std::string op : {"", "TEST.OK", "test.ok ", "test", "test.", "db.ok"}) {
    Call u;
    u.body = json({{"op", op}}).dump();
    const ApiAnswer a = run(u);
    expect_error(a, "UNKNOWN_OPERATION", 404);
    EXPECT_EQ(a.metric_op, "unknown") << op;
  }
}

// ---- the statement form and aliases -----------------------------------------------------------

TEST_F(DispatcherTest, StatementFormGoesToCollectionStatement) {
  Call c;
  c.body = R"({"query":"FOR d IN notes RETURN d","variables":{"x":1}})";
  const ApiAnswer answer = run(c);
  const json data = expect_data(answer);
  EXPECT_EQ(data["op"], "collection.statement");
  EXPECT_EQ(data["called_as"], "collection.statement");
  EXPECT_EQ(data["body"], c.body);  // the body reaches the op untouched
  EXPECT_EQ(answer.metric_op, "collection.statement");
}

TEST_F(DispatcherTest, StatementFormOnPlainApiRoute) {
  Call c;
  c.endpoint_key = std::nullopt;
  c.api_key = kBetaKey;
  c.body = R"({"query":"FOR d IN notes RETURN d"})";
  const json data = expect_data(run(c));
  EXPECT_EQ(data["op"], "collection.statement");
  EXPECT_EQ(data["project_id"], "beta");
}

TEST_F(DispatcherTest, StatementFormWithoutItsPluginIsUnknown) {
  Registry empty;
  Dispatcher dispatcher(*projects_, empty, kMaxValues);
  Call c;
  c.body = R"({"query":"FOR d IN notes RETURN d"})";
  const ApiAnswer answer = run_on(dispatcher, c);
  EXPECT_EQ(expect_error(answer, "UNKNOWN_OPERATION", 404)["details"]["op"],
            "collection.statement");
  EXPECT_EQ(answer.metric_op, "unknown");
}

TEST_F(DispatcherTest, AnExplicitOpWinsOverQuery) {
  Call c;
  c.body = R"({"op":"test.ok","query":"FOR d IN notes RETURN d"})";
  const ApiAnswer answer = run(c);
  EXPECT_EQ(expect_data(answer), json({{"ok", true}}));
  EXPECT_EQ(answer.metric_op, "test.ok");
}

TEST_F(DispatcherTest, AliasReachesTheCanonicalOp) {
  Call c;
  c.body = R"({"op":"db.statement","query":"x"})";
  const ApiAnswer answer = run(c);
  const json data = expect_data(answer);
  EXPECT_EQ(data["op"], "collection.statement");
  EXPECT_EQ(data["called_as"], "db.statement");
  EXPECT_EQ(answer.metric_op, "collection.statement");  // labels stay canonical
}

// ---- what the op receives ---------------------------------------------------------------------

TEST_F(DispatcherTest, TheRequestCarriesTheCall) {
  Call c;
  c.body = R"({"op":"test.inspect","x":[1,2]})";
  c.request_id = "req-xyz";
  c.client_address = "192.0.2.1";
  c.authorization = "Bearer user-token";  // an API-key op ignores the header
  const json data = expect_data(run(c));
  EXPECT_EQ(data["struct_size"], sizeof(opbase_request));
  EXPECT_EQ(data["op"], "test.inspect");
  EXPECT_EQ(data["called_as"], "test.inspect");
  EXPECT_EQ(data["body"], c.body);
  EXPECT_EQ(data["project_id"], "alpha");
  EXPECT_EQ(data["user_id"], "");
  EXPECT_EQ(data["user_claims"], "");
  EXPECT_EQ(data["request_id"], "req-xyz");
  EXPECT_EQ(data["client_address"], "192.0.2.1");
  EXPECT_EQ(data["bearer_token"], "");
  EXPECT_EQ(verifier_.calls, 0);
}

// ---- access levels ----------------------------------------------------------------------------

TEST_F(DispatcherTest, UserOpWithoutAuthorizationHeader) {
  const ApiAnswer answer = run_op("test.user");
  EXPECT_EQ(expect_error(answer, "AUTHENTICATION_FAILED", 401)["message"],
            "'test.user' needs a signed-in user: send 'Authorization: Bearer <id_token>'");
  EXPECT_EQ(answer.metric_op, "test.user");
  EXPECT_EQ(verifier_.calls, 0);
}

TEST_F(DispatcherTest, NonBearerAuthorizationHeader) {
  for (const std::string header :
       {"Basic dXNlcjpwYXNz", "Token user-token", "user-token", "Bearer", "Bearer-user-token"}) {
    EXPECT_EQ(expect_error(run_op("test.user", header), "AUTHENTICATION_FAILED", 401)["message"],
              "the Authorization header must be 'Bearer <id_token>'")
        << header;
  }
  EXPECT_EQ(verifier_.calls, 0);
}

TEST_F(DispatcherTest, EmptyBearerToken) {
  for (const std::string header : {"Bearer ", "Bearer     "}) {
    EXPECT_EQ(expect_error(run_op("test.user", header), "AUTHENTICATION_FAILED", 401)["message"],
              "the bearer token is empty")
        << "'" << header << "'";
  }
  EXPECT_EQ(verifier_.calls, 0);
}

TEST_F(DispatcherTest, ValidTokenReachesTheOpWithTheCaller) {
  const ApiAnswer answer = run_op("test.user", "Bearer user-token");
  const json data = expect_data(answer);
  EXPECT_EQ(data["user_id"], "u1");
  EXPECT_EQ(json::parse(data["user_claims"].get<std::string>()),
            json({{"sub", "u1"}, {"roles", {"user"}}}));
  EXPECT_EQ(data["bearer_token"], "user-token");
  EXPECT_EQ(answer.metric_op, "test.user");
  // The verifier was asked for this project with the token alone.
  EXPECT_EQ(verifier_.calls, 1);
  EXPECT_EQ(verifier_.project_id, "alpha");
  EXPECT_EQ(verifier_.input, json({{"token", "user-token"}}));
}

TEST_F(DispatcherTest, BearerSchemeIsCaseInsensitiveAndTokenTrimmed) {
  for (const std::string header :
       {"bearer user-token", "BEARER user-token", "Bearer   user-token  "}) {
    const json data = expect_data(run_op("test.user", header));
    EXPECT_EQ(data["user_id"], "u1") << header;
    EXPECT_EQ(data["bearer_token"], "user-token") << header;
  }
}

TEST_F(DispatcherTest, BearerTokenWithInvalidUtf8IsRefusedNotThrown) {
  // Header bytes are the client's: a token that is not UTF-8 must be refused like any bad token
  // (docs/api.md#access-levels: TOKEN_INVALID), never escape handle() as an exception.
  for (const std::string header : {"Bearer tok\xff", "Bearer \xc3", "Bearer \xed\xa0\x80"}) {
    ApiAnswer answer;
    ASSERT_NO_THROW(answer = run_op("test.user", header)) << header;
    expect_error(answer, "TOKEN_INVALID", 401);
    EXPECT_EQ(answer.metric_op, "test.user");
  }
}

TEST_F(DispatcherTest, VerifierErrorCodesPassThrough) {
  const ApiAnswer expired = run_op("test.user", "Bearer expired");
  const json e1 = expect_error(expired, "TOKEN_EXPIRED", 401);
  EXPECT_EQ(e1["message"], "the id token expired");
  EXPECT_EQ(e1["details"], json({{"expired_at", 1}}));
  EXPECT_EQ(expired.metric_code, "TOKEN_EXPIRED");
  EXPECT_EQ(expired.metric_op, "test.user");

  const json e2 = expect_error(run_op("test.admin", "Bearer forged"), "TOKEN_INVALID", 401);
  EXPECT_EQ(e2["details"], json({{"reason", "signature"}}));
}

TEST_F(DispatcherTest, TokensAndSubjectsNeedingJsonEscapesPassIntact) {
  // The verifier's input and the subject are read and written without a JSON library.
  const json data = expect_data(run_op("test.user", R"(Bearer quote"and\slash)"));
  EXPECT_EQ(verifier_.input, json({{"token", R"(quote"and\slash)"}}));
  EXPECT_EQ(data["user_id"], "u\"q\\");
}

TEST_F(DispatcherTest, VerifierAnsweringNoSubjectIsAnInternalError) {
  for (const std::string header : {"Bearer no-sub", "Bearer empty-sub", "Bearer numeric-sub"}) {
    Call c;
    c.body = R"({"op":"test.user"})";
    c.authorization = header;
    c.request_id = "req-nosub";
    const json error = expect_error(run(c), "INTERNAL_ERROR", 500);
    EXPECT_EQ(error["details"]["request_id"], "req-nosub") << header;
  }
}

TEST_F(DispatcherTest, NoTokenVerifierLoaded) {
  Registry registry;
  ASSERT_TRUE(registry.add_op("test", "test.user", OPBASE_ACCESS_USER, &op_inspect, nullptr));
  ASSERT_TRUE(
      registry.add_op("test", "test.optional", OPBASE_ACCESS_USER_OPTIONAL, &op_inspect, nullptr));
  Dispatcher dispatcher(*projects_, registry, kMaxValues);
  Call c;
  c.body = R"({"op":"test.user"})";
  c.authorization = "Bearer user-token";
  EXPECT_EQ(expect_error(run_on(dispatcher, c), "AUTHENTICATION_FAILED", 401)["message"],
            "no plugin verifies tokens on this server (enable the auth plugin)");
  // An anonymous call to an optional op still works without a verifier.
  c.body = R"({"op":"test.optional"})";
  c.authorization = "";
  EXPECT_EQ(expect_data(run_on(dispatcher, c))["user_id"], "");
}

TEST_F(DispatcherTest, AdminOpNeedsTheAdminRole) {
  const json error = expect_error(run_op("test.admin", "Bearer user-token"), "FORBIDDEN", 403);
  EXPECT_EQ(error["message"], "'test.admin' needs the admin role");
  expect_error(run_op("test.admin", "Bearer roles-not-array"), "FORBIDDEN", 403);
  expect_error(run_op("test.admin"), "AUTHENTICATION_FAILED", 401);

  const ApiAnswer admin = run_op("test.admin", "Bearer admin-token");
  EXPECT_EQ(expect_data(admin)["user_id"], "a1");
  EXPECT_EQ(admin.metric_op, "test.admin");
}

TEST_F(DispatcherTest, TheServerAdminKeyCallsAdminOpsWithoutAUser) {
  const std::string key = "sak_0123456789abcdef0123456789abcdef";
  const Dispatcher with_key(*projects_, registry_, kMaxValues, opbase::sha256(key));
  Call c;
  c.body = json({{"op", "test.admin"}}).dump();
  c.admin_key = key;
  const json seen = expect_data(run_on(with_key, c));
  EXPECT_EQ(seen["user_id"], "");
  EXPECT_EQ(json::parse(seen["user_claims"].get<std::string>())["roles"], json({"admin"}));
  EXPECT_EQ(verifier_.calls, 0) << "no token to verify";

  // A wrong key, or any key where none is configured, is refused; a token is not looked at.
  c.admin_key = key.substr(0, key.size() - 1) + "0";
  c.authorization = "Bearer admin-token";
  expect_error(run_on(with_key, c), "AUTHENTICATION_FAILED", 401);
  c.admin_key = key;
  expect_error(run_on(*dispatcher_, c), "AUTHENTICATION_FAILED", 401);
  // The key opens admin ops only: a user op still needs its user.
  c.body = json({{"op", "test.user"}}).dump();
  c.authorization = "";
  expect_error(run_on(with_key, c), "AUTHENTICATION_FAILED", 401);
}

TEST_F(DispatcherTest, OptionalAccess) {
  const json anonymous = expect_data(run_op("test.optional"));
  EXPECT_EQ(anonymous["user_id"], "");
  EXPECT_EQ(anonymous["user_claims"], "");
  EXPECT_EQ(verifier_.calls, 0);

  const json signed_in = expect_data(run_op("test.optional", "Bearer user-token"));
  EXPECT_EQ(signed_in["user_id"], "u1");
  EXPECT_EQ(verifier_.calls, 1);

  // A token that is presented is checked: a bad one is refused, not ignored.
  expect_error(run_op("test.optional", "Bearer expired"), "TOKEN_EXPIRED", 401);
  expect_error(run_op("test.optional", "Basic abc"), "AUTHENTICATION_FAILED", 401);
  expect_error(run_op("test.optional", "Bearer "), "AUTHENTICATION_FAILED", 401);
}

// ---- the handler's answer ---------------------------------------------------------------------

TEST_F(DispatcherTest, DataMetaAndTopLevel) {
  const ApiAnswer answer = run_op("test.all_parts");
  EXPECT_EQ(answer.http_status, 200);
  EXPECT_EQ(body_of(answer), json::parse(R"({"data":[1,2],"meta":{"total":2},"email":"a@b.c"})"));
}

TEST_F(DispatcherTest, NothingWrittenIsNullData) {
  const ApiAnswer answer = run_op("test.nothing");
  EXPECT_EQ(answer.http_status, 200);
  EXPECT_EQ(answer.body, R"({"data":null})");
}

TEST_F(DispatcherTest, OpFailingWithoutAnErrorIsAnInternalError) {
  for (const char* op : {"test.silent_fail", "test.refused_rc", "test.throws"}) {
    Call c;
    c.body = json({{"op", op}}).dump();
    c.request_id = "req-500";
    const ApiAnswer answer = run(c);
    const json error = expect_error(answer, "INTERNAL_ERROR", 500);
    EXPECT_EQ(error["message"], "internal error") << op;
    EXPECT_EQ(error["details"], json({{"request_id", "req-500"}})) << op;
    EXPECT_EQ(answer.metric_op, op);
    EXPECT_EQ(answer.metric_code, "INTERNAL_ERROR");
  }
}

TEST_F(DispatcherTest, OpErrorPassesThroughWithDetails) {
  const ApiAnswer answer = run_op("test.validation");
  const json error = expect_error(answer, "VALIDATION_ERROR", 400);
  EXPECT_EQ(error["message"], "field 'name' must be a string");
  EXPECT_EQ(error["details"], json({{"field", "name"}}));
  EXPECT_EQ(answer.metric_op, "test.validation");
  EXPECT_TRUE(answer.headers.empty());
}

TEST_F(DispatcherTest, OpErrorOverridesHttpStatus) {
  const ApiAnswer answer = run_op("test.override_status");
  const json error = expect_error(answer, "PROCESSING_FAILED", 503);
  EXPECT_EQ(error["details"], json({{"upstream", "ai"}}));
}

TEST_F(DispatcherTest, PluginsOwnCodeIsA400) {
  expect_error(run_op("test.custom_code"), "ORDER_CLOSED", 400);
}

TEST_F(DispatcherTest, MalformedErrorFromAnOpIsAnInternalError) {
  for (const char* op : {"test.malformed_error", "test.error_with_200"}) {
    Call c;
    c.body = json({{"op", op}}).dump();
    c.request_id = "req-bad";
    const json error = expect_error(run(c), "INTERNAL_ERROR", 500);
    EXPECT_EQ(error["message"], "the plugin answered a malformed error") << op;
    EXPECT_EQ(error["details"]["request_id"], "req-bad") << op;
  }
}

TEST_F(DispatcherTest, AnErrorWinsOverDataAndRc) {
  const ApiAnswer answer = run_op("test.error_but_ok");
  const json error = expect_error(answer, "COLLECTION_NOT_FOUND", 404);
  EXPECT_EQ(error["details"], json({{"collection", "x"}}));
  EXPECT_EQ(answer.body.find("half"), std::string::npos);
}

TEST_F(DispatcherTest, RetryAfterHeaderFromRateLimitDetails) {
  const ApiAnswer limited = run_op("test.rate_limited");
  EXPECT_EQ(expect_error(limited, "RATE_LIMIT_EXCEEDED", 429)["details"]["retry_after"], 17);
  EXPECT_EQ(header(limited, "Retry-After"), "17");
  EXPECT_EQ(limited.headers.size(), 1u);

  const ApiAnswer quota = run_op("test.quota");
  expect_error(quota, "QUOTA_EXCEEDED", 429);
  EXPECT_EQ(header(quota, "Retry-After"), "3600");

  const ApiAnswer plain = run_op("test.rate_limited_plain");
  expect_error(plain, "RATE_LIMIT_EXCEEDED", 429);
  EXPECT_FALSE(header(plain, "Retry-After"));
}

TEST_F(DispatcherTest, ConcurrentCallsAllAnswer) {
  constexpr int kThreads = 4;
  constexpr int kCallsEach = 200;
  std::vector<std::thread> threads;
  std::vector<int> ok(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCallsEach; ++i) {
        Call c;
        c.body = R"({"op":"test.user"})";
        c.authorization = (i % 2) ? "Bearer user-token" : "Bearer admin-token";
        c.request_id = "req-" + std::to_string(t) + "-" + std::to_string(i);
        const ApiAnswer answer = run(c);
        const auto body = json::parse(answer.body, nullptr, false);
        if (answer.http_status == 200 && body.is_object() &&
            body["data"]["request_id"] == c.request_id &&
            body["data"]["user_id"] == ((i % 2) ? "u1" : "a1")) {
          ++ok[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(ok[t], kCallsEach) << "thread " << t;
  EXPECT_EQ(verifier_.calls, kThreads * kCallsEach);
}

}  // namespace
}  // namespace opbase::host

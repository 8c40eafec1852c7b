#include "gateway/dispatcher.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gateway/envelope.hpp"
#include "log/log.hpp"
#include "opbase/crypto.hpp"
#include "opbase/internal/str.hpp"
#include "opbase/json_text.hpp"
#include "plugin_host/response.hpp"

namespace opbase::host {
namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

Status authentication_failed(std::string message) {
  return Status(code::kAuthenticationFailed, std::move(message));
}

// Bodies nested deeper than this are refused: nlohmann's parser copes, but a handler that
// copies or dumps the value recurses once per level and overflows its stack.
constexpr int kMaxNesting = 512;

// What the dispatcher needs from the body: that it is valid JSON, not nested deeper than
// kMaxNesting, with at most `max_values` values, an object, and its top-level "op" and "query"
// members. One SAX pass gets all of that without building the tree the dispatcher would throw
// away (the plugin gets the text). The value count bounds what a handler's parse of the body can
// cost: a tree takes tens of bytes a value, so a body of small values grows twentyfold in memory.
class BodyScan final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit BodyScan(size_t max_values) : max_values_(max_values) {}
  enum class Kind { kAbsent, kString, kOther };
  struct Member {
    Kind kind = Kind::kAbsent;
    std::string text;
  };
  bool is_object = false;
  bool too_deep = false;
  bool too_many_values = false;
  Member op, query;
  size_t error_byte = 0;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool string(string_t& text) override {
    if (!count()) return false;
    if (depth_ == 1 && current_ != nullptr) {
      current_->kind = Kind::kString;  // a repeated key: the last one wins, as in the tree
      current_->text = std::move(text);
      current_ = nullptr;
    }
    return true;
  }
  bool start_object(std::size_t) override {
    if (depth_ == 0) is_object = true;
    return open();
  }
  bool start_array(std::size_t) override { return open(); }
  bool key(string_t& name) override {
    if (depth_ == 1) current_ = name == "op" ? &op : name == "query" ? &query : nullptr;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    error_byte = position;
    return false;
  }

 private:
  bool count() {
    if (++values_ <= max_values_) return true;
    too_many_values = true;
    return false;  // stops the parse here
  }
  bool value() {
    if (!count()) return false;
    if (depth_ == 1 && current_ != nullptr) {
      current_->kind = Kind::kOther;
      current_->text.clear();
      current_ = nullptr;
    }
    return true;
  }
  bool open() {
    if (!value()) return false;
    if (++depth_ > kMaxNesting) {
      too_deep = true;
      return false;  // stops the parse here
    }
    return true;
  }
  const size_t max_values_;
  size_t values_ = 0;
  int depth_ = 0;
  Member* current_ = nullptr;
};

// The token verifier's input {"token":"<token>"}, printed by hand: this runs on every signed-in
// request. The token is printable ASCII (checked before), so only '"' and '\\' need escaping.
std::string verifier_input(std::string_view token) {
  std::string input;
  input.reserve(token.size() + 16);
  input += R"({"token":")";
  // A real token (base64url and dots) has neither: one memchr each, then one copy.
  if (token.find('"') == std::string_view::npos && token.find('\\') == std::string_view::npos) {
    input += token;
  } else {
    for (const char c : token) {
      if (c == '"' || c == '\\') input += '\\';
      input += c;
    }
  }
  input += R"("})";
  return input;
}

// The claims' "sub" when it is a non-empty string; "" otherwise or when the claims are not a
// JSON object. Found with the fast validator rather than a parse of the whole claims, which
// would cost more than the rest of the token check.
std::string subject_of(std::string_view claims_text) {
  const std::optional<std::string_view> sub = json_text::top_level_member(claims_text, "sub");
  if (!sub || sub->size() < 2 || sub->front() != '"') return "";
  const std::string_view inside = sub->substr(1, sub->size() - 2);
  if (inside.find('\\') == std::string_view::npos) return std::string(inside);
  return nlohmann::json::parse(*sub).get<std::string>();  // valid: the validator said so
}

bool has_admin_role(std::string_view claims_text) {
  const auto claims = nlohmann::json::parse(claims_text, nullptr, /*allow_exceptions=*/false);
  const auto roles =
      claims.is_object() ? claims.value("roles", nlohmann::json::array()) : nlohmann::json::array();
  return roles.is_array() && std::find(roles.begin(), roles.end(), "admin") != roles.end();
}

void fill_error(ApiAnswer& answer, const Status& status, std::string_view request_id,
                int http_status_override = 0) {
  answer.http_status = http_status_override ? http_status_override : status.http_status();
  answer.body = error_envelope(status, request_id);
  answer.metric_code = status.code();
  if (auto seconds = retry_after(status)) answer.headers.emplace_back("Retry-After", *seconds);
}

}  // namespace

Result<Dispatcher::Caller> Dispatcher::authorize_admin_key(std::string_view presented) const {
  // Digests compared in constant time: the time says nothing of how much of the key was right.
  if (admin_key_digest_.empty() || !constant_time_equal(sha256(presented), admin_key_digest_)) {
    return authentication_failed("the X-Admin-Key header does not hold this server's admin key");
  }
  return Caller{"", R"({"roles":["admin"],"admin_key":true})", ""};
}

Result<Dispatcher::Caller> Dispatcher::authorize(const OpEntry& op, const Project& project,
                                                 const ApiCall& call) const {
  if (op.access == OPBASE_ACCESS_API_KEY) return Caller{};
  if (op.access == OPBASE_ACCESS_ADMIN && !call.admin_key.empty()) {
    return authorize_admin_key(call.admin_key);
  }
  std::string_view header = call.authorization;
  if (header.empty()) {
    if (op.access == OPBASE_ACCESS_USER_OPTIONAL) return Caller{};
    return authentication_failed(
        "'" + op.name + "' needs a signed-in user: send 'Authorization: Bearer <id_token>'");
  }
  if (!starts_with_ignoring_case(header, "Bearer ")) {
    return authentication_failed("the Authorization header must be 'Bearer <id_token>'");
  }
  std::string_view token = header.substr(7);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.empty()) return authentication_failed("the bearer token is empty");
  // A token is printable ASCII (RFC 6750 b64token). Other bytes cannot be a valid token, and are
  // not valid UTF-8 for the verifier's JSON input either.
  if (!std::all_of(token.begin(), token.end(),
                   [](unsigned char c) { return c > 0x20 && c < 0x7f; })) {
    return Status(code::kTokenInvalid, "the bearer token is not valid");
  }

  const ServiceEntry* verifier = registry_.find_service(kTokenVerifierService);
  if (verifier == nullptr) {
    return authentication_failed(
        "no plugin verifies tokens on this server (enable the auth plugin)");
  }
  const std::string input = verifier_input(token);
  opbase_response verified;
  verifier->fn(verifier->state, str(project.id), str(input), &verified);
  if (verified.failed) return verified.error_status();

  std::string claims = std::move(verified.data).value_or("");
  std::string subject = subject_of(claims);
  if (subject.empty()) return Status::internal("the token verifier answered no subject");
  if (op.access == OPBASE_ACCESS_ADMIN && !has_admin_role(claims)) {
    return Status(code::kForbidden, "'" + op.name + "' needs the admin role");
  }
  return Caller{std::move(subject), std::move(claims), std::string(token)};
}

Result<const Project*> Dispatcher::admit(std::optional<std::string_view> endpoint_key,
                                         std::string_view api_key) const {
  if (api_key.empty()) return authentication_failed("missing X-API-KEY header");
  if (!endpoint_key) {
    const Project* project = projects_.by_api_key(api_key);
    if (project == nullptr) return authentication_failed("invalid API key");
    return project;
  }
  const Project* project = projects_.by_endpoint_key(*endpoint_key);
  if (project == nullptr) return authentication_failed("no project has this endpoint key");
  if (!Projects::api_key_matches(*project, api_key)) {
    return authentication_failed("invalid API key");
  }
  return project;
}

ApiAnswer Dispatcher::handle(const ApiCall& call) const {
  ApiAnswer answer;
  auto fail = [&](const Status& status, int http_status = 0) {
    fill_error(answer, status, call.request_id, http_status);
    return answer;
  };

  // 1. The project, and its API key.
  const Result<const Project*> admitted = admit(call.endpoint_key, call.api_key);
  if (!admitted) return fail(admitted.status());
  const Project* project = *admitted;
  answer.project = project->id;

  // 2. The body: JSON, not too many values, an object, the op.
  BodyScan scan(max_json_values_);
  if (!nlohmann::json::sax_parse(call.body, &scan)) {
    if (scan.too_many_values) {
      return fail(Status(
          code::kPayloadTooLarge,
          "the request body holds more than " + std::to_string(max_json_values_) + " JSON values",
          {{"max_values", max_json_values_}}));
    }
    if (scan.too_deep) {
      return fail(Status::validation(
          "the request body is nested deeper than " + std::to_string(kMaxNesting) + " levels",
          {{"max_depth", kMaxNesting}}));
    }
    return fail(Status::validation(
        "the request body is not valid JSON (at byte " + std::to_string(scan.error_byte) + ")",
        {{"position", scan.error_byte}}));
  }
  if (!scan.is_object) return fail(Status::validation("the request body must be a JSON object"));
  std::string op_name;
  if (scan.op.kind != BodyScan::Kind::kAbsent) {
    if (scan.op.kind != BodyScan::Kind::kString) {
      return fail(Status::validation("field 'op' must be a string"));
    }
    op_name = std::move(scan.op.text);
  } else if (scan.query.kind == BodyScan::Kind::kString) {
    op_name = kStatementOp;
  } else {
    return fail(Status::validation("missing field 'op'"));
  }
  const OpEntry* op = registry_.find_op(op_name);
  if (op == nullptr) {
    answer.metric_op = "unknown";
    return fail(Status(code::kUnknownOperation,
                       "unknown operation '" + op_name + "' (no loaded plugin serves it)",
                       {{"op", op_name}}));
  }
  answer.metric_op = op->name;

  // 3. Who calls: the op's access need.
  auto caller = authorize(*op, *project, call);
  if (!caller) return fail(caller.status());

  // 4. The handler: here, or on the op's lane.
  if (op->lane != nullptr) {
    answer.lane_call = LaneCall{project,
                                op,
                                std::move(op_name),
                                std::move(caller->user_id),
                                std::move(caller->claims),
                                std::move(caller->token)};
    return answer;
  }
  return run(call, *project, *op, op_name, *caller);
}

ApiAnswer Dispatcher::run_on_lane(const ApiCall& call, const LaneCall& checked) const {
  return run(call, *checked.project, *checked.op, checked.called_as,
             Caller{checked.user_id, checked.claims, checked.token});
}

ApiAnswer Dispatcher::run(const ApiCall& call, const Project& project, const OpEntry& op,
                          std::string_view called_as, const Caller& caller) const {
  ApiAnswer answer;
  answer.project = project.id;
  answer.metric_op = op.name;
  auto fail = [&](const Status& status, int http_status = 0) {
    fill_error(answer, status, call.request_id, http_status);
    return answer;
  };
  const opbase_request request{
      sizeof(opbase_request),   str(op.name),        str(called_as),     str(call.body),
      str(project.id),          str(caller.user_id), str(caller.claims), str(call.request_id),
      str(call.client_address), str(caller.token)};
  opbase_response response;
  opbase_rc rc = OPBASE_RC_ERROR;
  try {
    rc = op.fn(op.state, &request, &response);
  } catch (...) {
    log::error("gateway", "op " + op.name + " let an exception escape (request " +
                              std::string(call.request_id) + ")");
    return fail(Status::internal("internal error"));
  }
  if (response.failed) return fail(response.error_status(), response.http_status);
  if (rc != OPBASE_RC_OK) {
    log::error("gateway", "op " + op.name + " failed without an error (request " +
                              std::string(call.request_id) + ")");
    return fail(Status::internal("internal error"));
  }
  answer.body = success_envelope(response.data ? std::string_view(*response.data) : "null",
                                 response.meta, response.top_level);
  if (audit_ != nullptr && op.access == OPBASE_ACCESS_ADMIN && AuditTrail::records(op.name)) {
    // The change is made: a failed entry is logged, never turned into a failed answer.
    const Status kept =
        audit_->record({project.id, op.name, caller.user_id, std::string(call.request_id),
                        std::string(call.client_address), call.body});
    if (!kept) log::error("audit", "op " + op.name + ": " + kept.message());
  }
  return answer;
}

}  // namespace opbase::host

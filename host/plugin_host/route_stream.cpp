#include "plugin_host/route_stream.hpp"

#include <nlohmann/json.hpp>

#include "gateway/envelope.hpp"
#include "opbase/error_code.hpp"
#include "opbase/internal/answer_rules.hpp"
#include "opbase/internal/route_rules.hpp"
#include "opbase/internal/str.hpp"

namespace opbase::host {
namespace {

bool bad(opbase_str s) { return s.ptr == nullptr && s.len > 0; }

// The response head a plugin asked for, with the host's own X-Request-Id; nullopt when its
// status or headers break the rules (route_rules.hpp).
std::optional<http::Response> head_of(const opbase_stream& stream, int status,
                                      opbase_str content_type, opbase_str headers) {
  if (!answers::valid_route_status(status) || bad(content_type) || bad(headers)) {
    return std::nullopt;
  }
  auto lines = answers::route_header_lines(view(headers));
  const std::string_view type = view(content_type);
  if (!lines || type.find_first_of("\r\n") != std::string_view::npos) return std::nullopt;
  http::Response response;
  response.status = status;
  response.content_type = type.empty() ? "application/octet-stream" : std::string(type);
  response.headers = std::move(*lines);
  response.headers.emplace_back("X-Request-Id", stream.request_id);
  for (const auto& header : stream.host_headers) response.headers.push_back(header);
  return response;
}

opbase_held_end held_end_of(HeldEnd why) {
  switch (why) {
    case HeldEnd::kClientLeft:
      return OPBASE_HELD_CLIENT_LEFT;
    case HeldEnd::kTooSlow:
      return OPBASE_HELD_TOO_SLOW;
    case HeldEnd::kClosed:
      return OPBASE_HELD_CLOSED;
    case HeldEnd::kServerStopping:
      return OPBASE_HELD_SERVER_STOPPING;
  }
  return OPBASE_HELD_CLIENT_LEFT;
}

// The smallest queue a held response may have: room for a farewell and an event or two.
constexpr uint64_t kMinHeldQueue = 1024;

}  // namespace

void route_answer_error(opbase_stream& stream, const Status& status, int http_status) {
  http::Response response;
  response.status = http_status != 0 ? http_status : status.http_status();
  response.body = error_envelope(status, stream.request_id);
  response.headers.emplace_back("X-Request-Id", stream.request_id);
  for (const auto& header : stream.host_headers) response.headers.push_back(header);
  if (auto seconds = retry_after(status)) response.headers.emplace_back("Retry-After", *seconds);
  stream.answered = true;
  stream.status = response.status;
  stream.stream->respond(std::move(response));
}

opbase_rc route_header(opbase_stream* stream, opbase_str name, opbase_config_value_fn on_value,
                       void* caller_ctx) {
  if (stream == nullptr || on_value == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  const auto& fields = stream->stream->request().head.fields;
  for (const auto& [field, value] : fields) {
    if (http::equals_ignoring_case(field, view(name))) {
      on_value(caller_ctx, str(value));
      return OPBASE_RC_OK;
    }
  }
  return OPBASE_RC_NOT_FOUND;
}

int64_t route_read(opbase_stream* stream, char* buffer, size_t capacity) {
  if (stream == nullptr || (buffer == nullptr && capacity > 0)) return -1;
  return stream->stream->read(buffer, capacity);
}

opbase_rc route_respond(opbase_stream* stream, int status, opbase_str content_type,
                        opbase_str headers, opbase_str body) {
  if (stream == nullptr || stream->answered || bad(body)) return OPBASE_RC_REFUSED;
  auto response = head_of(*stream, status, content_type, headers);
  if (!response) return OPBASE_RC_REFUSED;
  response->body.assign(view(body));
  stream->answered = true;
  stream->status = status;
  stream->stream->respond(std::move(*response));
  return OPBASE_RC_OK;
}

opbase_rc route_respond_error(opbase_stream* stream, opbase_str code, opbase_str message,
                              opbase_str details, int http_status) {
  if (stream == nullptr || stream->answered || bad(code) || bad(message) || bad(details)) {
    return OPBASE_RC_REFUSED;
  }
  const std::string_view details_text = view(details);
  if (!answers::valid_error_code(view(code)) || !answers::valid_http_status(http_status) ||
      (!details_text.empty() && !answers::is_json_object(details_text))) {
    route_answer_error(*stream, Status::internal("the plugin answered a malformed error"));
    return OPBASE_RC_REFUSED;
  }
  const nlohmann::json parsed =
      details_text.empty() ? nlohmann::json() : nlohmann::json::parse(details_text);
  route_answer_error(*stream, Status(view(code), std::string(view(message)), parsed), http_status);
  return OPBASE_RC_OK;
}

opbase_rc route_start(opbase_stream* stream, int status, opbase_str content_type,
                      opbase_str headers, uint64_t content_length) {
  if (stream == nullptr || stream->answered) return OPBASE_RC_REFUSED;
  auto response = head_of(*stream, status, content_type, headers);
  if (!response) return OPBASE_RC_REFUSED;
  stream->answered = true;
  stream->status = status;
  stream->body_left = content_length;  // for HEAD too: the front drops the bytes
  return stream->stream->start(*response, content_length) ? OPBASE_RC_OK : OPBASE_RC_ERROR;
}

opbase_rc route_write(opbase_stream* stream, opbase_str bytes) {
  if (stream == nullptr || bad(bytes) || !stream->answered || bytes.len > stream->body_left) {
    return OPBASE_RC_REFUSED;
  }
  if (!stream->stream->write(view(bytes))) return OPBASE_RC_ERROR;
  stream->body_left -= bytes.len;
  return OPBASE_RC_OK;
}

opbase_rc route_send_file(opbase_stream* stream, int fd, uint64_t offset, uint64_t length) {
  if (stream == nullptr || fd < 0 || !stream->answered || length > stream->body_left) {
    return OPBASE_RC_REFUSED;
  }
  if (!stream->stream->send_file(fd, offset, length)) return OPBASE_RC_ERROR;
  stream->body_left -= length;
  return OPBASE_RC_OK;
}

opbase_held* route_hold(opbase_stream* stream, int status, opbase_str content_type,
                        opbase_str headers, uint64_t max_queued_bytes, opbase_str too_slow_farewell,
                        opbase_held_end_fn on_end, void* on_end_state) {
  if (stream == nullptr || stream->answered || on_end == nullptr || bad(too_slow_farewell) ||
      max_queued_bytes < kMinHeldQueue) {
    return nullptr;
  }
  auto response = head_of(*stream, status, content_type, headers);
  if (!response) return nullptr;
  stream->answered = true;
  stream->status = status;
  http::HoldOptions options;
  options.max_queued_bytes = static_cast<size_t>(max_queued_bytes);
  options.too_slow_farewell.assign(view(too_slow_farewell));
  options.on_end = [on_end, on_end_state](HeldEnd why) { on_end(on_end_state, held_end_of(why)); };
  auto held = stream->stream->hold(*response, std::move(options));
  if (!held) return nullptr;
  return new opbase_held{std::move(held)};
}

opbase_rc held_push(opbase_held* held, opbase_str bytes) {
  if (held == nullptr || bad(bytes)) return OPBASE_RC_REFUSED;
  return held->response->push(view(bytes)) ? OPBASE_RC_OK : OPBASE_RC_ERROR;
}

void held_close(opbase_held* held, opbase_str last) {
  if (held == nullptr || bad(last)) return;
  held->response->close(view(last));
}

uint64_t held_queued_bytes(opbase_held* held) {
  return held == nullptr ? 0 : held->response->queued_bytes();
}

void held_release(opbase_held* held) { delete held; }

}  // namespace opbase::host

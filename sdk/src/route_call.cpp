#include <cstddef>

#include "opbase/internal/str.hpp"
#include "opbase/route.hpp"
#include "opbase/url_query.hpp"

namespace opbase {
namespace {

std::string header_lines(const HeaderList& headers) {
  std::string lines;
  for (const auto& [name, value] : headers) lines += name + ": " + value + "\r\n";
  return lines;
}

}  // namespace

std::string_view RouteCall::project_id() const {
  // The field came with ABI 1.4: an older host's request ends before it.
  if (request_.struct_size < offsetof(opbase_route_request, project_id) + sizeof(opbase_str)) {
    return {};
  }
  return {request_.project_id.ptr, request_.project_id.len};
}

std::optional<std::string> RouteCall::query(std::string_view name) const {
  return url_query_value(target(), name);
}

std::optional<std::string> RouteCall::header(std::string_view name) const {
  std::optional<std::string> found;
  api_.stream_header(
      stream_, str(name),
      [](void* ctx, opbase_str value) {
        *static_cast<std::optional<std::string>*>(ctx) = std::string(value.ptr, value.len);
      },
      &found);
  return found;
}

int64_t RouteCall::read(char* buffer, size_t capacity) {
  return api_.stream_read(stream_, buffer, capacity);
}

Status RouteCall::checked(opbase_rc rc, std::string_view what) {
  if (rc == OPBASE_RC_OK) return Status::ok();
  if (rc == OPBASE_RC_ERROR) answered_ = true;  // the answer began; the client went away
  if (rc == OPBASE_RC_ERROR)
    return Status::internal("the client is gone (" + std::string(what) + ")");
  return Status::internal("the host refused the route's " + std::string(what));
}

Status RouteCall::answer(opbase_rc rc, std::string_view what) {
  if (rc == OPBASE_RC_OK) answered_ = true;
  return checked(rc, what);
}

Status RouteCall::respond(int status, std::string_view content_type, std::string_view body,
                          const HeaderList& headers) {
  const std::string lines = header_lines(headers);
  return answer(api_.stream_respond(stream_, status, str(content_type), str(lines), str(body)),
                "answer");
}

Status RouteCall::respond_error(const Status& error, int http_status) {
  const std::string details = error.details().is_null() ? std::string() : error.details().dump();
  return answer(api_.stream_respond_error(stream_, str(error.code()), str(error.message()),
                                          str(details), http_status),
                "error");
}

Status RouteCall::start(int status, std::string_view content_type, uint64_t content_length,
                        const HeaderList& headers) {
  const std::string lines = header_lines(headers);
  return answer(api_.stream_start(stream_, status, str(content_type), str(lines), content_length),
                "response head");
}

Status RouteCall::write(std::string_view bytes) {
  return checked(api_.stream_write(stream_, str(bytes)), "body");
}

Status RouteCall::send_file(int fd, uint64_t offset, uint64_t length) {
  return checked(api_.stream_send_file(stream_, fd, offset, length), "file");
}

namespace {

HeldEnd held_end_of(opbase_held_end why) {
  switch (why) {
    case OPBASE_HELD_TOO_SLOW:
      return HeldEnd::kTooSlow;
    case OPBASE_HELD_CLOSED:
      return HeldEnd::kClosed;
    case OPBASE_HELD_SERVER_STOPPING:
      return HeldEnd::kServerStopping;
    case OPBASE_HELD_CLIENT_LEFT:
      break;
  }
  return HeldEnd::kClientLeft;
}

// The host calls it exactly once per held response, so it owns the callback it was given.
void call_on_end(void* state, opbase_held_end why) {
  std::unique_ptr<std::function<void(HeldEnd)>> on_end(
      static_cast<std::function<void(HeldEnd)>*>(state));
  if (*on_end) (*on_end)(held_end_of(why));
}

}  // namespace

std::unique_ptr<HeldStream> RouteCall::hold(int status, std::string_view content_type,
                                            HoldSettings settings, const HeaderList& headers) {
  if (api_.struct_size < offsetof(opbase_host_api, held_release) + sizeof(api_.held_release)) {
    respond_error(Status::internal("this host cannot hold a response open (ABI 1.4)"));
    return nullptr;
  }
  const std::string lines = header_lines(headers);
  auto on_end = std::make_unique<std::function<void(HeldEnd)>>(std::move(settings.on_end));
  opbase_held* held =
      api_.stream_hold(stream_, status, str(content_type), str(lines), settings.max_queued_bytes,
                       str(settings.too_slow_farewell), &call_on_end, on_end.get());
  answered_ = true;  // the host answered either way, or the client is gone
  if (held == nullptr) return nullptr;
  on_end.release();  // call_on_end's now
  return std::make_unique<HeldStream>(api_, held);
}

}  // namespace opbase

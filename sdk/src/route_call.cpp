#include "opbase/internal/str.hpp"
#include "opbase/route.hpp"

namespace opbase {
namespace {

std::string header_lines(const HeaderList& headers) {
  std::string lines;
  for (const auto& [name, value] : headers) lines += name + ": " + value + "\r\n";
  return lines;
}

}  // namespace

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

}  // namespace opbase

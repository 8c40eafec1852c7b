// FileRoute::download: GET and HEAD of a ready file (docs/api.md#downloads-from-the-daemon).
// On the local backend the bytes are sent from the file with sendfile, whole or one Range, with
// its SHA-256 as a strong ETag (If-None-Match answers 304), its name in Content-Disposition and
// its stored type, never sniffed (nosniff) nor able to run script on the daemon's origin
// (Content-Security-Policy: sandbox), but for script and style types, served as plain text so no
// page of this origin runs them (downloads/served_type.hpp). On s3 a public file's stable URL
// redirects to a fresh presigned one, as the bytes live in the store.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "downloads/byte_range.hpp"
#include "downloads/content_disposition.hpp"
#include "downloads/entity_tag.hpp"
#include "downloads/served_type.hpp"
#include "records/file_record.hpp"
#include "routes/file_route.hpp"
#include "routes/route_answers.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

// A file descriptor closed when it goes out of scope.
struct OpenFile {
  int fd = -1;
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
};

// The fields every answer about the file carries, 304 included. No Cross-Origin-Resource-Policy:
// it restricts other origins only, never the daemon's own (where an uploaded script would run),
// and same-origin or same-site would stop apps on other origins showing files in <img>, <video>
// or <audio>, public ones and those behind a download_url alike.
HeaderList file_headers(const json& record, const std::string& etag, bool is_public) {
  return {{"ETag", etag},
          {"Accept-Ranges", "bytes"},
          {"Cache-Control", is_public ? "public, max-age=60" : "private, max-age=60"},
          {"Content-Disposition", content_disposition(record.value("name", std::string("file")),
                                                      record.value("content_type", std::string()))},
          {"X-Content-Type-Options", "nosniff"},
          {"Content-Security-Policy", "sandbox"}};
}

// Sends `size` bytes of `fd`: the whole file or the one range asked for.
void send_bytes(RouteCall& call, int fd, int64_t size, const json& record, HeaderList headers) {
  const std::string etag = headers.front().second;
  // A HEAD answers as a GET without a Range would (RFC 9110 14.2: Range is for GET only).
  const auto range = call.method() == "GET" ? call.header("Range") : std::nullopt;
  const auto if_range = call.header("If-Range");
  RangeAnswer asked =
      if_range_allows(if_range ? std::optional<std::string_view>(*if_range) : std::nullopt, etag)
          ? read_byte_range(range ? std::optional<std::string_view>(*range) : std::nullopt, size)
          : RangeAnswer{};
  const std::string type =
      served_content_type(record.value("content_type", std::string("application/octet-stream")));
  if (asked.kind == RangeKind::kUnsatisfiable) {
    headers.emplace_back("Content-Range", unsatisfied_content_range(size));
    (void)call.respond(416, "", "", headers);
    return;
  }
  int status = 200;
  int64_t first = 0, length = size;
  if (asked.kind == RangeKind::kPartial) {
    status = 206;
    first = asked.range.first;
    length = asked.range.last - asked.range.first + 1;
    headers.emplace_back("Content-Range", content_range(asked.range, size));
  }
  if (!call.start(status, type, static_cast<uint64_t>(length), headers)) return;
  (void)call.send_file(fd, static_cast<uint64_t>(first), static_cast<uint64_t>(length));
}

}  // namespace

void FileRoute::download(RouteCall& call, const FileTarget& target, const json& record) const {
  const bool is_public = record.value("public", false);
  // A signed URL reaches a ready file; the bare path only a ready public one.
  if (record.value("state", "") != "ready" || (!target.claimed && !is_public)) {
    (void)call.respond_error(no_such_file(), 404);
    return;
  }
  if (folder_ == nullptr) {
    const int64_t now_s = host_.now_ms() / 1000;
    auto url = backend_.download_url(file_ref(target.project, record), now_s,
                                     now_s + settings_.download_url_ttl_s);
    if (!url) {
      (void)call.respond_error(url.status());
      return;
    }
    (void)call.respond(302, "", "", {{"Location", *url}, {"Cache-Control", "no-store"}});
    return;
  }
  const std::string etag = entity_tag(record.value("sha256", std::string()));
  HeaderList headers = file_headers(record, etag, is_public);
  if (const auto if_none_match = call.header("If-None-Match");
      if_none_match && !none_match(*if_none_match, etag)) {
    (void)call.respond(304, "", "", headers);
    return;
  }
  OpenFile file;
  const std::string path = folder_->path_of(target.project, target.key);
  file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat info {};
  if (file.fd < 0 || ::fstat(file.fd, &info) != 0) {
    // A ready record always has its bytes; missing ones were removed under it (a delete racing).
    (void)call.respond_error(no_such_file(), 404);
    return;
  }
  send_bytes(call, file.fd, info.st_size, record, std::move(headers));
}

}  // namespace opbase::file

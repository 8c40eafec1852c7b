// FileRoute::upload: PUT /files/<project>/<key>?expires&nonce&signature on the local backend.
// The upload is checked before a byte is kept (docs/api.md#uploads-to-the-daemon), then:
//   1. claim: the record's upload nonce is swapped for a busy mark, by one conditional update,
//      so of two PUTs with the same URL only one writes;
//   2. the body is streamed into a partial file while its SHA-256 is computed, in pieces of
//      kPiece bytes: memory stays flat whatever the size (1 MiB: a quarter of the system calls
//      of 256 KiB, and a 1 GiB upload at 0.57 of a loopback copy instead of 0.45);
//   3. all bytes there (and the declared SHA-256 matching): fsync, rename into place, and the
//      record notes what is stored and drops the nonce, which ends the URL's one use.
// A failure in 2 or 3 puts the nonce back, so the client may send again with the same URL until
// it expires; a crash leaves the mark, and the pending record is purged in time.
#include <memory>
#include <string>

#include "opbase/crypto.hpp"
#include "opbase/store_access.hpp"
#include "requests/file_fields.hpp"
#include "routes/file_route.hpp"
#include "routes/route_answers.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr size_t kPiece = 1024 * 1024;
constexpr std::string_view kBusy = "busy:";

// Whether the request's Content-Type is the presigned one, compared as the ops keep types:
// lowercase but for parameter values.
bool same_type(const std::optional<std::string>& sent, std::string_view presigned) {
  if (!sent) return false;
  auto read = read_content_type(json(*sent));
  return read && *read == presigned;
}

// The refusal of a PUT whose nonce is not the record's open one, or OK.
Status check_nonce(const json& record, std::string_view nonce_digest) {
  if (record.value("state", "") != "pending") {
    return url_refused("this upload URL was used already", "used");
  }
  const std::string kept = record.value("upload_nonce", "");
  if (kept.starts_with(kBusy) && constant_time_equal(kept.substr(kBusy.size()), nonce_digest)) {
    return Status(code::kValidationError, "an upload with this URL is in progress",
                  {{"reason", "in_progress"}});
  }
  if (!constant_time_equal(kept, nonce_digest))
    return url_refused("this upload URL was used already", "used");
  return Status::ok();
}

// What the request head must match: the presigned size and type.
Status check_head(const RouteCall& call, const json& record) {
  const int64_t size = record.value("size", int64_t{-1});
  if (static_cast<int64_t>(call.content_length()) != size) {
    return Status::validation("Content-Length must be the presigned size, " + std::to_string(size),
                              {{"reason", "size_mismatch"}, {"expected_size", size}});
  }
  if (!same_type(call.header("Content-Type"), record.value("content_type", ""))) {
    return upload_mismatch(
        "Content-Type must be the presigned " + record.value("content_type", std::string()),
        "content_type_mismatch");
  }
  return Status::ok();
}

// Streams the body into `partial`: OK once all of it is there.
Status receive(RouteCall& call, LocalFolder::Partial& partial) {
  std::unique_ptr<char[]> piece(new char[kPiece]);
  while (true) {
    const int64_t got = call.read(piece.get(), kPiece);
    if (got == 0) break;
    if (got < 0) return upload_mismatch("the upload ended before all its bytes arrived", "short");
    if (Status written = partial.write({piece.get(), static_cast<size_t>(got)}); !written) {
      return written;
    }
  }
  if (partial.size() != static_cast<int64_t>(call.content_length())) {
    return upload_mismatch("the upload ended before all its bytes arrived", "short");
  }
  return Status::ok();
}

}  // namespace

void FileRoute::upload(RouteCall& call, const FileTarget& target, const json& record) const {
  if (folder_ == nullptr) {
    refuse_method(call, upload_mismatch("uploads go to the object store", "backend"));
    return;
  }
  const std::string digest = sha256_hex(target.claimed->nonce);
  Status refused = check_nonce(record, digest);
  if (refused) refused = check_head(call, record);
  if (!refused) {
    (void)call.respond_error(refused,
                             refused.details().value("reason", "") == "in_progress" ? 409 : 0);
    return;
  }
  const json open = {{"_key", target.key}, {"state", "pending"}, {"upload_nonce", digest}};
  const json busy = {
      {"_key", target.key}, {"state", "pending"}, {"upload_nonce", std::string(kBusy) + digest}};
  auto claimed = update_matched(store_, target.project, "files", open,
                                set_fields({{"upload_nonce", busy["upload_nonce"]}}));
  if (!claimed || !*claimed) {
    (void)call.respond_error(
        claimed ? Status(code::kValidationError, "an upload with this URL is in progress",
                         {{"reason", "in_progress"}})
                : claimed.status(),
        claimed ? 409 : 0);
    return;
  }
  const auto give_back = [&] {
    (void)update_matched(store_, target.project, "files", busy,
                         set_fields({{"upload_nonce", digest}}));
  };

  auto partial = folder_->begin(target.project, target.key);
  Status kept = partial ? receive(call, **partial) : partial.status();
  std::string sha256;
  if (kept) {
    sha256 = (*partial)->sha256_hex();
    const std::string declared = record.value("sha256", json()).is_string()
                                     ? record["sha256"].get<std::string>()
                                     : std::string();
    if (!declared.empty() && declared != sha256) {
      kept = upload_mismatch("the bytes do not have the presigned sha256", "sha256_mismatch");
    }
  }
  if (kept) kept = (*partial)->commit();
  if (!kept) {
    give_back();
    (void)call.respond_error(kept);
    return;
  }
  store::Change noted =
      set_fields({{"stored", {{"size", (*partial)->size()}, {"sha256", sha256}}}});
  noted.unset = {"upload_nonce"};
  auto done = update_matched(store_, target.project, "files", busy, std::move(noted));
  if (!done || !*done) {
    // Reported failed or deleted while the bytes came: they are not kept.
    (void)folder_->remove(target.project, target.key);
    (void)call.respond_error(done ? no_such_file() : done.status(), done ? 404 : 0);
    return;
  }
  host_.count("uploaded_bytes_total", static_cast<double>((*partial)->size()));
  const json answer = {
      {"data", {{"_key", target.key}, {"size", (*partial)->size()}, {"sha256", sha256}}}};
  (void)call.respond(200, "application/json", answer.dump(), {{"ETag", "\"" + sha256 + "\""}});
}

}  // namespace opbase::file

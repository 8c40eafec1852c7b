// S3Client: the few requests the daemon sends an S3-compatible store itself, with the SDK's HTTP
// client (opbase/http_client.hpp), each signed with an Authorization header (sigv4.hpp's
// sign_request). Clients move a file's bytes through presigned URLs and never through here; the
// daemon only asks what is stored under a key (HEAD, after an upload, to check its size and
// digest) and removes objects (DELETE).
//
// Every request is bounded: 5 s to connect, 30 s in all. Redirects are not followed (a signed
// request would not hold at another address). A failure is INTERNAL_ERROR whose message names
// the method, the object's URL and what the store answered (its HTTP status, and its error code
// when the body has one); never the secret key, which leaves only through signatures.
//
// The time a request is signed with comes from the clock given at construction, so a test can
// sign as of any moment.
//
// Thread-safety: every method may be called from any thread, concurrently: each call uses its
// thread's handle of the HTTP client.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "s3/sigv4.hpp"

namespace opbase::file {

// Seconds since 1970 (UTC) now, the time requests are signed with.
using UnixClock = std::function<int64_t()>;

// The system's clock as a UnixClock.
int64_t system_unix_s();

// What a HEAD of an object tells.
struct ObjectHead {
  int64_t size = 0;
  std::string etag;  // as the store sent it, without its quotes; may be empty
  // Lowercase hex SHA-256 of the bytes, when the store keeps one: S3 and MinIO do for an object
  // uploaded with x-amz-checksum-sha256, and answer it as base64 in the same field.
  std::optional<std::string> sha256;
};

class S3Client {
 public:
  // `now_s` is called once per request.
  S3Client(S3Credentials credentials, S3Location location, UnixClock now_s = system_unix_s);

  // What is stored under `key` (not encoded), or nullopt when nothing is (404).
  Result<std::optional<ObjectHead>> head_object(std::string_view key) const;

  // Removes `key`. OK when it was there (204, 200) and when it was not (404).
  Status delete_object(std::string_view key) const;

 private:
  S3Credentials credentials_;
  S3Location location_;
  UnixClock now_s_;
};

}  // namespace opbase::file

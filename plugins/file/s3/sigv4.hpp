// AWS Signature Version 4 for Amazon S3 and S3-compatible stores (MinIO, Ceph RGW, s3rver), as
// the S3 API reference describes it (docs.aws.amazon.com/AmazonS3/latest/API/
// sig-v4-authenticating-requests.html). The file plugin's S3 backend signs two ways:
//   - presign_url: a URL a client uploads (PUT) or downloads (GET) with, the authentication in
//     its query string, so file bytes go between the client and the store without passing
//     through the daemon. An upload URL signs content-type (and content-length when given), so
//     the store refuses a client that sends anything other than what the daemon agreed to.
//   - sign_request: the Authorization header of a request the daemon sends itself with libcurl
//     (HEAD to check an upload's size, DELETE, GET).
// Both addressing styles: path-style (scheme://endpoint/bucket/key), which MinIO, s3rver and
// most custom endpoints need, and virtual-hosted (scheme://bucket.endpoint/key), AWS's own.
//
// The time is a parameter, never read here, so a signature is a function of its inputs alone.
// Nothing is logged; the secret key leaves only through the signature computed with it.
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "s3/uri_encoding.hpp"

namespace opbase::file {

struct S3Credentials {
  std::string access_key;
  std::string secret_key;
  // The signing region: "eu-west-1". MinIO and s3rver take "us-east-1" unless configured else.
  std::string region;
};

struct S3Location {
  // scheme://host[:port], nothing after it but an optional '/'. For example
  // "https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:9000", "http://[::1]:9000". A port
  // that is the scheme's default is left out of the URL and of the signed host, as clients leave
  // it out of the Host field they send.
  std::string endpoint;
  // 3 to 63 characters of a-z 0-9 . -, starting and ending with a letter or digit (S3's rule).
  std::string bucket;
  // true: https://endpoint/bucket/key. false: https://bucket.endpoint/key, which needs a DNS
  // name as the endpoint's host.
  bool path_style = true;
};

// The payload hash of a request whose body is not signed; presigned URLs always use it.
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
// SHA-256 of no bytes: the payload hash of HEAD, GET and DELETE.
inline constexpr std::string_view kEmptyPayloadSha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
// S3's bounds on a presigned URL's lifetime: one second to seven days.
inline constexpr int64_t kMinExpirySeconds = 1;
inline constexpr int64_t kMaxExpirySeconds = 604'800;
// S3's longest object key, in UTF-8 bytes.
inline constexpr size_t kMaxKeyBytes = 1024;

// What a presigned URL lets its holder do, and until when.
struct UrlToPresign {
  std::string method{};  // "PUT" to upload, "GET" to download
  // The object's key as stored, not encoded: "avatars/été 1.png". Not empty; no segment may be
  // "." or "..", which clients collapse before sending and so would break the signature.
  std::string key{};
  int64_t now_unix_s = 0;  // when the URL is made; it works until now_unix_s + expires_s
  int64_t expires_s = 0;   // kMinExpirySeconds..kMaxExpirySeconds
  // Header fields the client must send with exactly these values: {"content-type",
  // "image/png"}, {"content-length", "5120"}. Names in any case; host is always signed and must
  // not be given.
  NameValues headers{};
  // Query parameters signed with the URL, not encoded: {"response-content-disposition",
  // "attachment; filename=\"a.pdf\""}, {"response-content-type", "application/pdf"}.
  NameValues query{};
};

struct PresignedUrl {
  std::string url;  // whole, ready to give to a client
  // What was signed. When a store answers SignatureDoesNotMatch it sends its own
  // CanonicalRequest and StringToSign, to compare with these. Neither holds the secret key.
  std::string canonical_request;
  std::string string_to_sign;
};

// The presigned URL of `request` (query-string authentication: X-Amz-Algorithm,
// X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders, X-Amz-Signature, payload
// UNSIGNED-PAYLOAD). VALIDATION_ERROR, details.field naming the input, for: an empty access key,
// secret key or region, or one with '/', a space or a control character; an endpoint or bucket
// other than described in S3Location; virtual-hosted addressing on an IP address ("path_style");
// a key that is empty, longer than kMaxKeyBytes or has a "." or ".." segment; a method that is not
// uppercase letters; a time before 1970 or after 9999 ("now"); an expiry out of bounds; a header
// name that is not an HTTP token, is given twice or is host, a header value with a control
// character (CR, LF); a query parameter without a name or named like one of the X-Amz-*
// parameters above. Messages never hold the secret key. Throws std::runtime_error only when
// OpenSSL fails.
Result<PresignedUrl> presign_url(const S3Credentials& credentials, const S3Location& location,
                                 const UrlToPresign& request);

// A request the daemon sends itself.
struct RequestToSign {
  std::string method{};  // "HEAD", "DELETE", "GET", "PUT" ...
  // The object's key as stored, not encoded; empty for a request on the bucket (a listing).
  std::string key{};
  NameValues query{};  // not encoded: {"prefix", "J"}, {"lifecycle", ""}
  // Header fields to sign and send besides host, x-amz-date and x-amz-content-sha256, which
  // are added here: {"range", "bytes=0-9"}, {"content-type", "text/plain"}.
  NameValues headers{};
  // Lowercase hex SHA-256 of the body (opbase/crypto.hpp's sha256_hex), or kUnsignedPayload.
  std::string payload_sha256 = std::string(kEmptyPayloadSha256);
  int64_t now_unix_s = 0;
};

struct SignedRequest {
  std::string url;
  // The fields to send, as they are: the signed ones (names lowercase, sorted; host among them,
  // which curl would derive alike from the URL), then authorization.
  NameValues headers;
  // What was signed; see PresignedUrl.
  std::string canonical_request;
  std::string string_to_sign;
};

// `request` signed with an Authorization header ("AWS4-HMAC-SHA256 Credential=<access key>/
// <date>/<region>/s3/aws4_request,SignedHeaders=...,Signature=...", the form of the S3 API
// reference's examples). VALIDATION_ERROR as for presign_url (an empty key is allowed; the
// headers may not name host, x-amz-date, x-amz-content-sha256 or authorization), and for a
// payload_sha256 that is neither 64 lowercase hex digits nor kUnsignedPayload. Throws
// std::runtime_error only when OpenSSL fails.
Result<SignedRequest> sign_request(const S3Credentials& credentials, const S3Location& location,
                                   const RequestToSign& request);

}  // namespace opbase::file

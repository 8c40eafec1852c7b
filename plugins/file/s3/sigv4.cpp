// AWS Signature Version 4 for S3 (sigv4.hpp): the inputs checked, the request's address worked
// out from endpoint, bucket and key, then the four steps of the S3 API reference: canonical
// request, string to sign, signing key, signature.
#include "s3/sigv4.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <initializer_list>
#include <string>
#include <utility>

#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "opbase/hex.hpp"

namespace opbase::file {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::string_view kService = "s3";
constexpr std::string_view kScopeEnd = "aws4_request";
// 9999-12-31T23:59:59Z: X-Amz-Date has four digits for the year.
constexpr int64_t kLastSignableSecond = 253'402'300'799;
// The query parameters of query-string authentication; a caller's parameter may not be one.
constexpr std::array<std::string_view, 6> kPresignParams = {
    "X-Amz-Algorithm", "X-Amz-Credential",    "X-Amz-Date",
    "X-Amz-Expires",   "X-Amz-SignedHeaders", "X-Amz-Signature"};

Status refuse(std::string_view field, std::string message) {
  return field_error(field, std::move(message));
}

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) { return ascii_lower(c); });
  return out;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ascii_lower(a) == ascii_lower(b);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || is_digit(c); }
bool is_alnum(char c) { return is_lower_alnum(ascii_lower(c)); }
bool is_hex_digit(char c) {
  return is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'f');
}
bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

// ---- Inputs shared by both ways of signing ----------------------------------------------------

// Non-empty text that can sit between the '/' of a credential scope.
bool is_scope_part(std::string_view text) {
  return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    return c == '/' || c == ' ' || is_control(c);
  });
}

Status check_credentials(const S3Credentials& credentials) {
  if (!is_scope_part(credentials.access_key)) {
    return refuse("access_key",
                  "the access key is empty or holds '/', a space or a control character");
  }
  if (credentials.secret_key.empty()) return refuse("secret_key", "the secret key is empty");
  if (!is_scope_part(credentials.region)) {
    return refuse("region", "the region is empty or holds '/', a space or a control character");
  }
  return Status::ok();
}

Status check_method(std::string_view method) {
  const bool upper =
      std::all_of(method.begin(), method.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  if (method.empty() || !upper) return refuse("method", "the method must be uppercase letters");
  return Status::ok();
}

Status check_time(int64_t now_unix_s) {
  if (now_unix_s < 0 || now_unix_s > kLastSignableSecond) {
    return refuse("now", "the time must be between 1970 and 9999");
  }
  return Status::ok();
}

// Clients (curl, browsers) remove "." and ".." segments from a URL's path before sending it, so
// the store would check the signature against another path than the one signed.
bool has_dot_segment(std::string_view key) {
  size_t start = 0;
  while (true) {
    const size_t end = std::min(key.find('/', start), key.size());
    const std::string_view segment = key.substr(start, end - start);
    if (segment == "." || segment == "..") return true;
    if (end == key.size()) return false;
    start = end + 1;
  }
}

Status check_key(std::string_view key, bool may_be_empty) {
  if (key.empty() && !may_be_empty) return refuse("key", "the key is empty");
  if (key.size() > kMaxKeyBytes) return refuse("key", "the key is longer than 1024 bytes");
  if (has_dot_segment(key)) return refuse("key", "the key has a \".\" or \"..\" segment");
  return Status::ok();
}

Status check_common(const S3Credentials& credentials, std::string_view method, int64_t now_unix_s,
                    std::string_view key, bool key_may_be_empty) {
  for (const Status& status : {check_credentials(credentials), check_method(method),
                               check_time(now_unix_s), check_key(key, key_may_be_empty)}) {
    if (!status) return status;
  }
  return Status::ok();
}

// ---- Where a request goes ---------------------------------------------------------------------

struct Endpoint {
  std::string scheme;  // "http" or "https"
  std::string host;    // a lowercase name, an IPv4 address, or an IPv6 address in brackets
  std::string port;    // decimal; empty when it is the scheme's default
  bool host_is_name = true;
};

Status refuse_endpoint(std::string_view why) {
  return refuse("endpoint", "the endpoint must be http(s)://host[:port]: " + std::string(why));
}

// `port` as written after ':' into endpoint->port, the scheme's default left out.
Status read_port(std::string_view port, Endpoint* endpoint) {
  if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), is_digit)) {
    return refuse_endpoint("the port is not a number");
  }
  const int number = std::stoi(std::string(port));
  if (number < 1 || number > 65535) return refuse_endpoint("the port is out of range");
  const int default_port = endpoint->scheme == "https" ? 443 : 80;
  endpoint->port = number == default_port ? "" : std::to_string(number);
  return Status::ok();
}

// "[::1]" or "[::1]:9000".
Status read_ipv6_authority(std::string_view authority, Endpoint* endpoint) {
  const size_t close = authority.find(']');
  if (close == std::string_view::npos) return refuse_endpoint("an IPv6 address lacks its ']'");
  const std::string_view address = authority.substr(1, close - 1);
  const bool plausible =
      !address.empty() && std::all_of(address.begin(), address.end(), [](char c) {
        return is_hex_digit(c) || c == ':' || c == '.';
      });
  if (!plausible) return refuse_endpoint("the IPv6 address is malformed");
  endpoint->host = "[" + ascii_lower(address) + "]";
  endpoint->host_is_name = false;
  const std::string_view after = authority.substr(close + 1);
  if (after.empty()) return Status::ok();
  if (after.front() != ':') return refuse_endpoint("text follows the IPv6 address");
  return read_port(after.substr(1), endpoint);
}

// "s3.amazonaws.com", "127.0.0.1:9000".
Status read_name_authority(std::string_view authority, Endpoint* endpoint) {
  const size_t colon = authority.find(':');
  const std::string_view host = authority.substr(0, colon);
  const bool plausible = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return is_alnum(c) || c == '.' || c == '-';
  });
  if (!plausible) return refuse_endpoint("the host is empty or not a name or an address");
  endpoint->host = ascii_lower(host);
  endpoint->host_is_name =
      !std::all_of(host.begin(), host.end(), [](char c) { return is_digit(c) || c == '.'; });
  if (colon == std::string_view::npos) return Status::ok();
  return read_port(authority.substr(colon + 1), endpoint);
}

Result<Endpoint> parse_endpoint(std::string_view text) {
  const size_t separator = text.find("://");
  if (separator == std::string_view::npos) return refuse_endpoint("no scheme");
  Endpoint endpoint;
  endpoint.scheme = ascii_lower(text.substr(0, separator));
  if (endpoint.scheme != "http" && endpoint.scheme != "https") {
    return refuse_endpoint("the scheme is neither http nor https");
  }
  std::string_view authority = text.substr(separator + 3);
  if (!authority.empty() && authority.back() == '/') authority.remove_suffix(1);
  if (authority.find_first_of("/?#@") != std::string_view::npos) {
    return refuse_endpoint("it has a user, a path, a query or a fragment");
  }
  const Status status = !authority.empty() && authority.front() == '['
                            ? read_ipv6_authority(authority, &endpoint)
                            : read_name_authority(authority, &endpoint);
  if (!status) return status;
  return endpoint;
}

bool is_valid_bucket(std::string_view bucket) {
  return bucket.size() >= 3 && bucket.size() <= 63 && is_lower_alnum(bucket.front()) &&
         is_lower_alnum(bucket.back()) && std::all_of(bucket.begin(), bucket.end(), [](char c) {
           return is_lower_alnum(c) || c == '.' || c == '-';
         });
}

// Where one request goes: the URL up to its query is origin + path.
struct Target {
  std::string origin;  // "https://examplebucket.s3.amazonaws.com"
  std::string host;    // the Host field: host[:port]
  std::string path;    // encoded: "/test.txt", "/uploads/a%20b.png"
};

Result<Target> target_of(const S3Location& location, std::string_view key) {
  Result<Endpoint> endpoint = parse_endpoint(location.endpoint);
  if (!endpoint) return endpoint.status();
  if (!is_valid_bucket(location.bucket)) {
    return refuse("bucket", "the bucket name must be 3 to 63 of a-z 0-9 . - (S3's rule)");
  }
  std::string host = endpoint->host;
  std::string path = "/" + uri_encode(key, Slash::kKeep);
  if (location.path_style) {
    path = "/" + location.bucket + (key.empty() ? "" : path);
  } else if (endpoint->host_is_name) {
    host = location.bucket + "." + host;
  } else {
    return refuse("path_style", "virtual-hosted addressing needs a DNS name as endpoint host");
  }
  if (!endpoint->port.empty()) host += ":" + endpoint->port;
  return Target{endpoint->scheme + "://" + host, host, path};
}

// ---- Header fields ----------------------------------------------------------------------------

// An HTTP token (RFC 9110 section 5.6.2).
bool is_token(std::string_view name) {
  static constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return is_alnum(c) || kSymbols.find(c) != std::string_view::npos;
  });
}

// Leading and trailing spaces trimmed, runs of spaces made one: the form S3 signs on its side.
std::string canonical_value(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The caller's fields as they are signed and sent: names lowercase, values canonical_value.
// Refused: a name that is not a token, is given twice or is one this module sets (`reserved`),
// and a value with a control character (CR or LF would split the field in two).
Result<NameValues> canonical_headers(const NameValues& given,
                                     std::initializer_list<std::string_view> reserved) {
  NameValues headers;
  for (const auto& [name, value] : given) {
    std::string lower = ascii_lower(name);
    if (!is_token(lower)) return refuse("headers", "a header name is not an HTTP token");
    if (std::find(reserved.begin(), reserved.end(), lower) != reserved.end()) {
      return refuse("headers", "the header " + lower + " is set by the signer");
    }
    const bool repeated = std::any_of(headers.begin(), headers.end(),
                                      [&](const auto& kept) { return kept.first == lower; });
    if (repeated) return refuse("headers", "the header " + lower + " is given twice");
    if (std::any_of(value.begin(), value.end(), is_control)) {
      return refuse("headers", "the value of " + lower + " holds a control character");
    }
    headers.emplace_back(std::move(lower), canonical_value(value));
  }
  return headers;
}

void sort_by_name(NameValues* headers) {
  std::sort(headers->begin(), headers->end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

// "host;range;x-amz-date": the names of sorted fields.
std::string signed_header_names(const NameValues& headers) {
  std::string names;
  for (const auto& field : headers) {
    if (!names.empty()) names += ';';
    names += field.first;
  }
  return names;
}

Status check_query(const NameValues& query, bool presigned) {
  for (const auto& param : query) {
    if (param.first.empty()) return refuse("query", "a query parameter has no name");
    if (!presigned) continue;
    for (std::string_view reserved : kPresignParams) {
      if (equals_ignoring_case(param.first, reserved)) {
        return refuse("query", "the parameter " + std::string(reserved) + " is set by the signer");
      }
    }
  }
  return Status::ok();
}

// ---- The signature ----------------------------------------------------------------------------

// "20130524T000000Z". Its first 8 characters are the date of the credential scope.
std::string amz_date(int64_t unix_s) {
  const auto seconds = static_cast<std::time_t>(unix_s);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[80];
  std::snprintf(text, sizeof text, "%04d%02d%02dT%02d%02d%02dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
  return text;
}

// "20130524/us-east-1/s3/aws4_request".
std::string credential_scope(std::string_view amz_date, std::string_view region) {
  std::string scope(amz_date.substr(0, 8));
  scope += '/';
  scope += region;
  scope += '/';
  scope += kService;
  scope += '/';
  scope += kScopeEnd;
  return scope;
}

struct CanonicalRequest {
  std::string_view method;
  std::string_view path;
  std::string_view query;
  const NameValues& headers;  // sorted by name
  std::string_view payload_hash;
};

std::string canonical_request_text(const CanonicalRequest& request) {
  std::string text;
  for (std::string_view line : {request.method, request.path, request.query}) {
    text += line;
    text += '\n';
  }
  for (const auto& [name, value] : request.headers) text += name + ':' + value + '\n';
  text += '\n' + signed_header_names(request.headers) + '\n';
  text += request.payload_hash;
  return text;
}

struct Signature {
  std::string canonical_request;
  std::string string_to_sign;
  std::string hex;
};

Signature sign(const S3Credentials& credentials, std::string_view amz_date,
               const CanonicalRequest& request) {
  Signature signature;
  signature.canonical_request = canonical_request_text(request);
  signature.string_to_sign = std::string(kAlgorithm) + '\n' + std::string(amz_date) + '\n' +
                             credential_scope(amz_date, credentials.region) + '\n' +
                             sha256_hex(signature.canonical_request);
  // The signing key: the secret narrowed to this day, region, service and request kind.
  std::string key = hmac_sha256("AWS4" + credentials.secret_key, amz_date.substr(0, 8));
  key = hmac_sha256(key, credentials.region);
  key = hmac_sha256(key, kService);
  key = hmac_sha256(key, kScopeEnd);
  signature.hex = hex_encode(hmac_sha256(key, signature.string_to_sign));
  return signature;
}

bool is_payload_hash(std::string_view hash) {
  if (hash == kUnsignedPayload) return true;
  return hash.size() == 64 && std::all_of(hash.begin(), hash.end(), [](char c) {
           return is_digit(c) || (c >= 'a' && c <= 'f');
         });
}

// The query of a presigned URL before its signature: the caller's parameters and the
// authentication ones.
NameValues presign_params(const S3Credentials& credentials, const UrlToPresign& request,
                          std::string_view amz_date, std::string_view signed_headers) {
  NameValues params = request.query;
  params.emplace_back("X-Amz-Algorithm", kAlgorithm);
  params.emplace_back("X-Amz-Credential", credentials.access_key + '/' +
                                              credential_scope(amz_date, credentials.region));
  params.emplace_back("X-Amz-Date", amz_date);
  params.emplace_back("X-Amz-Expires", std::to_string(request.expires_s));
  params.emplace_back("X-Amz-SignedHeaders", signed_headers);
  return params;
}

// "AWS4-HMAC-SHA256 Credential=<access key>/<scope>,SignedHeaders=<names>,Signature=<hex>".
std::string authorization(const S3Credentials& credentials, std::string_view amz_date,
                          const NameValues& signed_headers, std::string_view signature_hex) {
  return std::string(kAlgorithm) + " Credential=" + credentials.access_key + '/' +
         credential_scope(amz_date, credentials.region) +
         ",SignedHeaders=" + signed_header_names(signed_headers) +
         ",Signature=" + std::string(signature_hex);
}

}  // namespace

Result<PresignedUrl> presign_url(const S3Credentials& credentials, const S3Location& location,
                                 const UrlToPresign& request) {
  if (Status status = check_common(credentials, request.method, request.now_unix_s, request.key,
                                   /*key_may_be_empty=*/false);
      !status) {
    return status;
  }
  if (request.expires_s < kMinExpirySeconds || request.expires_s > kMaxExpirySeconds) {
    return refuse("expires_s", "the expiry must be 1 to 604800 seconds");
  }
  if (Status status = check_query(request.query, /*presigned=*/true); !status) return status;
  Result<Target> target = target_of(location, request.key);
  if (!target) return target.status();
  Result<NameValues> headers = canonical_headers(request.headers, {"host"});
  if (!headers) return headers.status();
  headers->emplace_back("host", target->host);
  sort_by_name(&*headers);

  const std::string date = amz_date(request.now_unix_s);
  const std::string query =
      canonical_query(presign_params(credentials, request, date, signed_header_names(*headers)));
  Signature signature =
      sign(credentials, date, {request.method, target->path, query, *headers, kUnsignedPayload});
  return PresignedUrl{
      target->origin + target->path + '?' + query + "&X-Amz-Signature=" + signature.hex,
      std::move(signature.canonical_request), std::move(signature.string_to_sign)};
}

Result<SignedRequest> sign_request(const S3Credentials& credentials, const S3Location& location,
                                   const RequestToSign& request) {
  if (Status status = check_common(credentials, request.method, request.now_unix_s, request.key,
                                   /*key_may_be_empty=*/true);
      !status) {
    return status;
  }
  if (!is_payload_hash(request.payload_sha256)) {
    return refuse("payload_sha256", "the payload hash is neither hex SHA-256 nor UNSIGNED-PAYLOAD");
  }
  if (Status status = check_query(request.query, /*presigned=*/false); !status) return status;
  Result<Target> target = target_of(location, request.key);
  if (!target) return target.status();
  Result<NameValues> headers = canonical_headers(
      request.headers, {"host", "x-amz-date", "x-amz-content-sha256", "authorization"});
  if (!headers) return headers.status();

  const std::string date = amz_date(request.now_unix_s);
  headers->emplace_back("host", target->host);
  headers->emplace_back("x-amz-content-sha256", request.payload_sha256);
  headers->emplace_back("x-amz-date", date);
  sort_by_name(&*headers);
  const std::string query = canonical_query(request.query);
  Signature signature = sign(
      credentials, date, {request.method, target->path, query, *headers, request.payload_sha256});

  SignedRequest signed_request{target->origin + target->path + (query.empty() ? "" : "?" + query),
                               std::move(*headers), std::move(signature.canonical_request),
                               std::move(signature.string_to_sign)};
  signed_request.headers.emplace_back(
      "authorization", authorization(credentials, date, signed_request.headers, signature.hex));
  return signed_request;
}

}  // namespace opbase::file

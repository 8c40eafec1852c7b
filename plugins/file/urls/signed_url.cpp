#include "urls/signed_url.hpp"

#include <charconv>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::file {

namespace {

constexpr std::string_view kPrefix = "/files/";
constexpr size_t kMaxName = 64;           // a project id, a key, a nonce
constexpr size_t kSignatureLength = 43;   // base64url of 32 bytes, no padding
constexpr size_t kMaxExpiresDigits = 12;  // seconds: far past any real expiry

// Project ids are lowercase; keys and nonces may hold uppercase too. None needs percent-encoding.
bool is_name(std::string_view text) {
  if (text.empty() || text.size() > kMaxName) return false;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// The text the signature covers: every field, each on its own line (none may hold a line break),
// after a label naming this use of the secret.
std::string signed_text(const UrlGrant& grant) {
  std::string text = "opbase-file-url-v1\n";
  text += grant.purpose == UrlPurpose::kUpload ? "upload" : "download";
  const std::string expires = std::to_string(grant.expires_s);
  for (const std::string* part : {&grant.project, &grant.key, &expires, &grant.nonce}) {
    text += '\n';
    text += *part;
  }
  return text;
}

std::string signature_of(const UrlGrant& grant, std::string_view secret) {
  return base64url_encode(hmac_sha256(secret, signed_text(grant)));
}

Status malformed(std::string message, std::string_view reason) {
  return Status::validation(std::move(message), {{"reason", reason}});
}

// One name=value of the query into `target`; `seen` marks which were read.
Status read_parameter(std::string_view pair, FileTarget& target, int& seen) {
  const size_t equals = pair.find('=');
  if (equals == std::string_view::npos)
    return malformed("a query parameter has no value", "malformed");
  const std::string_view name = pair.substr(0, equals), value = pair.substr(equals + 1);
  UrlGrant& grant = *target.claimed;
  const auto once = [&](int bit) {
    if (seen & bit) return false;
    seen |= bit;
    return true;
  };
  if (name == "expires") {
    if (!once(1) || value.empty() || value.size() > kMaxExpiresDigits) {
      return malformed("expires must be given once, in seconds", "bad_expires");
    }
    const auto [end, error] =
        std::from_chars(value.data(), value.data() + value.size(), grant.expires_s);
    if (error != std::errc() || end != value.data() + value.size() || grant.expires_s < 0) {
      return malformed("expires must be given once, in seconds", "bad_expires");
    }
  } else if (name == "nonce") {
    if (!once(2) || (!value.empty() && !is_name(value))) {
      return malformed("nonce must be given once, of letters, digits, '_' and '-'", "bad_nonce");
    }
    grant.nonce = value;
  } else if (name == "signature") {
    if (!once(4) || value.size() != kSignatureLength || !base64url_decode(value)) {
      return malformed("signature must be given once, as 43 base64url characters", "bad_signature");
    }
    target.signature = value;
  } else {
    return malformed("unknown query parameter '" + std::string(name.substr(0, 32)) + "'",
                     "unknown_parameter");
  }
  return Status::ok();
}

Status read_query(std::string_view query, FileTarget& target) {
  int seen = 0;
  while (true) {
    const size_t amp = query.find('&');
    if (Status read = read_parameter(query.substr(0, amp), target, seen); !read.is_ok()) {
      return read;
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  if (seen != 7) return malformed("a signed URL has expires, nonce and signature", "incomplete");
  return Status::ok();
}

}  // namespace

std::string public_target(std::string_view project, std::string_view key) {
  return std::string(kPrefix) + std::string(project) + "/" + std::string(key);
}

std::string signed_target(const UrlGrant& grant, std::string_view secret) {
  return public_target(grant.project, grant.key) + "?expires=" + std::to_string(grant.expires_s) +
         "&nonce=" + grant.nonce + "&signature=" + signature_of(grant, secret);
}

Result<FileTarget> read_file_target(std::string_view method, std::string_view target) {
  const bool upload = method == "PUT";
  if (!upload && method != "GET" && method != "HEAD") {
    return malformed("the files route takes PUT, GET and HEAD", "method");
  }
  const size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  if (!path.starts_with(kPrefix)) return malformed("not a files path", "path");
  path.remove_prefix(kPrefix.size());
  const size_t slash = path.find('/');
  if (slash == std::string_view::npos)
    return malformed("a files path is /files/<project>/<key>", "path");
  FileTarget read;
  read.project = path.substr(0, slash);
  read.key = path.substr(slash + 1);
  if (!is_name(read.project) || !is_name(read.key)) {
    return malformed("a files path is /files/<project>/<key>", "path");
  }
  if (question == std::string_view::npos) {
    if (upload) return malformed("an upload needs a signed URL", "unsigned_upload");
    return read;
  }
  read.claimed =
      UrlGrant{upload ? UrlPurpose::kUpload : UrlPurpose::kDownload, read.project, read.key, 0, ""};
  if (Status query = read_query(target.substr(question + 1), read); !query.is_ok()) return query;
  if (upload && read.claimed->nonce.empty())
    return malformed("an upload URL has a nonce", "bad_nonce");
  return read;
}

bool signature_holds(const FileTarget& target, std::string_view secret) {
  if (!target.claimed || target.signature.size() != kSignatureLength) return false;
  const std::string expected = signature_of(*target.claimed, secret);
  return constant_time_equal(expected, target.signature);
}

}  // namespace opbase::file

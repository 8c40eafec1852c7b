#include "settings.hpp"

#include <string>

namespace opbase::file {
namespace {

Status bad(std::string_view key, std::string message) {
  return Status::validation(std::string(key) + " " + std::move(message), {{"key", key}});
}

Status read_backend(const Host& host, FileSettings& s) {
  const std::string backend = host.config_or("files.backend", "local");
  if (backend == "local") {
    s.backend = FileSettings::Backend::kLocal;
  } else if (backend == "s3") {
    s.backend = FileSettings::Backend::kS3;
  } else {
    return bad("files.backend", "must be local or s3, not '" + backend + "'");
  }
  return Status::ok();
}

Status read_url(const Host& host, std::string_view key, std::string& out) {
  out = host.config_or(key, "");
  while (out.ends_with('/')) out.pop_back();
  if (!out.empty() && !out.starts_with("http://") && !out.starts_with("https://")) {
    return bad(key, "must be an http:// or https:// address");
  }
  return Status::ok();
}

Status read_s3(const Host& host, S3Settings& s3) {
  if (Status st = read_url(host, "files.s3.endpoint", s3.endpoint); !st) return st;
  s3.region = host.config_or("files.s3.region", s3.region);
  s3.bucket = host.config_or("files.s3.bucket", "");
  s3.access_key = host.config_or("files.s3.access_key", "");
  s3.secret_key = host.config_or("files.s3.secret_key", "");
  s3.prefix = host.config_or("files.s3.prefix", "");
  const std::string path_style = host.config_or("files.s3.path_style", "true");
  if (path_style != "true" && path_style != "false") {
    return bad("files.s3.path_style", "must be true or false");
  }
  s3.path_style = path_style == "true";
  for (const auto& [key, value] : {std::pair{"files.s3.endpoint", &s3.endpoint},
                                   {"files.s3.bucket", &s3.bucket},
                                   {"files.s3.access_key", &s3.access_key},
                                   {"files.s3.secret_key", &s3.secret_key}}) {
    if (value->empty()) return bad(key, "must be set when files.backend = s3");
  }
  return Status::ok();
}

}  // namespace

Result<FileSettings> FileSettings::from(const Host& host) {
  FileSettings s;
  if (Status st = read_backend(host, s); !st) return st;
  struct Range {
    const char* key;
    int64_t min, max;
    int64_t* target;
  };
  for (const Range& r :
       {Range{"files.max_size", 1, int64_t{1} << 42, &s.max_size},
        {"files.pending_ttl_s", 1, 365 * 86'400, &s.pending_ttl_s},
        {"files.purge_interval_s", 1, 86'400, &s.purge_interval_s},
        {"files.upload_url_ttl_s", 1, 7 * 86'400, &s.upload_url_ttl_s},
        {"files.download_url_ttl_s", 1, 7 * 86'400, &s.download_url_ttl_s},
        {"files.quota.bytes_per_user", 1, int64_t{1} << 50, &s.quota_bytes_per_user},
        {"files.quota.files_per_user", 1, 1'000'000'000, &s.quota_files_per_user}}) {
    auto value = host.config_int_in(r.key, *r.target, r.min, r.max);
    if (!value) return value.status();
    *r.target = *value;
  }
  if (Status st = read_url(host, "files.public_url", s.public_url); !st) return st;
  if (s.backend == Backend::kS3) {
    if (Status st = read_s3(host, s.s3); !st) return st;
  }
  return s;
}

}  // namespace opbase::file

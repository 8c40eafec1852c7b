// FileSettings: the file plugin's configuration keys (docs/configuration.md#files), read once
// at start; a bad value stops the start with a message naming the key.
//   files.backend               local (bytes in a folder under storage.path, through the
//                               daemon's /files/ route) or s3 (any S3-compatible store)
//   files.max_size              the largest file, bytes, default 5 GiB
//   files.pending_ttl_s         a pending upload older than this is purged with its bytes,
//                               default 86400
//   files.purge_interval_s      how often stale uploads and deleted files' leftovers are
//                               purged, default 60
//   files.upload_url_ttl_s      how long an upload URL works, default 900
//   files.download_url_ttl_s    how long a download URL works, default 900
//   files.quota.bytes_per_user  bytes one user may keep (ready and pending), default 10 GiB
//   files.quota.files_per_user  files one user may keep, default 100000
//   files.public_url            the address clients reach the daemon at, for the local
//                               backend's URLs (https://files.example.com); default: the
//                               daemon's own http://<server.host>:<port>
//   files.s3.endpoint, files.s3.region, files.s3.bucket, files.s3.access_key,
//   files.s3.secret_key, files.s3.path_style (true for MinIO, Ceph, custom endpoints),
//   files.s3.prefix             the object store, on files.backend = s3
//
// Thread-safety: a plain value.
#pragma once

#include <cstdint>
#include <string>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::file {

struct S3Settings {
  std::string endpoint;  // https://s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000
  std::string region = "us-east-1";
  std::string bucket;
  std::string access_key;
  std::string secret_key;
  bool path_style = true;
  std::string prefix;  // put before every object's name, e.g. "opbase/"
};

struct FileSettings {
  enum class Backend { kLocal, kS3 };
  Backend backend = Backend::kLocal;
  int64_t max_size = int64_t{5} << 30;
  int64_t pending_ttl_s = 86'400;
  int64_t purge_interval_s = 60;
  int64_t upload_url_ttl_s = 900;
  int64_t download_url_ttl_s = 900;
  int64_t quota_bytes_per_user = int64_t{10} << 30;
  int64_t quota_files_per_user = 100'000;
  std::string public_url;  // no trailing '/'; empty: the daemon's own address
  S3Settings s3;

  static Result<FileSettings> from(const Host& host);
};

}  // namespace opbase::file

// S3Backend (files.backend = s3): a file's bytes as one object in an S3-compatible store (AWS S3,
// MinIO, Ceph RGW, s3rver), under files.s3.prefix + project + "/" + record key. Clients upload
// and download with presigned URLs, so the bytes never pass through the daemon; the daemon itself
// only asks the store what an object holds (HEAD) and removes objects (DELETE), with S3Client.
//
// An upload URL is a presigned PUT that signs the header fields the client must send with it:
// Content-Type (the record's), Content-Length (its declared size) and, when the record declares
// a SHA-256, x-amz-checksum-sha256 (that digest, base64). A client that sends another type,
// another length or another digest breaks the signature, and the store refuses the upload (403).
// A store that checks checksums (AWS S3, MinIO) also refuses bytes whose digest is not the
// declared one (400 BadDigest) and answers that digest in HEAD; one that does not (s3rver) keeps
// the bytes as sent, and stored() then knows no digest. The URL works any number of times until
// it expires; the record's one-use nonce is the local backend's and is not used here.
//
// A download URL is a presigned GET that makes the store answer the record's content type and
// the Content-Disposition the local route sends (downloads/content_disposition.hpp): the
// record's name, and inline only for types a browser shows without running anything.
//
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "backends/file_backend.hpp"
#include "s3/s3_client.hpp"
#include "s3/sigv4.hpp"
#include "settings.hpp"

namespace opbase::file {

class S3Backend final : public FileBackend {
 public:
  // `now_s` is the time stored() and remove() sign their requests with; upload_ticket() and
  // download_url() sign as of the now_s they are given.
  explicit S3Backend(const S3Settings& settings, UnixClock now_s = system_unix_s);

  Result<UploadTicket> upload_ticket(const FileRef& file, std::string_view nonce, int64_t now_s,
                                     int64_t expires_s) const override;
  Result<std::string> download_url(const FileRef& file, int64_t now_s,
                                   int64_t expires_s) const override;
  Result<std::optional<StoredBytes>> stored(const FileRef& file) const override;
  Status remove(const FileRef& file) const override;

  // Where `file`'s bytes are in the bucket: files.s3.prefix + project + "/" + key.
  std::string object_key(const FileRef& file) const;

 private:
  Result<std::string> presign(UrlToPresign request, int64_t now_s, int64_t expires_s) const;

  S3Credentials credentials_;
  S3Location location_;
  std::string prefix_;
  S3Client client_;
};

}  // namespace opbase::file

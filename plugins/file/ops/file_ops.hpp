// FileOps: the six file.* ops (docs/api.md#files) over the records in the project's store (the
// plugin's collection "files") and a FileBackend for the bytes.
//   presign_upload   checks the file, counts it against the user's quota, keeps a pending
//                    record and answers the URL to send the bytes to;
//   finalize_upload  checks the backend holds the declared bytes, then makes the record ready
//                    (event file.uploaded);
//   report_upload_failure  marks a pending upload failed and drops its bytes;
//   get, update, delete    for the owner, readers (get only) and admins; anyone else gets what a
//                    missing file gets (delete raises file.deleted);
//   settings, change_settings  the project's file limits, for administrators (ProjectLimits).
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <string>

#include "backends/file_backend.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "quota/project_limits.hpp"
#include "quota/usage_ledger.hpp"
#include "settings.hpp"

namespace opbase::file {

class FileOps {
 public:
  // `base_url`: where clients reach the daemon, for a public file's stable URL.
  FileOps(const Host& host, const FileSettings& settings, const DocumentStore& store,
          const FileBackend& backend, const UsageLedger& ledger, const ProjectLimits& limits,
          std::function<Result<std::string>()> base_url)
      : host_(host),
        settings_(settings),
        store_(store),
        backend_(backend),
        ledger_(ledger),
        limits_(limits),
        base_url_(std::move(base_url)) {}

  Result<Reply> presign_upload(const Request& request) const;
  Result<Reply> finalize_upload(const Request& request) const;
  Result<Reply> report_upload_failure(const Request& request) const;
  Result<Reply> get(const Request& request) const;
  Result<Reply> update(const Request& request) const;
  Result<Reply> remove(const Request& request) const;
  Result<Reply> settings(const Request& request) const;
  Result<Reply> change_settings(const Request& request) const;

 private:
  // The record `_key` of the body names, when the caller reaches it at least `needed`.
  Result<nlohmann::json> reachable(const Request& request, bool change) const;
  // The record as clients see it, with download_url (ready) and public_url (public).
  Result<Reply> answer(std::string_view project, const nlohmann::json& stored) const;
  Result<nlohmann::json> finalized(std::string_view project, const nlohmann::json& stored) const;

  const Host& host_;
  const FileSettings& settings_;
  const DocumentStore& store_;
  const FileBackend& backend_;
  const UsageLedger& ledger_;
  const ProjectLimits& limits_;
  std::function<Result<std::string>()> base_url_;
};

}  // namespace opbase::file

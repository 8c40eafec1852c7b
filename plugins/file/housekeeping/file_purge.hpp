// FilePurge: what the file plugin cleans up in the background, every files.purge_interval_s
// (docs/api.md#file-limits):
//   - pending uploads older than files.pending_ttl_s: their records are deleted and their quota
//     given back (an upload that was never finalized, or cut short by a crash);
//   - records on their way out (file.delete, the stale uploads above): a record leaves in two
//     steps, archived (gone for the ops) and then, once its bytes are removed, deleted. The
//     purge removes the bytes of archived records (a crash came between the steps), moves them
//     on, and removes deleted records for good;
//   - failed uploads whose upload URL has expired: their bytes are removed once more. An object
//     store cannot revoke a presigned URL, so a client could still PUT bytes for a record after
//     file.report_upload_failure removed them; once the URL is dead, none can come any more.
//
// Thread-safety: run() may be called from any thread, one call per project at a time.
#pragma once

#include <cstdint>
#include <string_view>

#include "backends/file_backend.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "quota/usage_ledger.hpp"

namespace opbase::file {

class FilePurge {
 public:
  FilePurge(const DocumentStore& store, const FileBackend& backend, const UsageLedger& ledger,
            int64_t pending_ttl_s, int64_t upload_url_ttl_s)
      : store_(store),
        backend_(backend),
        ledger_(ledger),
        pending_ttl_s_(pending_ttl_s),
        upload_url_ttl_s_(upload_url_ttl_s) {}

  struct Purged {
    int64_t stale_uploads = 0;
    int64_t deleted_files = 0;
    // The first removal the backend refused this round; the others were still tried, and the
    // refused records stay archived for the next round.
    Status removal_failure = Status::ok();
  };
  Result<Purged> run(std::string_view project, int64_t now_ms) const;

 private:
  Result<int64_t> drop_stale_uploads(std::string_view project, int64_t now_ms) const;
  Status finish_removals(std::string_view project, int64_t now_ms, Purged& purged) const;
  Status recheck_failed_uploads(std::string_view project, int64_t now_ms, Purged& purged) const;

  const DocumentStore& store_;
  const FileBackend& backend_;
  const UsageLedger& ledger_;
  int64_t pending_ttl_s_;
  int64_t upload_url_ttl_s_;
};

// The second step of a record's way out: its bytes removed, the record moved from archived to
// deleted, where the purge finds it. A failure leaves it archived, for the purge to try again.
Status finish_removal(const DocumentStore& store, const FileBackend& backend,
                      std::string_view project, const nlohmann::json& record, int64_t now_ms);

}  // namespace opbase::file

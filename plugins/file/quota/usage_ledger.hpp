// UsageLedger: what each user keeps in the file area, counted in the project's store (the
// plugin's collection `file_usage`, one document per user: `bytes` and `files`), so daemons
// sharing a MongoDB share one count (docs/api.md#file-limits).
//
// A file is counted when file.presign_upload makes its record, by one conditional update that
// adds it only while both counts stay within files.quota.*: the store re-checks the condition
// as it writes, so of N presigns racing for the last room, only those that fit pass. Its bytes
// are given back when its upload fails, and the file itself when its record goes (file.delete,
// the purge of a stale upload). A crash between a record's change and the ledger's leaves the
// count a file too high, which errs on the side of the quota.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/store_counter.hpp"

namespace opbase::file {

struct UsageLimits {
  int64_t bytes = 0;  // files.quota.bytes_per_user; 0: no limit
  int64_t files = 0;  // files.quota.files_per_user; 0: no limit
};

class UsageLedger {
 public:
  explicit UsageLedger(const DocumentStore& store) : counter_(store, "file_usage") {}

  // Counts one file of `bytes` for `user`: OK, or QUOTA_EXCEEDED (details: quota "bytes" or
  // "files", limit, used) and nothing counted.
  Status charge(std::string_view project, std::string_view user, int64_t bytes,
                const UsageLimits& limits) const;

  // Takes back `bytes` and `files` counted for `user`. Best effort: a lost release leaves them
  // counted.
  void release(std::string_view project, std::string_view user, int64_t bytes, int64_t files) const;

 private:
  StoreCounter counter_;
};

}  // namespace opbase::file

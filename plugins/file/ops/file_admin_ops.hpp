// FileAdminOps: the administrators' view of a project's files
// (docs/api.md#files-for-administrators):
//   file.admin.list   every user's file records, newest first, by owner and state;
//   file.usage.list   what each user keeps (bytes and files, as counted against the quota),
//                     largest first.
// Both are reads of the plugin's collections; no URL is handed out.
// Thread-safety: every method may be called from any thread.
#pragma once

#include "opbase/document_store.hpp"
#include "opbase/op.hpp"

namespace opbase::file {

class FileAdminOps {
 public:
  explicit FileAdminOps(const DocumentStore& store) : store_(store) {}

  Result<Reply> list(const Request& request) const;
  Result<Reply> usage(const Request& request) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::file

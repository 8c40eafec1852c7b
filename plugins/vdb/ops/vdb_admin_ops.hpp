// VdbAdminOps: the administrators' view of a project's vector collections
// (docs/api.md#vector-collections-for-administrators): vdb.admin.list pages every user's
// collections, newest first, with their dimensions, model and the records this daemon holds.
// Thread-safety: every method may be called from any thread.
#pragma once

#include "index/index_set.hpp"
#include "opbase/op.hpp"
#include "records/collection_catalog.hpp"

namespace opbase::vdb {

class VdbAdminOps {
 public:
  VdbAdminOps(const CollectionCatalog& catalog, const IndexSet& indexes)
      : catalog_(catalog), indexes_(indexes) {}

  Result<Reply> list(const Request& request) const;

 private:
  const CollectionCatalog& catalog_;
  const IndexSet& indexes_;
};

}  // namespace opbase::vdb

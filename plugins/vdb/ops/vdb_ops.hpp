// VdbOps: the three vdb ops (docs/api.md#vector-database) over the records in the store
// (records/), this daemon's indexes (index/) and the embedding service (ops/embedder.hpp).
// Every record and every query belongs to the signed-in caller: a user's collections are their
// own, and no op reads, counts or deletes another user's records.
//
// Thread-safety: the handlers run concurrently from any thread.
#pragma once

#include "index/index_set.hpp"
#include "opbase/op.hpp"
#include "opbase/rate_limiter.hpp"
#include "ops/embedder.hpp"
#include "records/collection_catalog.hpp"
#include "records/record_store.hpp"
#include "settings.hpp"

namespace opbase::vdb {

class VdbOps {
 public:
  VdbOps(const Host& host, const VdbSettings& settings, const RecordStore& records,
         const CollectionCatalog& catalog, IndexSet& indexes);

  Result<Reply> insert(const Request& request) const;
  Result<Reply> search(const Request& request) const;
  Result<Reply> remove(const Request& request) const;

 private:
  // The caller's collection as this daemon holds it; COLLECTION_NOT_FOUND when they never
  // wrote to it.
  Result<std::shared_ptr<OpenCollection>> caller_collection(const Request& request,
                                                            const std::string& name) const;
  // The stored records of `hits`, each with its float32 cosine with `query` (a unit vector),
  // best first, those under `min_score` left out: the index ranks by its int8 codes, the answer
  // carries the stored vectors' own scores.
  Result<std::vector<std::pair<float, nlohmann::json>>> scored_records(
      const Request& request, const std::string& collection, const std::vector<float>& query,
      const std::vector<Hit>& hits, std::optional<float> min_score) const;
  // A token of the caller's embedding rate limit.
  Status take_embed_token(const Request& request) const;

  const Host& host_;
  const VdbSettings& settings_;
  const RecordStore& records_;
  const CollectionCatalog& catalog_;
  IndexSet& indexes_;
  Embedder embedder_;
  DocumentStore store_;
  RateLimiter limiter_;
};

}  // namespace opbase::vdb

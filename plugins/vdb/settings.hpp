// VdbSettings: the vdb plugin's configuration keys (docs/configuration.md#vector-database), read
// once at start; a bad value stops the start with a message naming the key.
//   vdb.graph_from            records of one user's collection from which it is searched through
//                             an HNSW graph instead of by a scan, default 150000
//   vdb.graph_links           HNSW M, neighbours per node, default 16
//   vdb.graph_build_breadth   HNSW ef_construction, default 100
//   vdb.graph_search_breadth  HNSW ef, candidates a search keeps, default 200
//   vdb.lane_threads          inserts and searches under way at once, default 16
//   vdb.lane_queue            calls waiting for one of those, default 256
//   vdb.embed_rate_limit      calls that embed text (an insert with content, a search with a
//                             query), per user: "<limit>/<window s>" or off, default 120/60
//   vdb.max_records_per_user  vector records one user may keep, default 1000000
//   vdb.refresh_ms            how often a daemon reads the records other daemons wrote into the
//                             store (several daemons on one MongoDB); 0: never. Default 1000 on
//                             storage.driver = mongodb, 0 on sqlite (one daemon per store)
//   vdb.refresh_settle_ms     how old a record must be before a refresh reads it, so writes
//                             still committing and clocks apart by less are not missed,
//                             default 2000
//   vdb.embedding_service     the host service that embeds texts, default ai.embed
//
// Thread-safety: a plain value.
#pragma once

#include <cstdint>
#include <string>

#include "index/collection_index.hpp"
#include "opbase/host.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

struct VdbSettings {
  IndexOptions index;
  int lane_threads = 16;
  int lane_queue = 256;
  RateRule embed_rate{120, 60};
  int64_t max_records_per_user = 1'000'000;
  int64_t refresh_ms = 0;
  int64_t refresh_settle_ms = 2000;
  std::string embedding_service = "ai.embed";

  static Result<VdbSettings> from(const Host& host);
};

}  // namespace opbase::vdb

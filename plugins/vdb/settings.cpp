#include "settings.hpp"

#include <string>

namespace opbase::vdb {
namespace {

struct IntKey {
  const char* key;
  int64_t min, max;
  int64_t* target;
};

Status read_ints(const Host& host, std::initializer_list<IntKey> keys) {
  for (const IntKey& k : keys) {
    auto value = host.config_int_in(k.key, *k.target, k.min, k.max);
    if (!value) return value.status();
    *k.target = *value;
  }
  return Status::ok();
}

}  // namespace

Result<VdbSettings> VdbSettings::from(const Host& host) {
  VdbSettings s;
  auto graph_from = static_cast<int64_t>(s.index.graph_from);
  auto links = static_cast<int64_t>(s.index.links);
  auto build_breadth = static_cast<int64_t>(s.index.build_breadth);
  auto search_breadth = static_cast<int64_t>(s.index.search_breadth);
  int64_t lane_threads = s.lane_threads, lane_queue = s.lane_queue;
  // Several daemons share a store only on MongoDB: there a daemon refreshes by default.
  s.refresh_ms = host.config_or("storage.driver", "sqlite") == "mongodb" ? 1000 : 0;
  if (Status st =
          read_ints(host,
                    {
                        {"vdb.graph_from", 1, 100'000'000, &graph_from},
                        {"vdb.graph_links", 2, 100, &links},
                        {"vdb.graph_build_breadth", 10, 10'000, &build_breadth},
                        {"vdb.graph_search_breadth", 10, 10'000, &search_breadth},
                        {"vdb.lane_threads", 1, 1024, &lane_threads},
                        {"vdb.lane_queue", 1, 1 << 20, &lane_queue},
                        {"vdb.max_records_per_user", 1, 1'000'000'000, &s.max_records_per_user},
                        {"vdb.refresh_ms", 0, 3'600'000, &s.refresh_ms},
                        {"vdb.refresh_settle_ms", 0, 600'000, &s.refresh_settle_ms},
                    });
      !st) {
    return st;
  }
  s.index = {static_cast<size_t>(graph_from), static_cast<size_t>(links),
             static_cast<size_t>(build_breadth), static_cast<size_t>(search_breadth)};
  s.lane_threads = static_cast<int>(lane_threads);
  s.lane_queue = static_cast<int>(lane_queue);
  if (auto text = host.config("vdb.embed_rate_limit")) {
    auto rule = RateRule::parse(*text);
    if (!rule) {
      return Status::validation("vdb.embed_rate_limit: " + rule.status().message(),
                                {{"key", "vdb.embed_rate_limit"}});
    }
    s.embed_rate = *rule;
  }
  s.embedding_service = host.config_or("vdb.embedding_service", s.embedding_service);
  return s;
}

}  // namespace opbase::vdb

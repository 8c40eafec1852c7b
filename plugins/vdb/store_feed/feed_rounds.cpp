// The vdb plugin's start and background rounds (see feed_rounds.hpp).
#include "store_feed/feed_rounds.hpp"

#include "opbase/host_services.hpp"
#include "opbase/rate_limiter.hpp"

namespace opbase::vdb {
namespace {

// Records the indexer moves into graphs between two looks at its other duties.
constexpr size_t kIndexStep = 64;
// How long the background thread sleeps when there is nothing to index.
constexpr std::chrono::milliseconds kIdleWait{200};
// How often deleted records past their retention and idle rate buckets are purged.
constexpr int64_t kHousekeepingMs = 60'000;

}  // namespace

Status FeedRounds::load_projects() {
  auto projects = list_projects(host_);
  if (!projects) return projects.status();
  for (const std::string& project : *projects) {
    const auto start = std::chrono::steady_clock::now();
    auto loaded = feed_.load(project, host_.now_ms(), settings_.refresh_settle_ms);
    if (!loaded) {
      return Status(loaded.status().code(), "vdb: loading the records of project " + project +
                                                ": " + loaded.status().message());
    }
    projects_.push_back(project);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    host_.info("vdb: project " + project + ": " + std::to_string(loaded->records) + " records in " +
               std::to_string(loaded->collections) + " collections loaded in " +
               std::to_string(seconds) + " s" +
               (loaded->unreadable > 0
                    ? " (" + std::to_string(loaded->unreadable) + " unreadable, skipped)"
                    : ""));
  }
  return Status::ok();
}

std::chrono::milliseconds FeedRounds::round() {
  const size_t moved = indexes_.index_some(kIndexStep);
  const int64_t now = host_.now_ms();
  if (settings_.refresh_ms > 0 && now >= next_refresh_ms_) {
    refresh_all(now);
    next_refresh_ms_ = now + settings_.refresh_ms;
  }
  if (now >= next_housekeeping_ms_) {
    housekeeping(now);
    next_housekeeping_ms_ = now + kHousekeepingMs;
  }
  publish_gauges();
  return moved == 0 ? kIdleWait : std::chrono::milliseconds(0);
}

void FeedRounds::refresh_all(int64_t now) {
  for (const std::string& project : projects_) {
    auto changed = feed_.refresh(project, now, settings_.refresh_settle_ms);
    if (!changed) {
      host_.warn("vdb: refreshing project " + project + ": " + changed.status().message());
    } else if (*changed > 0) {
      host_.count("refreshed_records_total", static_cast<double>(*changed));
    }
  }
}

void FeedRounds::housekeeping(int64_t now) {
  const RateLimiter limiter(store_);
  for (const std::string& project : projects_) {
    Status swept = limiter.sweep_idle(project, now);
    Status purged = swept ? records_.purge_deleted(project, now) : swept;
    if (!purged) host_.warn("vdb: purging project " + project + ": " + purged.message());
  }
}

void FeedRounds::publish_gauges() const {
  const IndexSet::Totals totals = indexes_.totals();
  host_.gauge("collections", static_cast<double>(totals.collections));
  host_.gauge("records", static_cast<double>(totals.records));
  host_.gauge("records_waiting_for_graph", static_cast<double>(totals.pending));
}

}  // namespace opbase::vdb

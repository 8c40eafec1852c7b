#include "delivery/delivery_workers.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "endpoints/webhook_signature.hpp"
#include "endpoints/webhook_target.hpp"
#include "opbase/crypto.hpp"
#include "opbase/host_services.hpp"
#include "opbase/thread_name.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

// Who holds a lease: different for every daemon start.
std::string new_owner() { return "whd_" + random_hex(8); }

// The retry delay's jitter: it need only spread retries apart, not be unpredictable.
double unit_random() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

const Endpoint* find_endpoint(const std::vector<Endpoint>& endpoints, std::string_view id) {
  for (const Endpoint& e : endpoints) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

// One endpoint holds at most half of a daemon's delivery threads (at least one).
int turns_per_endpoint(int workers) { return std::max(1, workers / 2); }

}  // namespace

DeliveryWorkers::DeliveryWorkers(const Host& host, const WebhooksConfig& config,
                                 const Endpoints& endpoints, const Outbox& outbox)
    : host_(host),
      config_(config),
      endpoints_(endpoints),
      outbox_(outbox),
      owner_(new_owner()),
      turns_(turns_per_endpoint(config.workers)) {}

DeliveryWorkers::~DeliveryWorkers() { stop(); }

void DeliveryWorkers::start() {
  threads_.emplace_back([this] { feed_loop(); });
  for (int i = 0; i < config_.workers; ++i) threads_.emplace_back([this] { deliver_loop(); });
}

void DeliveryWorkers::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  feeder_wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void DeliveryWorkers::events_arrived() {
  {
    const std::lock_guard lock(mutex_);
    ++event_wakes_;
    if (!feeder_waiting_) return;  // it will look anyway: spare a wake-up per write
  }
  feeder_wake_.notify_one();
}

void DeliveryWorkers::messages_due() {
  {
    const std::lock_guard lock(mutex_);
    ++message_wakes_;
  }
  wake_.notify_all();
}

std::vector<std::string> DeliveryWorkers::projects() const {
  auto ids = list_projects(host_);
  return ids ? std::move(*ids) : std::vector<std::string>{};
}

// The feeder never posts: a receiver that takes its time must not hold back the events of
// every other endpoint, nor let the journal grow.
void DeliveryWorkers::feed_loop() {
  name_this_thread("wh-feeder");
  int64_t last_feed_ms = 0;
  bool behind = false;  // the last fan-out found a full batch: more are waiting, no pause
  int events = 0;       // handled by the last pass
  while (!stopping_) {
    if (!behind) {
      // Under a stream of writes every one wakes the feeder: gather them into one batch (each
      // fan-out costs a read and three writes however few events it finds). Under a heavy
      // stream, longer: the store calls a pass costs whatever it carries are then spread over
      // more events, for a delivery latency that is still a few tens of milliseconds.
      const int64_t gap_ms = events >= kBusyPassEvents ? kBusyFeedGapMs : kMinFeedGapMs;
      const int64_t wait_ms = last_feed_ms + gap_ms - host_.now_ms();
      if (wait_ms > 0) {
        std::unique_lock lock(mutex_);
        feeder_wake_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                              [&] { return stopping_.load(); });
      }
      last_feed_ms = host_.now_ms();
    }
    uint64_t seen_events = 0;
    {
      const std::lock_guard lock(mutex_);
      seen_events = event_wakes_;
    }
    behind = false;
    events = 0;
    // Archiving costs reads of every queue: only after this daemon ended messages (or once a
    // minute per project, for those a stopped daemon ended).
    const bool ended = ended_.exchange(0) > 0;
    for (const std::string& project : projects()) {
      if (stopping_) break;
      const FeedPass pass = feed(project, ended);
      behind |= pass.more;
      events += pass.events;
    }
    if (behind) continue;
    std::unique_lock lock(mutex_);
    feeder_waiting_ = true;
    feeder_wake_.wait_for(lock, std::chrono::milliseconds(config_.poll_ms),
                          [&] { return stopping_ || event_wakes_ != seen_events; });
    feeder_waiting_ = false;
  }
}

void DeliveryWorkers::deliver_loop() {
  name_this_thread("wh-deliver");
  HttpDelivery http(&stopping_);
  while (!stopping_) {
    uint64_t seen_messages = 0;
    {
      const std::lock_guard lock(mutex_);
      seen_messages = message_wakes_;
    }
    bool busy = false;  // more messages may be due: look again at once
    for (const std::string& project : projects()) {
      if (stopping_) break;
      busy |= deliver_one(project, http);
    }
    if (busy) continue;
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, std::chrono::milliseconds(config_.poll_ms),
                   [&] { return stopping_ || message_wakes_ != seen_messages; });
  }
}

bool DeliveryWorkers::deliver_one(const std::string& project, HttpDelivery& http) {
  auto endpoints = endpoints_.with_queues(project);
  if (!endpoints) {
    host_.warn("webhooks: endpoints of " + project + ": " + endpoints.status().message());
    return false;
  }
  std::vector<std::string> ids;
  for (const Endpoint& e : *endpoints) ids.push_back(e.id);
  std::vector<std::string> nothing_due;
  while (auto id = turns_.take(project, ids, nothing_due)) {
    auto claimed = outbox_.claim(project, *id, owner_, host_.now_ms(), config_.lease_ms, 1);
    if (claimed && !claimed->empty()) {
      deliver(project, claimed->front(), *find_endpoint(*endpoints, *id), http);
      turns_.give_back(project, *id);
      return true;
    }
    turns_.give_back(project, *id);
    if (!claimed) {
      host_.warn("webhooks: claim in " + project + ": " + claimed.status().message());
    }
    nothing_due.push_back(*id);
  }
  return false;
}

DeliveryWorkers::FeedPass DeliveryWorkers::feed(const std::string& project, bool ended) {
  const int64_t now = host_.now_ms();
  // An endpoint that holds every delivery thread it may is behind: its new messages wait anyway,
  // and go in a bundle rather than each in a document of its own. So do they while it has
  // bundles still: its queue then empties, and the oldest bundle is unpacked next, rather than
  // new messages keep coming in ahead of the bundled ones.
  const auto behind = [&](const std::string& endpoint) {
    if (!turns_.any_free(project, {endpoint})) return true;
    auto bundled = outbox_.has_bundles(project, endpoint);
    return bundled && *bundled;
  };
  auto done = outbox_.fan_out(
      project, [&] { return endpoints_.enabled(project); }, now, kFanOutBatch, behind);
  if (!done) {
    host_.warn("webhooks: outbox of " + project + ": " + done.status().message());
    return {};
  }
  if (done->messages > 0) {
    host_.count("queued_total", done->messages);
    if (done->bundled > 0) host_.count("bundled_total", done->bundled);
    // The delivery threads claim what was just queued, unless every endpoint that got some
    // holds its share of them already: then a thread that gives a turn back looks again anyway,
    // and a wake-up would only send the idle threads round the queues for nothing.
    if (turns_.any_free(project, done->endpoints)) messages_due();
  }
  bool more_ended = false;
  int64_t& last_expiry = last_expiry_ms_[project];
  const bool sweep = now - last_expiry >= kExpiryEveryMs;
  if (ended || sweep) more_ended = archive_ended(project, now);
  if (more_ended) ended_ += 1;  // a full batch: the next pass goes on
  if (sweep) {
    last_expiry = now;
    if (auto expired = outbox_.expire(project, now - config_.retention_ms); !expired) {
      host_.warn("webhooks: expiring messages of " + project + ": " + expired.status().message());
    }
  }
  // A full batch may have left more behind.
  return {done->events, done->events == kFanOutBatch || more_ended};
}

bool DeliveryWorkers::archive_ended(const std::string& project, int64_t now_ms) {
  auto endpoints = endpoints_.with_queues(project);
  if (!endpoints) {
    host_.warn("webhooks: endpoints of " + project + ": " + endpoints.status().message());
    return false;
  }
  bool more = false;
  for (const Endpoint& endpoint : *endpoints) {
    auto archived = outbox_.archive_ended(project, endpoint.id, now_ms);
    if (!archived) {
      host_.warn("webhooks: archiving messages of " + project + ": " + archived.status().message());
    }
    more |= archived && archived->full;
  }
  return more;
}

void DeliveryWorkers::deliver(std::string_view project, const Message& message,
                              const Endpoint& endpoint, HttpDelivery& http) {
  AttemptResult result;
  result.time_ms = host_.now_ms();
  if (endpoint.deleted) {
    result.error = "the endpoint was deleted";
    result.final = true;
  } else if (!endpoint.enabled) {
    result.error = "the endpoint is switched off";
  } else {
    result = attempt(message, endpoint, http);
  }
  if (stopping_ && !result.delivered()) return;  // aborted by the stop: the lease runs out
  auto state = outbox_.finish(project, message, owner_, result, unit_random());
  if (!state) {
    host_.warn("webhooks: recording an attempt of " + message.id + ": " + state.status().message());
    return;
  }
  host_.observe_seconds("attempt_seconds", static_cast<double>(result.latency_ms) / 1000.0);
  if (*state == "delivered" || *state == "failed") ended_ += 1;  // for the feeder to archive
  if (*state == "delivered") {
    host_.count("delivered_total");
    host_.observe_seconds("delivery_seconds",
                          static_cast<double>(host_.now_ms() - message.event_ms) / 1000.0);
  } else if (*state == "pending") {
    host_.count("retried_total");
  } else if (*state == "failed") {
    host_.count("failed_total");
  }
}

AttemptResult DeliveryWorkers::attempt(const Message& message, const Endpoint& endpoint,
                                       HttpDelivery& http) {
  AttemptResult refused;
  refused.time_ms = host_.now_ms();
  auto url = parse_target_url(endpoint.url);
  if (!url) {
    refused.error = url.status().message();
    return refused;
  }
  // Resolved and checked on every attempt: a name's addresses may change between attempts.
  auto target = resolve_target(*url, config_.allow_private_targets);
  if (!target) {
    refused.error = target.status().message();
    return refused;
  }
  const auto content = parse_signature_content(endpoint.signature_content);
  const int64_t now_ms = host_.now_ms();
  const int64_t timestamp = now_ms / 1000;
  Attempt a;
  a.url = url->text();
  a.resolve_entry = target->curl_resolve_entry();
  a.body = message.body;
  a.timeout_ms = config_.timeout_ms;
  a.headers = {{"Content-Type", "application/json"},
               {"Webhook-Id", message.id},
               {"Webhook-Timestamp", std::to_string(timestamp)},
               {"Webhook-Signature", signature_header(endpoint.signing_keys(now_ms),
                                                      content.value_or(kDefaultSignatureContent),
                                                      message.id, timestamp, message.body)}};
  AttemptResult result = http.post(a);
  result.time_ms = now_ms;
  return result;
}

}  // namespace opbase::webhooks

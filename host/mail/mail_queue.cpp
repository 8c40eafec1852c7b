// The mail queue in the project stores (see mail_queue.hpp). A queued mail is one document:
// {"_key": "mail_<hex>", "to", "subject", "text", "attempts", "due_ms", "lease_ms",
// "last_error"}. A worker finds the due ones (due_ms and lease_ms both past), claims one by
// setting lease_ms on the condition that it still holds the value read, sends it, then removes
// it or sets its next due time.
#include "mail/mail_queue.hpp"

#include <algorithm>
#include <chrono>

#include "log/log.hpp"
#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/query.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

constexpr std::string_view kNamespace = "host.mail";
constexpr std::string_view kCollection = "mail_queue";
constexpr std::chrono::milliseconds kPoll{1000};  // how often idle workers look for due mail
constexpr int64_t kMaxRetryMs = 3'600'000;
// A claimed mail is claimed again after this long: its worker died or hung past every timeout.
constexpr int64_t kLeaseMs = 10 * 60 * 1000;

query::Match match_of(const json& fields) {
  auto match = query::parse_match(fields, store::wire_parse_options());
  if (!match) throw std::logic_error("mail queue: bad internal match: " + match.status().message());
  return std::move(*match);
}

store::UpdateRequest update_of(const json& match, json set) {
  store::UpdateRequest request;
  request.collection = std::string(kCollection);
  request.scope = store::Scope::everyone();
  store::Change change;
  change.set = std::move(set);
  request.steps.push_back({match_of(match), std::move(change)});
  return request;
}

// The domain of an address, for log lines that must not list who was mailed a code.
std::string domain_of(const std::string& address) {
  const size_t at = address.rfind('@');
  return at == std::string::npos ? "?" : address.substr(at + 1);
}

std::string describe(const json& mail) {
  return "mail " + mail.value("_key", "") + " to an address at " + domain_of(mail.value("to", ""));
}

}  // namespace

MailQueue::MailQueue(Mailer& transport, Stores& stores, MailQueueSettings settings,
                     std::function<int64_t()> now_ms)
    : transport_(transport), stores_(stores), settings_(settings), now_ms_(std::move(now_ms)) {}

MailQueue::~MailQueue() { stop(); }

Status MailQueue::send(const Mail& mail) { return transport_.send(mail); }

Result<json> MailQueue::submit(std::string_view project, const Mail& mail) {
  if (Status checked = check_mail(mail); !checked) return checked;
  ProjectStore* store = stores_.of(project);
  if (store == nullptr) {
    return Status::internal("mail: project '" + std::string(project) +
                            "' has no store to queue in");
  }
  const int64_t now = now_ms_();
  json doc = {{"_key", "mail_" + random_hex(16)},
              {"_userkey", nullptr},
              {"_created_at", iso_time(now)},
              {"to", mail.to},
              {"subject", mail.subject},
              {"text", mail.text},
              {"discard", mail.discard},
              {"attempts", 0},
              {"due_ms", now},
              {"lease_ms", 0}};
  if (Status stored = store->insert(kNamespace, {std::string(kCollection), {std::move(doc)}});
      !stored) {
    return Status::internal("mail: could not queue the mail: " + stored.message());
  }
  if (!mail.discard) ++queued_;  // decoys are not mail anyone will get
  {
    const std::lock_guard lock(mutex_);
    ++pending_wakes_;
  }
  wake_.notify_one();
  return json{{"queued", true}};
}

void MailQueue::start() {
  const std::lock_guard lock(mutex_);
  if (!workers_.empty()) return;
  stopping_ = false;
  for (int i = 0; i < settings_.workers; ++i) workers_.emplace_back([this] { work(); });
}

void MailQueue::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
}

void MailQueue::work() {
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    bool sent_one = false;
    try {
      sent_one = send_one_due();
    } catch (const std::exception& e) {
      log::error("mail", std::string("the mail queue failed: ") + e.what());
    }
    if (sent_one) continue;  // there may be more
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, kPoll, [this] { return stopping_ || pending_wakes_ > 0; });
    pending_wakes_ = 0;
  }
}

bool MailQueue::send_one_due() {
  for (const std::string& project : stores_.project_ids()) {
    if (send_due_of(project)) return true;
  }
  return false;
}

bool MailQueue::send_due_of(const std::string& project) {
  ProjectStore* store = stores_.of(project);
  if (store == nullptr) return false;
  const int64_t now = now_ms_();
  store::FindRequest find;
  find.collection = std::string(kCollection);
  find.scope = store::Scope::everyone();
  find.match = match_of({{"due_ms:$lte", now}, {"lease_ms:$lte", now}});
  find.sort = {{*query::parse_path("due_ms"), /*descending=*/false}};
  find.limit = 4;
  auto due = store->find_documents(kNamespace, find);
  if (!due) {
    log::warn("mail", "reading the mail queue of project " + project +
                          " failed: " + due.status().message());
    return false;
  }
  for (json& mail : due->documents) {
    const int64_t lease = mail.value("lease_ms", int64_t{0});
    auto claimed =
        store->update(kNamespace, update_of({{"_key", mail.value("_key", "")}, {"lease_ms", lease}},
                                            {{"lease_ms", now + kLeaseMs}}));
    if (!claimed || claimed->documents.empty()) continue;  // another worker took it
    if (mail.value("discard", false)) {
      remove(*store, mail.value("_key", ""));  // a decoy: its work is done
      return true;
    }
    const Mail message{mail.value("to", ""), mail.value("subject", ""), mail.value("text", "")};
    const Status sent = transport_.send(message);
    if (sent) {
      delivered(*store, mail);
    } else {
      failed(*store, mail, sent);
    }
    return true;
  }
  return false;
}

void MailQueue::delivered(ProjectStore& store, const json& mail) {
  ++sent_;
  remove(store, mail.value("_key", ""));
  log::debug("mail", describe(mail) + " sent");
}

void MailQueue::failed(ProjectStore& store, const json& mail, const Status& why) {
  const int attempts = mail.value("attempts", 0) + 1;
  // A mail the transport refuses as malformed will never go: no point in trying again.
  if (attempts >= settings_.max_attempts || why.code() == code::kValidationError) {
    ++given_up_;
    log::error("mail", describe(mail) + " given up after " + std::to_string(attempts) +
                           " attempt(s): " + why.message());
    remove(store, mail.value("_key", ""));
    return;
  }
  ++retried_;
  const int64_t wait =
      std::min(settings_.retry_s * 1000 << std::min(attempts - 1, 20), kMaxRetryMs);
  log::warn("mail", describe(mail) + " not sent (attempt " + std::to_string(attempts) + " of " +
                        std::to_string(settings_.max_attempts) + "), next in " +
                        std::to_string(wait / 1000) + " s: " + why.message());
  const int64_t now = now_ms_();
  auto updated = store.update(
      kNamespace, update_of({{"_key", mail.value("_key", "")}}, {{"attempts", attempts},
                                                                 {"due_ms", now + wait},
                                                                 {"lease_ms", 0},
                                                                 {"last_error", why.message()}}));
  if (!updated) log::error("mail", describe(mail) + ": " + updated.status().message());
}

void MailQueue::remove(ProjectStore& store, const std::string& key) {
  store::StateRequest request;
  request.collection = std::string(kCollection);
  request.scope = store::Scope::everyone();
  request.match = match_of({{"_key", key}});
  request.from = store::State::kActive;
  request.to = store::State::kDeleted;
  request.ref = "mail_done";
  const int64_t now = now_ms_();
  request.at_ms = now;
  auto moved = store.change_state(kNamespace, request);
  // Only mail lives in this namespace: everything deleted there goes for good, at once.
  auto purged = moved ? store.purge(kNamespace, {store::State::kDeleted, now + 1})
                      : Result<int64_t>(moved.status());
  if (!purged) log::error("mail", "removing mail " + key + " failed: " + purged.status().message());
}

std::string MailQueue::metrics() const {
  std::string out;
  const auto counter = [&out](const char* name, const char* help, uint64_t value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name +
           " " + std::to_string(value) + "\n";
  };
  counter("opbase_mail_queued_total", "Mails plugins handed to the mail queue.", queued_.load());
  counter("opbase_mail_sent_total", "Queued mails the mail server took.", sent_.load());
  counter("opbase_mail_retried_total", "Sends of queued mails that failed and will be tried again.",
          retried_.load());
  counter("opbase_mail_failed_total", "Queued mails given up after their last attempt.",
          given_up_.load());
  return out;
}

}  // namespace opbase::host

// MailQueue: the daemon's Mailer for plugins. submit() keeps each mail in the calling project's
// store (namespace "host.mail", collection `mail_queue`) and returns at once; worker threads
// send what is due through the transport, so a plugin's answer never waits for, or depends on,
// a mail server (send_otp responds alike whether or not it mails). A mail that fails is tried
// again after a wait that doubles (from mail.queue.retry_s, at most an hour) and is given up
// after mail.queue.max_attempts, each failure logged without the text. Sent or given up, the
// mail is removed for good: it holds a one-time code in clear. A decoy (Mail::discard) is
// stored and claimed like any mail, then removed unsent.
//
// Durable: a queued mail survives a crash or a stop, and whichever daemon sharing the store
// starts next sends it. A worker claims a mail with a conditional update on its lease, so two
// workers, of one daemon or of several, never send the same mail at once; a mail whose worker
// died is claimed again once its lease ends. A mail may still go twice when a daemon dies after
// the server took it and before it was removed.
// Thread-safety: submit() and send() from any thread; start() and stop() from one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mail/mailer.hpp"
#include "store/stores.hpp"

namespace opbase::host {

class MailQueue final : public Mailer {
 public:
  // `transport` sends; `stores` keep the queue (both outlive the queue).
  MailQueue(Mailer& transport, Stores& stores, MailQueueSettings settings,
            std::function<int64_t()> now_ms);
  ~MailQueue() override;

  // Sends at once through the transport, bypassing the queue.
  Status send(const Mail& mail) override;
  // Checks the mail (check_mail), stores it for `project` and wakes a worker: {"queued": true}.
  // INTERNAL_ERROR when the project has no store or the store refused the write.
  Result<nlohmann::json> submit(std::string_view project, const Mail& mail) override;

  // Starts the workers; they first send what earlier runs left queued.
  void start();
  // Stops the workers after the mail each is sending; what is left stays queued.
  void stop();

  // Prometheus lines: mails queued, sent, retried and given up since the start.
  std::string metrics() const;

 private:
  void work();
  // Claims and sends one due mail of any project: whether there was one.
  bool send_one_due();
  bool send_due_of(const std::string& project);
  void delivered(ProjectStore& store, const nlohmann::json& mail);
  void failed(ProjectStore& store, const nlohmann::json& mail, const Status& why);
  void remove(ProjectStore& store, const std::string& key);

  Mailer& transport_;
  Stores& stores_;
  MailQueueSettings settings_;
  std::function<int64_t()> now_ms_;
  std::mutex mutex_;  // guards stopping_ and the wake-ups
  std::condition_variable wake_;
  bool stopping_ = false;
  uint64_t pending_wakes_ = 0;  // submits since the workers last looked
  std::vector<std::thread> workers_;
  std::atomic<uint64_t> queued_{0}, sent_{0}, retried_{0}, given_up_{0};
};

}  // namespace opbase::host

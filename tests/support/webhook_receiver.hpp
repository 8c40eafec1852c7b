// WebhookReceiver: a real HTTP receiver for webhook deliveries (tests/support/webhook_receiver.py
// on /usr/bin/python3's http.server) in a child process. It records every request to a path other
// than its control paths (/_control*, /_deliveries) with its headers and raw body, and responds as
// its behaviour says: fail the first attempts of each Webhook-Id, answer one status to all, sleep
// before responding, or drop the connection without a response. verify_signatures() checks what it
// recorded with the official Standard Webhooks library (tests/support/verify_webhook_signatures.mjs
// on npm standardwebhooks), independently of opbase's own signing code.
//
//   WebhookReceiver receiver({.behaviour = {.fail_first = 2}});
//   ... configure an endpoint with receiver.url("/hook") and cause an event ...
//   std::vector<Delivery> got = receiver.wait_for(3, std::chrono::seconds(10));
//   EXPECT_EQ(verify_signatures(secret, {got.back()}).exit_code, 0);
//
// Every request goes to 127.0.0.1 only and every wait is bounded. Transport failures never throw:
// they come back as empty lists and false.
//
// Thread-safety: deliveries(), wait_for(), set_behaviour() and reset() may be called from any
// thread while no thread calls start() or destroys the receiver.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "child_server.hpp"

namespace opbase::test {

// How the receiver responds to attempt k of a Webhook-Id (requests without one share a counter):
// k <= close_first: the connection is dropped without an answer; else k <= fail_first:
// fail_status; else status. Every delivery first waits sleep_ms.
struct ReceiverBehaviour {
  int fail_first = 0;
  int fail_status = 500;
  int status = 200;
  int sleep_ms = 0;
  int close_first = 0;
};

struct ReceiverOptions {
  ReceiverBehaviour behaviour{};
  // The receiver exits after this long even if the test hangs (and at once when it dies).
  std::chrono::seconds lifetime = std::chrono::seconds(600);
};

// One recorded request.
struct Delivery {
  int64_t seq = 0;  // 1, 2, ... in order of receipt (restarting after reset())
  std::string method;
  std::string path;       // as requested, with any query
  std::string id;         // Webhook-Id, "" when absent
  std::string timestamp;  // Webhook-Timestamp, "" when absent
  std::string signature;  // Webhook-Signature, "" when absent
  std::string body;       // the raw body as UTF-8 text
  bool body_valid_utf8 = true;
  std::map<std::string, std::string> headers;  // lower-cased names; repeats joined with ", "
  int64_t received_ms = 0;  // wall-clock Unix time in ms when the request had been read
  int64_t answered_ms = 0;  // when the answer was written; 0: not (yet), or dropped
  int status = 0;           // the status responded; 0: the connection was dropped unanswered
  int attempt = 0;          // the n-th request with this Webhook-Id
  int peer_port = 0;        // the sender's port: equal for requests on one kept connection

  // The header `name` (any case), or "".
  std::string header(std::string_view name) const;
};

class WebhookReceiver {
 public:
  // Not started: port() is 0 until start().
  WebhookReceiver() = default;
  explicit WebhookReceiver(const ReceiverOptions& options) { start(options); }
  WebhookReceiver(const WebhookReceiver&) = delete;
  WebhookReceiver& operator=(const WebhookReceiver&) = delete;

  // Starts the receiver (stopping one started before); true when it listens.
  bool start(const ReceiverOptions& options = {});

  // 0 when the receiver did not start.
  int port() const { return server_ ? server_->port() : 0; }

  // "http://127.0.0.1:<port><path>".
  std::string url(const std::string& path = "/hook") const;

  // The deliveries recorded so far, in order of receipt; empty when the receiver cannot be asked.
  std::vector<Delivery> deliveries() const;

  // The deliveries once at least `count` were recorded, or what there is after `timeout`.
  std::vector<Delivery> wait_for(size_t count, std::chrono::milliseconds timeout) const;

  // Replaces the behaviour for the requests that follow; attempt counts are kept.
  bool set_behaviour(const ReceiverBehaviour& behaviour);

  // Forgets every delivery and attempt count; the behaviour stays.
  bool reset();

 private:
  std::unique_ptr<ChildServer> server_;
};

// The outcome of tests/support/verify_webhook_signatures.mjs run with node.
struct VerifierResult {
  int exit_code = -1;  // 0: every delivery verified; 1: one failed; 2: unusable input; -1: no run
  std::vector<std::string> lines;  // per delivery, in order: "ok" or "FAIL <reason>"
  std::string output;              // standard output and error, for failure messages
};

// Verifies each delivery's Webhook-Id, Webhook-Timestamp, Webhook-Signature and body against
// `secret` ("whsec_<base64>") with npm standardwebhooks, as a receiver would. The library refuses
// timestamps more than 5 minutes from now. Waits at most 60 s for node.
VerifierResult verify_signatures(const std::string& secret,
                                 const std::vector<Delivery>& deliveries);

}  // namespace opbase::test

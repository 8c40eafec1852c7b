// The webhook tests' own tools (tests/support/webhook_receiver.hpp): the HTTP receiver
// (tests/support/webhook_receiver.py) records what was sent and responds as its behaviour says, and
// the independent verifier (tests/support/verify_webhook_signatures.mjs on npm standardwebhooks)
// accepts a Standard Webhooks signature computed here with OpenSSL and refuses a tampered one.
// Before the webhooks plugin's tests lean on them, they are shown to work. No assertion on
// durations, except that sleep_ms makes an answer take at least that long.
#include "webhook_receiver.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base64_text.hpp"

namespace opbase::test {
namespace {

using std::chrono::steady_clock;
using std::chrono::system_clock;

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Sent {
  int status = 0;     // 0: no answer came
  std::string error;  // why no answer came
};

// One POST on a fresh connection to 127.0.0.1:port.
Sent post(int port, const std::string& path, const std::string& body, const Headers& headers) {
  Sent sent;
  try {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(10, 0));
    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, path,
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    request.setContentLength64(static_cast<Poco::Int64>(body.size()));
    for (const auto& [name, value] : headers) request.set(name, value);
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    std::string ignored;
    Poco::StreamCopier::copyToString(in, ignored);
    sent.status = static_cast<int>(response.getStatus());
  } catch (const Poco::Exception& e) {
    sent.error = e.displayText();
  }
  return sent;
}

Sent post(const WebhookReceiver& receiver, const std::string& path, const std::string& body,
          const Headers& headers) {
  return post(receiver.port(), path, body, headers);
}

std::string unbase64(const std::string& text) {
  std::string out(3 * text.size() / 4 + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return "";
  size_t size = static_cast<size_t>(n);  // counts the padding as zero bytes
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;
  out.resize(size);
  return out;
}

// "whsec_" + base64 of 32 random bytes, as the convention has it.
std::string fresh_secret() {
  std::string key(32, '\0');
  EXPECT_EQ(RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), 32), 1);
  return "whsec_" + base64_text(key);
}

// "v1," + base64 of HMAC-SHA-256 over `text`, keyed with the secret's decoded bytes.
std::string signature_over(const std::string& secret, const std::string& text) {
  const std::string key = unbase64(secret.substr(6));
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &size);
  return "v1," + base64_text(std::string(reinterpret_cast<const char*>(mac), size));
}

// The Standard Webhooks signature: over "<id>.<timestamp>.<body>".
std::string sign(const std::string& secret, const std::string& id, const std::string& timestamp,
                 const std::string& body) {
  return signature_over(secret, id + "." + timestamp + "." + body);
}

std::string now_seconds() { return std::to_string(std::time(nullptr)); }

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             system_clock::now().time_since_epoch())
      .count();
}

Headers webhook_headers(const std::string& id, const std::string& timestamp = now_seconds(),
                        const std::string& signature = "v1,c2lnbmF0dXJl") {
  return {{"Content-Type", "application/json"},
          {"Webhook-Id", id},
          {"Webhook-Timestamp", timestamp},
          {"Webhook-Signature", signature}};
}

std::vector<int> statuses(const std::vector<Delivery>& deliveries) {
  std::vector<int> out;
  out.reserve(deliveries.size());
  for (const Delivery& d : deliveries) out.push_back(d.status);
  return out;
}

std::vector<int> attempts(const std::vector<Delivery>& deliveries) {
  std::vector<int> out;
  out.reserve(deliveries.size());
  for (const Delivery& d : deliveries) out.push_back(d.attempt);
  return out;
}

constexpr const char kBody[] =
    R"({"type":"document.created","timestamp":"2026-01-02T03:04:05.678Z",)"
    R"("data":{"_key":"k-\u00e9","collection":"notes","note":"café €"}})";

TEST(WebhookReceiver, RecordsADeliveryAsSent) {
  WebhookReceiver receiver;
  ASSERT_TRUE(receiver.start());
  ASSERT_GT(receiver.port(), 0);
  EXPECT_EQ(receiver.url("/hooks/a"),
            "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hooks/a");

  const std::string timestamp = now_seconds();
  const std::string signature = "v1,Zmlyc3Q= v1,c2Vjb25k";  // several, separated by spaces
  const int64_t before = now_ms();
  const Sent sent =
      post(receiver, "/hooks/a?x=1", kBody, webhook_headers("msg_2Kq0xYz", timestamp, signature));
  const int64_t after = now_ms();
  ASSERT_EQ(sent.status, 200) << sent.error;

  const std::vector<Delivery> got = receiver.deliveries();
  ASSERT_EQ(got.size(), 1u);
  const Delivery& d = got[0];
  EXPECT_EQ(d.seq, 1);
  EXPECT_EQ(d.method, "POST");
  EXPECT_EQ(d.path, "/hooks/a?x=1");
  EXPECT_EQ(d.id, "msg_2Kq0xYz");
  EXPECT_EQ(d.timestamp, timestamp);
  EXPECT_EQ(d.signature, signature);
  EXPECT_EQ(d.body, kBody);  // byte for byte, UTF-8 included
  EXPECT_TRUE(d.body_valid_utf8);
  EXPECT_EQ(d.header("content-type"), "application/json");
  EXPECT_EQ(d.header("Webhook-Id"), "msg_2Kq0xYz");
  EXPECT_EQ(d.header("WEBHOOK-SIGNATURE"), signature);
  EXPECT_EQ(d.header("content-length"), std::to_string(std::strlen(kBody)));
  EXPECT_EQ(d.header("x-absent"), "");
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.attempt, 1);
  EXPECT_GT(d.peer_port, 0);
  // The receipt time is the wall clock's (a second's slack for clock granularity, not speed).
  EXPECT_GE(d.received_ms, before - 1000);
  EXPECT_LE(d.received_ms, after + 1000);
  EXPECT_GE(d.answered_ms, d.received_ms);
}

TEST(WebhookReceiver, ControlRequestsAreNotDeliveries) {
  WebhookReceiver receiver(ReceiverOptions{});
  ASSERT_GT(receiver.port(), 0);
  ASSERT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  EXPECT_EQ(receiver.deliveries().size(), 1u);
  EXPECT_TRUE(receiver.set_behaviour({}));
  EXPECT_EQ(post(receiver, "/_control", "{\"status\": 99}", {}).status, 400);
  EXPECT_EQ(post(receiver, "/_control", "{\"unknown\": 1}", {}).status, 400);
  EXPECT_FALSE(receiver.set_behaviour({.status = 99}));
  EXPECT_EQ(receiver.deliveries().size(), 1u);
  // Any other path is a delivery, whatever its method or headers.
  ASSERT_EQ(post(receiver, "/other", "not json", {}).status, 200);
  const std::vector<Delivery> got = receiver.deliveries();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].path, "/other");
  EXPECT_EQ(got[1].id, "");
  EXPECT_EQ(got[1].body, "not json");
}

TEST(WebhookReceiver, FailFirstFailsTheFirstAttemptsOfEachId) {
  WebhookReceiver receiver({.behaviour = {.fail_first = 2, .fail_status = 503}});
  ASSERT_GT(receiver.port(), 0);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 503);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 503);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 503);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 503);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 200);

  const std::vector<Delivery> got = receiver.deliveries();
  EXPECT_EQ(statuses(got), (std::vector<int>{503, 503, 503, 200, 200, 503, 200}));
  EXPECT_EQ(attempts(got), (std::vector<int>{1, 2, 1, 3, 4, 2, 3}));

  // fail_status defaults to 500.
  ASSERT_TRUE(receiver.set_behaviour({.fail_first = 1}));
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 500);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 200);
}

TEST(WebhookReceiver, StatusAnswersEveryDeliveryAndChangesAtRunTime) {
  WebhookReceiver receiver({.behaviour = {.status = 204}});
  ASSERT_GT(receiver.port(), 0);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 204);
  ASSERT_TRUE(receiver.set_behaviour({.status = 410}));
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 410);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 410);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 410);
  ASSERT_TRUE(receiver.set_behaviour({}));
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 200);
  EXPECT_EQ(statuses(receiver.deliveries()), (std::vector<int>{204, 410, 410, 410, 200}));
}

TEST(WebhookReceiver, SleepMsDelaysEveryAnswer) {
  WebhookReceiver receiver({.behaviour = {.sleep_ms = 300}});
  ASSERT_GT(receiver.port(), 0);
  for (const char* id : {"msg_a", "msg_b"}) {
    const auto start = steady_clock::now();
    EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers(id)).status, 200);
    EXPECT_GE(steady_clock::now() - start, std::chrono::milliseconds(300));  // a lower bound only
  }
  ASSERT_TRUE(receiver.set_behaviour({}));
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 200);
  EXPECT_EQ(receiver.deliveries().size(), 3u);
}

TEST(WebhookReceiver, CloseFirstDropsTheConnectionUnanswered) {
  WebhookReceiver receiver({.behaviour = {.close_first = 1}});
  ASSERT_GT(receiver.port(), 0);
  const Sent dropped = post(receiver, "/hook", kBody, webhook_headers("msg_a"));
  EXPECT_EQ(dropped.status, 0);
  EXPECT_FALSE(dropped.error.empty());
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_b")).status, 0);

  std::vector<Delivery> got = receiver.deliveries();
  EXPECT_EQ(statuses(got), (std::vector<int>{0, 200, 0}));
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].answered_ms, 0);  // never responded
  EXPECT_EQ(got[0].body, kBody);     // but recorded whole

  // Drops come first, then failures, then the status.
  ASSERT_TRUE(receiver.set_behaviour({.fail_first = 2, .fail_status = 502, .close_first = 1}));
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 0);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 502);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_c")).status, 200);
}

TEST(WebhookReceiver, ResetForgetsDeliveriesAndAttemptCounts) {
  WebhookReceiver receiver({.behaviour = {.fail_first = 1}});
  ASSERT_GT(receiver.port(), 0);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 500);
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  ASSERT_TRUE(receiver.reset());
  EXPECT_TRUE(receiver.deliveries().empty());
  EXPECT_EQ(post(receiver, "/hook", kBody, webhook_headers("msg_a")).status,
            500);  // the behaviour stays
  const std::vector<Delivery> got = receiver.deliveries();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].seq, 1);
  EXPECT_EQ(got[0].attempt, 1);
}

TEST(WebhookReceiver, WaitForReturnsOnceTheCountArrived) {
  WebhookReceiver receiver(ReceiverOptions{});
  ASSERT_GT(receiver.port(), 0);
  std::thread sender([&receiver] {
    for (int i = 0; i < 5; ++i) {
      post(receiver, "/hook", kBody, webhook_headers("msg_" + std::to_string(i)));
    }
  });
  const std::vector<Delivery> got = receiver.wait_for(5, std::chrono::seconds(30));
  sender.join();
  ASSERT_EQ(got.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(got[static_cast<size_t>(i)].id, "msg_" + std::to_string(i));
  // More than will ever come: what there is, once the time is up.
  EXPECT_EQ(receiver.wait_for(6, std::chrono::milliseconds(200)).size(), 5u);
}

TEST(WebhookReceiver, StopsWithItsOwner) {
  WebhookReceiver never_started;
  EXPECT_EQ(never_started.port(), 0);
  EXPECT_TRUE(never_started.deliveries().empty());
  EXPECT_FALSE(never_started.reset());

  auto receiver = std::make_unique<WebhookReceiver>(ReceiverOptions{});
  const int port = receiver->port();
  ASSERT_GT(port, 0);
  ASSERT_EQ(post(*receiver, "/hook", kBody, webhook_headers("msg_a")).status, 200);
  receiver.reset();  // closes the child's stdin: it exits, and is waited for
  EXPECT_EQ(post(port, "/hook", kBody, webhook_headers("msg_b")).status, 0);
}

TEST(WebhookReceiver, StandardWebhooksVerifiesTheSignatureComputedHere) {
  WebhookReceiver receiver(ReceiverOptions{});
  ASSERT_GT(receiver.port(), 0);
  const std::string secret = fresh_secret();
  const std::string timestamp = now_seconds();
  const std::string id = "msg_" + std::to_string(now_ms());
  const std::string good = sign(secret, id, timestamp, kBody);
  // One delivery signed once; one with a stale signature first, as during a secret rotation.
  ASSERT_EQ(post(receiver, "/hook", kBody, webhook_headers(id, timestamp, good)).status, 200);
  const std::string rotated = sign(fresh_secret(), id, timestamp, kBody) + " " + good;
  ASSERT_EQ(post(receiver, "/hook", kBody, webhook_headers(id, timestamp, rotated)).status, 200);
  const std::vector<Delivery> got = receiver.wait_for(2, std::chrono::seconds(10));
  ASSERT_EQ(got.size(), 2u);

  const VerifierResult verified = verify_signatures(secret, got);
  EXPECT_EQ(verified.exit_code, 0) << verified.output;
  EXPECT_EQ(verified.lines, (std::vector<std::string>{"ok", "ok"})) << verified.output;

  // A changed body, a wrong secret, the spec's literal "<timestamp>.<body>" text (no id): refused.
  Delivery tampered = got[0];
  tampered.body.replace(tampered.body.find("notes"), 5, "Notes");
  Delivery no_id = got[0];
  no_id.signature = signature_over(secret, timestamp + "." + kBody);
  const VerifierResult refused = verify_signatures(secret, {got[0], tampered, no_id});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  ASSERT_EQ(refused.lines.size(), 3u) << refused.output;
  EXPECT_EQ(refused.lines[0], "ok");
  EXPECT_TRUE(refused.lines[1].starts_with("FAIL ")) << refused.lines[1];
  EXPECT_TRUE(refused.lines[2].starts_with("FAIL ")) << refused.lines[2];
  const VerifierResult wrong_secret = verify_signatures(fresh_secret(), {got[0]});
  EXPECT_EQ(wrong_secret.exit_code, 1) << wrong_secret.output;
  EXPECT_EQ(verify_signatures(secret, {}).exit_code, 2);
}

}  // namespace
}  // namespace opbase::test

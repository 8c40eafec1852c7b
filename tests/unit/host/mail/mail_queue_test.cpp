// MailQueue on the memory store with a fake clock and a scripted transport: submit returns
// {"queued": true} without sending; a worker sends in the background and removes the mail; a
// failure is retried after a doubling wait and given up after the last attempt; a stop leaves
// pending mail queued for the next queue on the same stores; two workers never send one mail
// twice; the metrics count what happened.
#include "mail/mail_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "metrics/metrics.hpp"
#include "reference_store/memory_driver.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Sends by recording; fails while `failures_left` > 0.
class ScriptedTransport : public Mailer {
 public:
  Status send(const Mail& mail) override {
    const std::lock_guard lock(mutex);
    if (failures_left > 0) {
      --failures_left;
      ++failed;
      return Status::internal("421 try later");
    }
    sent.push_back(mail);
    return Status::ok();
  }
  size_t sent_count() {
    const std::lock_guard lock(mutex);
    return sent.size();
  }
  std::mutex mutex;
  std::vector<Mail> sent;
  int failures_left = 0;
  int failed = 0;
};

class MailQueueTest : public ::testing::Test {
 protected:
  MailQueueTest() : stores_(std::make_unique<MemoryDriver>()) {
    EXPECT_TRUE(stores_.open_all({"p1"}).is_ok());
  }
  std::unique_ptr<MailQueue> make_queue(MailQueueSettings settings = {}) {
    return std::make_unique<MailQueue>(transport_, stores_, settings,
                                       [this] { return now_.load(); });
  }
  // The queue's documents in the store, or nullopt when the store cannot be read.
  std::optional<std::vector<json>> queued_documents() {
    store::FindRequest find;
    find.collection = "mail_queue";
    find.scope = store::Scope::everyone();
    find.limit = -1;
    auto found = stores_.of("p1")->find_documents("host.mail", find);
    if (!found.is_ok()) return std::nullopt;
    return std::move(found->documents);
  }
  size_t queued_in_store() {
    const auto documents = queued_documents();
    return documents ? documents->size() : 999;
  }
  // The attempts the queue has recorded for the one queued mail (-1 when there is not one).
  int recorded_attempts() {
    const auto documents = queued_documents();
    if (!documents || documents->size() != 1) return -1;
    return documents->front().value("attempts", -1);
  }
  // Waits (at most 10 s) until `done` holds.
  template <typename Done>
  bool eventually(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(5ms);
    }
    return true;
  }

  const Mail mail_{"ann@example.com", "Your code", "123456\n"};
  ScriptedTransport transport_;
  Stores stores_;
  std::atomic<int64_t> now_{1'700'000'000'000};
};

TEST_F(MailQueueTest, SubmitQueuesWithoutSendingAndAWorkerSendsAndRemovesIt) {
  auto queue = make_queue();
  auto answer = queue->submit("p1", mail_);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_EQ(*answer, json({{"queued", true}}));
  EXPECT_EQ(transport_.sent_count(), 0u);
  EXPECT_EQ(queued_in_store(), 1u);
  queue->start();
  ASSERT_TRUE(eventually([&] { return transport_.sent_count() == 1 && queued_in_store() == 0; }));
  EXPECT_EQ(transport_.sent[0].text, "123456\n");
  queue->stop();
  EXPECT_NE(queue->metrics().find("opbase_mail_sent_total 1\n"), std::string::npos);
  EXPECT_NE(queue->metrics().find("opbase_mail_queued_total 1\n"), std::string::npos);
}

TEST_F(MailQueueTest, ADecoyIsStoredAndAnsweredLikeAMailThenDroppedUnsent) {
  auto queue = make_queue();
  Mail decoy = mail_;
  decoy.discard = true;
  auto answer = queue->submit("p1", decoy);
  ASSERT_TRUE(answer.is_ok());
  EXPECT_EQ(*answer, json({{"queued", true}}));
  EXPECT_EQ(queued_in_store(), 1u);  // the same write as a real mail
  queue->start();
  ASSERT_TRUE(eventually([&] { return queued_in_store() == 0; }));
  queue->stop();
  EXPECT_EQ(transport_.sent_count(), 0u);
  EXPECT_NE(queue->metrics().find("opbase_mail_queued_total 0\n"), std::string::npos);
}

TEST_F(MailQueueTest, ABadMailOrAProjectWithoutAStoreIsRefusedAtOnce) {
  auto queue = make_queue();
  EXPECT_EQ(queue->submit("p1", {"a@b.c\r\nBcc: x@y.z", "s", "t"}).status().code(),
            code::kValidationError);
  EXPECT_EQ(queue->submit("nowhere", mail_).status().code(), code::kInternalError);
  EXPECT_EQ(queued_in_store(), 0u);
}

TEST_F(MailQueueTest, AFailureIsRetriedAfterADoublingWaitAndThenSent) {
  transport_.failures_left = 2;
  auto queue = make_queue({1, 8, 5});
  queue->start();
  ASSERT_TRUE(queue->submit("p1", mail_).is_ok());
  // The transport counts a failure before the queue writes the next due time from the clock:
  // the clock moves only once that is written.
  ASSERT_TRUE(eventually([&] { return transport_.failed == 1 && recorded_attempts() == 1; }));
  now_ += 4'000;                        // the first wait is 5 s
  std::this_thread::sleep_for(1500ms);  // a worker looks at least once a second
  EXPECT_EQ(transport_.failed, 1);
  now_ += 1'000;
  ASSERT_TRUE(eventually([&] { return transport_.failed == 2 && recorded_attempts() == 2; }));
  now_ += 9'000;  // the second wait is 10 s
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(transport_.failed, 2);
  now_ += 1'000;
  ASSERT_TRUE(eventually([&] { return transport_.sent_count() == 1 && queued_in_store() == 0; }));
  queue->stop();
  EXPECT_NE(queue->metrics().find("opbase_mail_retried_total 2\n"), std::string::npos);
}

TEST_F(MailQueueTest, AMailIsGivenUpAndRemovedAfterItsLastAttempt) {
  transport_.failures_left = 100;
  auto queue = make_queue({1, 2, 1});
  queue->start();
  ASSERT_TRUE(queue->submit("p1", mail_).is_ok());
  ASSERT_TRUE(eventually([&] { return transport_.failed == 1; }));
  now_ += 1'000;
  ASSERT_TRUE(eventually([&] { return transport_.failed == 2 && queued_in_store() == 0; }));
  queue->stop();
  EXPECT_NE(queue->metrics().find("opbase_mail_failed_total 1\n"), std::string::npos);
}

TEST_F(MailQueueTest, AStopLeavesPendingMailForTheNextQueue) {
  {
    auto queue = make_queue();
    ASSERT_TRUE(queue->submit("p1", mail_).is_ok());  // never started: nothing sent
  }
  EXPECT_EQ(queued_in_store(), 1u);
  auto next = make_queue();
  next->start();
  ASSERT_TRUE(eventually([&] { return transport_.sent_count() == 1 && queued_in_store() == 0; }));
}

TEST_F(MailQueueTest, ManyWorkersSendEachMailOnce) {
  auto first = make_queue({4, 8, 5});
  auto second = make_queue({4, 8, 5});  // another daemon on the same store
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(first->submit("p1", mail_).is_ok());
  first->start();
  second->start();
  ASSERT_TRUE(eventually([&] { return queued_in_store() == 0; }));
  first->stop();
  second->stop();
  EXPECT_EQ(transport_.sent_count(), 50u);
}

}  // namespace
}  // namespace opbase::host

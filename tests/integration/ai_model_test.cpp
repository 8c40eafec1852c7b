// ai_model_test: the ai plugin with its model provider against a local server that speaks the
// OpenAI API (tests/support/fake_openai_server.hpp), over HTTP end to end: the provider chosen
// per op, a project's own server and key, the answer in the spec's shape, the request the
// server saw, a failing server as
// PROCESSING_FAILED, and slow model calls waiting on the ai lane while the HTTP workers keep
// serving every other op.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "daemon_process.hpp"
#include "fake_openai_server.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::unique_ptr<DaemonProcess> start_daemon(const FakeOpenAiServer& server,
                                            const std::map<std::string, std::string>& extra = {}) {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "ai"};
  // One user makes every call here; ai_limits_test tests the per-user limits.
  options.config = {{"auth.rate.signup_per_address", "off"},
                    {"ai.rate_limit", "off"},
                    {"server.threads", "4"},
                    {"ai.provider.generate", "openai"},
                    {"ai.provider.sentiment", "openai"},
                    {"ai.openai.base_url", server.base_url()},
                    {"ai.openai.api_key", "sk-test-secret-key-0123456789"},
                    {"ai.openai.chat_model", "fake-chat-1"},
                    {"ai.openai.max_concurrency", "8"},
                    {"ai.openai.max_retries", "1"},
                    {"ai.openai.retry_base_ms", "10"},
                    {"ai.openai.timeout_s", "30"}};
  for (const auto& [key, value] : extra) options.config[key] = value;
  return DaemonProcess::start(options);
}

TEST(AiModel, GenerateGoesToTheModelServerAndAnswersTheSpecShape) {
  FakeOpenAiServer server;
  ASSERT_NE(server.port(), 0);
  server.script({chat_reply("Once upon a time")});
  auto daemon = start_daemon(server);
  const HttpResponse r = daemon->call({{"op", "baseai.create"},
                                       {"user_input", "Tell a story"},
                                       {"options", {{"content_style", "playful"}}}},
                                      daemon->user("ada").bearer());
  ASSERT_EQ(r.status, 200) << r.describe();
  const json body = r.json();
  EXPECT_EQ(body["data"]["output"], "Once upon a time");
  EXPECT_EQ(body["meta"]["content_length"], 4);
  EXPECT_EQ(body["meta"]["style_applied"], "playful");
  EXPECT_TRUE(body["meta"]["generation_time_ms"].is_number());
  EXPECT_EQ(body["meta"]["provider"], "openai");
  EXPECT_EQ(body["meta"]["model"], "fake-chat-1");

  const std::vector<FakeRequest> seen = server.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].path, "/v1/chat/completions");
  EXPECT_EQ(seen[0].header("Authorization"), "Bearer sk-test-secret-key-0123456789");
  EXPECT_EQ(seen[0].json["model"], "fake-chat-1");
  EXPECT_EQ(seen[0].json["stream"], false);
  EXPECT_NE(seen[0].json["messages"].dump().find("Tell a story"), std::string::npos);
  // The key is never written to the log.
  EXPECT_EQ(daemon->log().find("sk-test-secret-key"), std::string::npos);
}

TEST(AiModel, AProjectsOwnModelServerAndKeyAnswerForIt) {
  FakeOpenAiServer daemon_wide;
  FakeOpenAiServer own;
  own.script({chat_reply("From the project's own server")});
  auto daemon =
      start_daemon(daemon_wide, {{"projects.test.ai.openai.base_url", own.base_url()},
                                 {"projects.test.ai.openai.api_key", "sk-project-own-key-98765"}});
  const HttpResponse r = daemon->call({{"op", "ai.generate"}, {"user_input", "Say hello"}},
                                      daemon->user("ada").bearer());
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"]["output"], "From the project's own server");
  EXPECT_EQ(r.json()["meta"]["model"], "fake-chat-1");  // a key the project does not set
  ASSERT_EQ(own.requests().size(), 1u);
  EXPECT_EQ(own.requests()[0].header("Authorization"), "Bearer sk-project-own-key-98765");
  EXPECT_TRUE(daemon_wide.requests().empty());
  EXPECT_EQ(daemon->log().find("sk-project-own-key"), std::string::npos);
}

TEST(AiModel, OtherOpsStayOfflineAndAFailingServerIsProcessingFailed) {
  FakeOpenAiServer server;
  server.script({error_reply(500, "overloaded")});
  auto daemon = start_daemon(server);
  const auto bearer = daemon->user("ada").bearer();
  // Summarize was not routed to the model: the offline provider answers it.
  const HttpResponse summary =
      daemon->call({{"op", "ai.summarize"}, {"content", "One sentence. Another one."}}, bearer);
  ASSERT_EQ(summary.status, 200) << summary.describe();
  EXPECT_EQ(summary.json()["meta"]["provider"], "offline");
  // Sentiment was: the server fails every attempt.
  const HttpResponse failed =
      daemon->call({{"op", "ai.sentiment"}, {"content", "I love it"}}, bearer);
  ASSERT_EQ(failed.status, 502) << failed.describe();
  const json error = failed.json()["error"];
  EXPECT_EQ(error["code"], "PROCESSING_FAILED");
  EXPECT_EQ(error["details"]["error_type"], "server_error");
  EXPECT_EQ(error["details"]["retry_recommended"], true);
  EXPECT_EQ(server.requests().size(), 2u) << "one attempt and one retry";
}

TEST(AiModel, SlowModelCallsWaitOnTheLaneWhileOtherOpsAreServed) {
  FakeOpenAiServer server;
  FakeReply slow = chat_reply("done");
  slow.delay = 1500ms;
  server.script({slow});
  auto daemon = start_daemon(server);
  const auto bearer = daemon->user("ada").bearer();
  const HttpResponse inserted = daemon->call(
      {{"op", "collection.insert"}, {"collection", "notes"}, {"data", {{"title", "kept"}}}},
      bearer);
  ASSERT_EQ(inserted.status, 200) << inserted.describe();
  const json inserted_data = inserted.json()["data"];
  const std::string key =
      (inserted_data.is_array() ? inserted_data[0] : inserted_data)["_key"].get<std::string>();

  // Six times the HTTP workers' worth of model calls, each taking 1.5 s.
  constexpr int kCalls = 24;
  std::vector<HttpResponse> answers(kCalls);
  std::vector<std::jthread> callers;
  for (int i = 0; i < kCalls; ++i) {
    callers.emplace_back([&, i] {
      answers[i] = daemon->call({{"op", "ai.generate"}, {"user_input", "Say done"}}, bearer);
    });
  }
  for (int i = 0; i < 300 && daemon->metric("opbase_lane_running{plugin=\"ai\"}") < 8; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GE(daemon->metric("opbase_lane_running{plugin=\"ai\"}").value_or(0), 8);
  // Meanwhile the workers answer reads, each well before the model calls are through.
  int reads_while_waiting = 0;
  for (int i = 0; i < 20; ++i) {
    const HttpResponse read = daemon->call(
        {{"op", "collection.find"}, {"collection", "notes"}, {"match", {{"_key", key}}}}, bearer);
    ASSERT_EQ(read.status, 200) << read.describe();
    EXPECT_EQ(read.json()["data"][0]["title"], "kept");
    if (daemon->metric("opbase_lane_running{plugin=\"ai\"}").value_or(0) > 0) ++reads_while_waiting;
  }
  EXPECT_GE(reads_while_waiting, 15) << "the reads finished while model calls were under way";
  for (std::jthread& caller : callers) caller.join();
  for (const HttpResponse& answer : answers) {
    ASSERT_EQ(answer.status, 200) << answer.describe();
    EXPECT_EQ(answer.json()["data"]["output"], "done");
  }
  EXPECT_LE(server.max_in_flight(), 8) << "ai.openai.max_concurrency";
}

}  // namespace
}  // namespace opbase::test

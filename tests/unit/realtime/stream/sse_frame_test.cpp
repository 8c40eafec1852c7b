// stream/sse_frame.hpp: events, comments and retry lines as the server-sent events standard
// frames them, a JSON data line that can never break the frame.
#include "stream/sse_frame.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::realtime {
namespace {

TEST(SseFrame, AnEventIsItsLinesAndABlankLine) {
  EXPECT_EQ(sse_event("evt_1", "created", R"({"a":1})"),
            "id: evt_1\nevent: created\ndata: {\"a\":1}\n\n");
  EXPECT_EQ(sse_event("", "connect", "{}"), "event: connect\ndata: {}\n\n");
  EXPECT_EQ(sse_comment("heartbeat"), ": heartbeat\n\n");
  EXPECT_EQ(sse_retry(2000), "retry: 2000\n\n");
}

TEST(SseFrame, LineBreaksInsideTheDataStayInsideTheJson) {
  const std::string data = nlohmann::json{{"text", "one\ntwo\r\n\nthree"}}.dump();
  const std::string frame = sse_event("evt_2", "created", data);
  // The only blank line is the one ending the event.
  EXPECT_EQ(frame.find("\n\n"), frame.size() - 2);
  EXPECT_EQ(frame.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace opbase::realtime

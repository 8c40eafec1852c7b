// http/held_connection.hpp on a real socket pair, the I/O thread's part called by the test as
// the front would call it: pushes reach the peer whole and in order, bytes the peer takes none
// of stall once they have waited the send time (and each bit it takes starts the time again),
// a push past the bound drops what waits for the farewell, and the end is told once with the
// first reason noted.
#include "http/held_connection.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace opbase::host::http {
namespace {

using namespace std::chrono_literals;

class HeldConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds_), 0);
    // A small send buffer, so the socket is full after a few pushes the peer does not read.
    const int size = 4096;
    ::setsockopt(fds_[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    ASSERT_TRUE(epoll_.open());
    connection_ = std::make_unique<Connection>(fds_[0], "peer");
    epoll_.watch(connection_->fd, 0, connection_.get());
    connection_->phase = Connection::Phase::kHeld;
  }
  void TearDown() override {
    if (held_) held_->closed();
    ::close(fds_[0]);
    ::close(fds_[1]);
  }

  HeldConnection& hold(size_t max_queued = 1 << 20) {
    HoldOptions options;
    options.max_queued_bytes = max_queued;
    options.too_slow_farewell = "farewell";
    options.on_end = [this](HeldEnd why) { ends_.push_back(why); };
    held_ =
        std::make_shared<HeldConnection>(*connection_, epoll_, counters_, 2s, std::move(options));
    return *held_;
  }
  // The front's turn on the connection.
  void serve() {
    std::lock_guard lock(connection_->mu);
    held_->serve();
  }
  // What the peer can read now.
  std::string peer_reads() {
    std::string got;
    char buffer[65536];
    for (ssize_t n; (n = ::read(fds_[1], buffer, sizeof buffer)) > 0;) got.append(buffer, n);
    return got;
  }
  // Pushes pieces, serving after each, until some wait that the socket would not take.
  void fill_the_socket(HeldConnection& held) {
    const std::string piece(1024, 'x');
    for (int i = 0; i < 10'000 && held.queued_bytes() == 0; ++i) {
      ASSERT_TRUE(held.push(piece));
      serve();
    }
    ASSERT_GT(held.queued_bytes(), 0u) << "the socket never filled";
  }

  int fds_[2] = {-1, -1};
  Epoll epoll_;
  ServerCounters counters_;
  std::unique_ptr<Connection> connection_;
  std::shared_ptr<HeldConnection> held_;
  std::vector<HeldEnd> ends_;
};

TEST_F(HeldConnectionTest, PushesReachThePeerWholeAndInOrder) {
  HeldConnection& held = hold();
  EXPECT_TRUE(held.push("data: one\n\n"));
  EXPECT_TRUE(held.push("data: two\n\n"));
  EXPECT_EQ(held.queued_bytes(), 22u);
  serve();
  EXPECT_EQ(held.queued_bytes(), 0u);
  EXPECT_EQ(peer_reads(), "data: one\n\ndata: two\n\n");
  EXPECT_EQ(counters_.held_open.load(), 1);
}

TEST_F(HeldConnectionTest, NothingWaitingNeverStalls) {
  HeldConnection& held = hold();
  EXPECT_FALSE(held.stalled(SteadyClock::now() + 24h));
  EXPECT_TRUE(held.push("x"));
  serve();
  peer_reads();
  EXPECT_FALSE(held.stalled(SteadyClock::now() + 24h));
}

TEST_F(HeldConnectionTest, BytesThePeerTakesNoneOfStallAfterTheSendTime) {
  HeldConnection& held = hold();
  fill_the_socket(held);
  const auto filled = SteadyClock::now();
  EXPECT_FALSE(held.stalled(filled + 1s));
  EXPECT_TRUE(held.stalled(filled + 2s + 10ms));
  // The peer takes some: the send time starts again from the front's next send.
  EXPECT_FALSE(peer_reads().empty());
  serve();
  const auto progressed = SteadyClock::now();
  EXPECT_FALSE(held.stalled(progressed + 1s));
  if (held.queued_bytes() > 0) EXPECT_TRUE(held.stalled(progressed + 2s + 10ms));
  EXPECT_TRUE(ends_.empty());
}

TEST_F(HeldConnectionTest, APushPastTheBoundDropsWhatWaitsForTheFarewell) {
  HeldConnection& held = hold(/*max_queued=*/8 * 1024);
  fill_the_socket(held);
  const std::string piece(1024, 'y');
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) refused = !held.push(piece);
  ASSERT_TRUE(refused);
  EXPECT_EQ(counters_.held_too_slow.load(), 1u);
  EXPECT_FALSE(held.push("z")) << "the response has ended";
  // The socket's own bytes still go first; the farewell follows, and nothing queued after it.
  std::string received;
  for (int i = 0; i < 1000 && received.find("farewell") == std::string::npos; ++i) {
    received += peer_reads();
    serve();
  }
  received += peer_reads();
  ASSERT_NE(received.find("farewell"), std::string::npos);
  EXPECT_TRUE(received.ends_with("farewell"));
  EXPECT_EQ(received.find('y'), std::string::npos) << "what waited was dropped";
  EXPECT_EQ(connection_->phase, Connection::Phase::kClosing);
  held.closed();
  EXPECT_EQ(ends_, std::vector<HeldEnd>{HeldEnd::kTooSlow});
}

TEST_F(HeldConnectionTest, TheEndIsToldOnceWithTheFirstReasonNoted) {
  HeldConnection& held = hold();
  held.note_end(HeldEnd::kServerStopping);
  held.note_end(HeldEnd::kTooSlow);
  held.closed();
  held.closed();
  EXPECT_EQ(ends_, std::vector<HeldEnd>{HeldEnd::kServerStopping});
  EXPECT_FALSE(held.push("late"));
  EXPECT_EQ(counters_.held_open.load(), 0);
}

TEST_F(HeldConnectionTest, ACloseSendsWhatWaitsThenItsLastBytes) {
  HeldConnection& held = hold();
  EXPECT_TRUE(held.push("a"));
  held.close("end");
  EXPECT_FALSE(held.push("b"));
  serve();
  EXPECT_EQ(peer_reads(), "aend");
  EXPECT_EQ(connection_->phase, Connection::Phase::kClosing);
  held.closed();
  EXPECT_EQ(ends_, std::vector<HeldEnd>{HeldEnd::kClosed});
}

}  // namespace
}  // namespace opbase::host::http

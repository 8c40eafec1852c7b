#include "http/http_server.hpp"

#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <vector>

#include "http/connection.hpp"
#include "http/work_queue.hpp"
#include "log/log.hpp"
#include "opbase/error_code.hpp"
#include "opbase/thread_name.hpp"

namespace opbase::host::http {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// How often the I/O thread looks for connections past their deadline.
constexpr milliseconds kSweepInterval{250};
// The most connections closed for a deadline in one turn of the I/O loop.
constexpr int kClosesPerTurn = 128;
// How long a connection closed after an answer keeps reading (and dropping) what its client still
// sends, and how much, so the client can read the answer instead of meeting a reset.
constexpr seconds kLingerTime{2};
constexpr size_t kMaxLingerBytes = size_t{64} << 20;
// The most one connection reads in one turn, so a fast sender cannot hold the I/O thread.
constexpr size_t kReadPerTurn = 256 * 1024;

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

std::string address_text(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(address);
    inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
  } else {
    const auto& in4 = reinterpret_cast<const sockaddr_in&>(address);
    inet_ntop(AF_INET, &in4.sin_addr, text, sizeof text);
  }
  return text;
}

// Opened files are what connections use up first: take the whole hard limit, and keep a margin
// for the stores, plugins and log files.
int connection_limit(int configured) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return configured;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  constexpr rlim_t kMargin = 256;
  if (limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur > static_cast<rlim_t>(configured) + kMargin) {
    return configured;
  }
  const int possible = limit.rlim_cur > kMargin ? static_cast<int>(limit.rlim_cur - kMargin) : 1;
  log::warn("http", "server.max_connections is " + std::to_string(configured) + " but only " +
                        std::to_string(limit.rlim_cur) + " files may be open; serving at most " +
                        std::to_string(possible) + " connections (raise LimitNOFILE / ulimit -n)");
  return possible;
}

Status busy(std::string message, std::string_view reason) {
  return Status(code::kRateLimitExceeded, std::move(message),
                {{"retry_after", 1}, {"reason", reason}});
}

}  // namespace

class HttpServer::Loop {
 public:
  Loop(const ServerSettings& settings, const Handler& handler, ServerCounters& counters)
      : settings_(settings),
        handler_(handler),
        counters_(counters),
        max_connections_(connection_limit(settings.max_connections)) {}

  ~Loop() {
    for (auto& [fd, connection] : connections_) ::close(fd);
    if (wake_fd_ >= 0) ::close(wake_fd_);
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
  }

  Status listen(int& port) {
    try {
      listener_.bind(
          Poco::Net::SocketAddress(settings_.host, static_cast<Poco::UInt16>(settings_.port)),
          /*reuseAddress=*/true, /*reusePort=*/false);
      listener_.listen(std::max(128, settings_.queue));
      listener_.setBlocking(false);
    } catch (const Poco::Exception& e) {
      return Status::internal("cannot listen on " + settings_.host + ":" +
                              std::to_string(settings_.port) + ": " + e.displayText());
    }
    port = listener_.address().port();
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0) return Status::internal("cannot create the event loop");
    watch(listener_.impl()->sockfd(), EPOLLIN, &listener_);
    watch(wake_fd_, EPOLLIN, &wake_fd_);
    return Status::ok();
  }

  void start() {
    workers_ = std::make_unique<WorkQueue>(settings_.threads, static_cast<size_t>(settings_.queue),
                                           "http-worker");
    thread_ = std::thread([this] {
      name_this_thread("http-io");
      run();
    });
  }

  void stop(int drain_s) {
    stopping_.store(true);
    wake();
    const auto deadline = SteadyClock::now() + seconds(drain_s);
    while (counters_.open.load() > 0 && SteadyClock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(10));
    }
    if (const int64_t left = counters_.open.load(); left > 0) {
      log::warn("http", std::to_string(left) +
                            " connection(s) still busy after the drain time; closing them");
    }
    finished_.store(true);
    wake();
    if (thread_.joinable()) thread_.join();
    workers_->stop();  // handles what was queued; its writes go to sockets still open
  }

 private:
  // ---- the I/O thread ----

  void run() {
    std::vector<epoll_event> events(256);
    auto next_sweep = SteadyClock::now() + kSweepInterval;
    while (!finished_.load()) {
      const int wait_ms = expired_.empty() ? static_cast<int>(kSweepInterval.count()) : 0;
      const int n = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), wait_ms);
      for (int i = 0; i < n; ++i) {
        void* tag = events[static_cast<size_t>(i)].data.ptr;
        if (tag == &listener_) {
          accept_all();
        } else if (tag == &wake_fd_) {
          uint64_t drained;
          [[maybe_unused]] ssize_t got = ::read(wake_fd_, &drained, sizeof drained);
        } else {
          on_event(*static_cast<Connection*>(tag));
        }
      }
      if (stopping_.load() && !listener_closed_) stop_accepting();
      if (const auto now = SteadyClock::now(); now >= next_sweep) {
        sweep(now);
        next_sweep = now + kSweepInterval;
      }
      close_some_expired();
      closed_.clear();  // only now: an event of this turn may still have named them
    }
    // Past the drain time: a stream still under way (a large upload) is cut off, so its thread
    // gives up at once rather than holding the stop until the client finishes.
    for (auto& [fd, connection] : connections_) {
      std::lock_guard lock(connection->mu);
      if (connection->phase == Connection::Phase::kWithWorker) ::shutdown(fd, SHUT_RDWR);
    }
  }

  void accept_all() {
    for (int i = 0; i < 256; ++i) {
      sockaddr_storage address{};
      socklen_t length = sizeof address;
      const int fd = accept4(listener_.impl()->sockfd(), reinterpret_cast<sockaddr*>(&address),
                             &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE) {
          // Out of files: stop listening until the next sweep instead of spinning on the error.
          log::warn("http", "out of file descriptors; pausing accepts");
          modify(listener_.impl()->sockfd(), 0, &listener_);
          accept_paused_ = true;
        }
        return;
      }
      admit_connection(fd, address_text(address));
    }
  }

  void admit_connection(int fd, std::string address) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    counters_.accepted.fetch_add(1, std::memory_order_relaxed);
    if (static_cast<int>(connections_.size()) - refusing_ >= max_connections_) {
      counters_.refused_server_full.fetch_add(1, std::memory_order_relaxed);
      return refuse_connection(fd, std::move(address), 503,
                               busy("the server holds as many connections as it may (" +
                                        std::to_string(max_connections_) + "); try again",
                                    "server_full"));
    }
    const auto from_address = per_address_.find(address);
    if (settings_.max_connections_per_address > 0 && from_address != per_address_.end() &&
        from_address->second >= settings_.max_connections_per_address) {
      counters_.refused_address_full.fetch_add(1, std::memory_order_relaxed);
      return refuse_connection(fd, std::move(address), 429,
                               busy("this address holds as many connections as it may (" +
                                        std::to_string(settings_.max_connections_per_address) + ")",
                                    "address_full"));
    }
    ++per_address_[address];
    Connection& c = add_connection(fd, std::move(address));
    c.deadline = SteadyClock::now() + seconds(settings_.header_timeout_s);
    watch(fd, EPOLLIN | EPOLLONESHOT, &c);
  }

  Connection& add_connection(int fd, std::string address) {
    auto connection = std::make_unique<Connection>(fd, std::move(address));
    Connection& c = *connection;
    connections_.emplace(fd, std::move(connection));
    counters_.open.fetch_add(1, std::memory_order_relaxed);
    return c;
  }

  // A connection over a cap gets its refusal and is closed after lingering like any other
  // responded to one, so the client reads the response rather than a reset. At most kMaxRefusing
  // such connections at once; past that, a flood is closed without an answer.
  static constexpr int kMaxRefusing = 1024;
  void refuse_connection(int fd, std::string address, int status, const Status& why) {
    if (refusing_ >= kMaxRefusing) {
      ::close(fd);
      return;
    }
    ++refusing_;
    Connection& c = add_connection(fd, std::move(address));
    c.refused_at_accept = true;
    watch(fd, 0, &c);
    std::lock_guard lock(c.mu);
    queue_response(c, handler_.refuse(status, why, nullptr), Connection::Then::kLinger);
  }

  void on_event(Connection& c) {
    std::unique_lock lock(c.mu);
    switch (c.phase) {
      case Connection::Phase::kHead:
      case Connection::Phase::kBody:
        return read_request(c);
      case Connection::Phase::kWriting:
        return send_out(c);
      case Connection::Phase::kLingering:
        return linger(c);
      case Connection::Phase::kClosing:
        lock.unlock();
        return close(c);
      case Connection::Phase::kWithWorker:
        return;  // not armed while a worker has it; nothing to do
    }
  }

  enum class ReadResult { kMore, kEnd, kBroken };

  // Reads what has arrived (at most kReadPerTurn) into `c.in`.
  ReadResult read_some(Connection& c, size_t* got_total = nullptr) {
    char buffer[65536];
    size_t total = 0;
    while (total < kReadPerTurn) {
      const ssize_t got = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (got > 0) {
        c.in.append(buffer, static_cast<size_t>(got));
        total += static_cast<size_t>(got);
        // Less than asked for: the socket is empty now. Anything arriving later re-arms the
        // event, so the recv that would only say EAGAIN is saved.
        if (static_cast<size_t>(got) < sizeof buffer) break;
        continue;
      }
      if (got == 0) return ReadResult::kEnd;
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      return ReadResult::kBroken;
    }
    if (got_total) *got_total = total;
    return ReadResult::kMore;
  }

  void read_request(Connection& c) {
    const ReadResult read = read_some(c);
    if (read == ReadResult::kBroken) return schedule_close(c);
    if (read == ReadResult::kEnd) {
      if (c.in.empty() && !c.request_started) return schedule_close(c);
      if (!advance(c, /*at_end=*/true)) return;
      // The client stopped sending in the middle of a request.
      counters_.malformed.fetch_add(1, std::memory_order_relaxed);
      return answer_and_close(
          c, 400,
          Status::validation(c.phase == Connection::Phase::kBody
                                 ? "the request body ended before it was complete"
                                 : "the connection ended inside a request head"),
          Connection::Then::kClose);
    }
    advance(c, /*at_end=*/false);
  }

  // Uses what `c.in` holds: parses a head, reads a body, hands a whole request to a worker.
  // Answers true when it is waiting for more bytes (and has armed the connection for them when
  // not `at_end`), false when it has dealt with the connection otherwise.
  bool advance(Connection& c, bool at_end) {
    if (c.phase == Connection::Phase::kHead) {
      if (c.in.empty()) return wait_for_bytes(c, at_end);
      if (!c.request_started) {
        c.request_started = true;
        c.deadline = SteadyClock::now() + seconds(settings_.header_timeout_s);
        c.request.head = {};
      }
      const std::string_view window = std::string_view(c.in).substr(0, settings_.max_header_bytes);
      const size_t length = head_length(window, c.head_scanned);
      if (length == 0) {
        c.head_scanned = window.size();
        if (c.in.size() > settings_.max_header_bytes) {
          counters_.malformed.fetch_add(1, std::memory_order_relaxed);
          answer_and_close(
              c, 400,
              Status::validation("the request head is larger than " +
                                 std::to_string(settings_.max_header_bytes) + " bytes"),
              Connection::Then::kLinger);
          return false;
        }
        return wait_for_bytes(c, at_end);
      }
      if (!take_head(c, length)) return false;
    }
    if (c.phase == Connection::Phase::kBody) {
      if (!take_body(c)) return false;
      if (c.phase == Connection::Phase::kBody) return wait_for_bytes(c, at_end);
    }
    return false;
  }

  bool wait_for_bytes(Connection& c, bool at_end) {
    if (!at_end) arm(c, EPOLLIN);
    return true;
  }

  // Parses and admits the head at the start of `c.in`; false when it responded instead.
  bool take_head(Connection& c, size_t length) {
    HeadParse parsed = parse_request_head(std::string_view(c.in).substr(0, length));
    c.in.erase(0, length);
    c.head_scanned = 0;
    if (!parsed.head) {
      counters_.malformed.fetch_add(1, std::memory_order_relaxed);
      answer_and_close(c, 400, Status::validation(parsed.error), Connection::Then::kLinger);
      return false;
    }
    c.request.head = std::move(*parsed.head);
    c.request.client_address = c.address;
    const RequestHead& head = c.request.head;
    if (std::optional<Response> refusal = handler_.admit(head, c.address)) {
      // The body, if any, was never read: the connection cannot carry another request.
      queue_response(c, std::move(*refusal),
                     head.has_body() ? Connection::Then::kLinger : Connection::Then::kNextRequest);
      return false;
    }
    if (handler_.streams(head)) {
      hand_over_stream(c);
      return false;
    }
    if (head.content_length && *head.content_length > settings_.max_body_bytes) {
      answer_and_close(c, 413, too_large(), Connection::Then::kLinger, &head);
      return false;
    }
    if (head.content_length && !reserve(c, *head.content_length)) return false;
    if (head.expect_continue && head.has_body() && c.in.empty()) {
      // The client waits for this before sending the body; the socket has room for 25 bytes
      // (nothing else is being sent on it now).
      [[maybe_unused]] ssize_t sent =
          ::send(c.fd, kContinue.data(), kContinue.size(), MSG_NOSIGNAL);
    }
    c.phase = Connection::Phase::kBody;
    c.chunked = ChunkedDecoder();
    c.request.body.clear();
    if (head.content_length) c.request.body.reserve(*head.content_length);
    c.deadline = SteadyClock::now() + seconds(settings_.receive_timeout_s);
    return true;
  }

  Status too_large() const {
    return Status(
        code::kPayloadTooLarge,
        "the request body is larger than " + std::to_string(settings_.max_body_bytes) + " bytes",
        {{"max_bytes", settings_.max_body_bytes}});
  }

  // Takes `bytes` more of the budget for bodies in flight; responds 503 and returns false when it
  // is used.
  bool reserve(Connection& c, size_t bytes) {
    const auto max = static_cast<int64_t>(settings_.max_inflight_body_bytes);
    int64_t held = counters_.inflight_body_bytes.load();
    do {
      if (held + static_cast<int64_t>(bytes) > max) {
        counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
        answer_and_close(
            c, 503,
            busy("the server holds as many request bodies as it may; try again", "body_memory"),
            Connection::Then::kLinger, &c.request.head);
        return false;
      }
    } while (!counters_.inflight_body_bytes.compare_exchange_weak(
        held, held + static_cast<int64_t>(bytes)));
    c.reserved_body_bytes += bytes;
    return true;
  }

  void release_body(Connection& c) {
    counters_.inflight_body_bytes.fetch_sub(static_cast<int64_t>(c.reserved_body_bytes));
    c.reserved_body_bytes = 0;
    std::string().swap(c.request.body);
  }

  // Moves body bytes from `c.in`; hands the request to a worker once it is whole. False when it
  // responded to or handed over, true while more of the body is to come.
  bool take_body(Connection& c) {
    const RequestHead& head = c.request.head;
    std::string& body = c.request.body;
    if (head.chunked) {
      const size_t used = c.chunked.feed(c.in, body);
      c.in.erase(0, used);
      if (body.size() > settings_.max_body_bytes) {
        answer_and_close(c, 413, too_large(), Connection::Then::kLinger, &head);
        return false;
      }
      if (body.size() > c.reserved_body_bytes &&
          !reserve(c, std::max<size_t>(body.size() - c.reserved_body_bytes, 65536))) {
        return false;
      }
      if (c.chunked.failed()) {
        counters_.malformed.fetch_add(1, std::memory_order_relaxed);
        answer_and_close(c, 400, Status::validation(c.chunked.error()), Connection::Then::kLinger,
                         &head);
        return false;
      }
      if (!c.chunked.done()) return true;
    } else {
      const size_t want = static_cast<size_t>(head.content_length.value_or(0)) - body.size();
      const size_t take = std::min(want, c.in.size());
      body.append(c.in, 0, take);
      c.in.erase(0, take);
      if (take < want) return true;
    }
    dispatch(c);
    return false;
  }

  void dispatch(Connection& c) {
    c.phase = Connection::Phase::kWithWorker;
    Connection* connection = &c;
    if (workers_->try_push([this, connection] { answer(*connection); })) return;
    counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
    release_body(c);
    queue_response(
        c,
        handler_.refuse(503,
                        busy("every worker is busy and the queue is full; try again", "queue_full"),
                        &c.request.head),
        Connection::Then::kNextRequest);
  }

  // ---- streamed requests ----

  class ConnectionStream;

  // Hands the request, its head read, to a worker as a Stream (defined after this class).
  void hand_over_stream(Connection& c);

  // Ends a stream: the response was sent (or the client is gone); what follows as after any
  // response, but the connection is reused only when `whole` (body read, response sent).
  void finish_stream(Connection& c, bool whole) {
    std::lock_guard lock(c.mu);
    ++c.requests_served;
    const bool keep = whole && c.request.head.keep_alive && settings_.keep_alive &&
                      !stopping_.load() &&
                      (settings_.max_keep_alive_requests == 0 ||
                       c.requests_served < settings_.max_keep_alive_requests);
    c.then = keep ? Connection::Then::kNextRequest : Connection::Then::kClose;
    std::string().swap(c.out);
    c.out_sent = 0;
    after_response(c);
  }

  // ---- the worker ----

  // The reply may come from another thread later; the connection stays with the request
  // (kWithWorker: no deadline, no close) until it does.
  void answer(Connection& c) {
    handler_.handle(c.request, [this, &c](Response response) {
      std::lock_guard lock(c.mu);
      release_body(c);
      queue_response(c, std::move(response), Connection::Then::kNextRequest);
    });
  }

  // ---- either thread, with c.mu held ----

  // `head` is the request's when it was parsed, or nullptr.
  void answer_and_close(Connection& c, int status, const Status& why, Connection::Then then,
                        const RequestHead* head = nullptr) {
    queue_response(c, handler_.refuse(status, why, head), then);
  }

  // Sends `response` (as much as the socket takes now) and arranges what follows.
  void queue_response(Connection& c, Response response, Connection::Then then) {
    ++c.requests_served;
    const bool keep = then == Connection::Then::kNextRequest && !response.close &&
                      c.request.head.keep_alive && settings_.keep_alive && !stopping_.load() &&
                      (settings_.max_keep_alive_requests == 0 ||
                       c.requests_served < settings_.max_keep_alive_requests);
    if (!keep && then == Connection::Then::kNextRequest) then = Connection::Then::kLinger;
    c.then = then;
    c.out = response_bytes(response, !keep, c.request.head.method == "HEAD");
    c.out_sent = 0;
    c.phase = Connection::Phase::kWriting;
    c.deadline = SteadyClock::now() + seconds(settings_.send_timeout_s);
    send_out(c);
  }

  void send_out(Connection& c) {
    while (c.out_sent < c.out.size()) {
      const ssize_t sent =
          ::send(c.fd, c.out.data() + c.out_sent, c.out.size() - c.out_sent, MSG_NOSIGNAL);
      if (sent > 0) {
        c.out_sent += static_cast<size_t>(sent);
      } else if (sent < 0 && errno == EINTR) {
        continue;
      } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return arm(c, EPOLLOUT);
      } else {
        return schedule_close(c);
      }
    }
    std::string().swap(c.out);
    c.out_sent = 0;
    after_response(c);
  }

  void after_response(Connection& c) {
    switch (c.then) {
      case Connection::Then::kNextRequest:
        c.phase = Connection::Phase::kHead;
        c.request_started = false;
        c.request.head = {};
        c.deadline = SteadyClock::now() + seconds(settings_.keep_alive_timeout_s);
        // Bytes of a next (pipelined) request may be here already: a write-ready event comes at
        // once and the I/O thread reads them; otherwise wait for the client.
        return arm(c, c.in.empty() ? EPOLLIN : EPOLLOUT);
      case Connection::Then::kLinger:
        ::shutdown(c.fd, SHUT_WR);
        c.phase = Connection::Phase::kLingering;
        c.deadline = SteadyClock::now() + kLingerTime;
        std::string().swap(c.in);
        return arm(c, EPOLLIN);
      case Connection::Then::kClose:
        return schedule_close(c);
    }
  }

  void linger(Connection& c) {
    const size_t before = c.lingered_bytes;
    size_t got = 0;
    const ReadResult read = read_some(c, &got);
    c.lingered_bytes = before + got;
    std::string().swap(c.in);
    if (read != ReadResult::kMore || c.lingered_bytes > kMaxLingerBytes || stopping_.load()) {
      return schedule_close(c);
    }
    arm(c, EPOLLIN);
  }

  // Closing belongs to the I/O thread: a worker leaves the connection to it.
  void schedule_close(Connection& c) {
    c.phase = Connection::Phase::kClosing;
    arm(c, EPOLLOUT);  // reported at once (or as an error), so the I/O thread comes round
  }

  void arm(Connection& c, uint32_t events) { modify(c.fd, events | EPOLLONESHOT, &c); }

  // ---- the I/O thread: closing, deadlines, stopping ----

  void close(Connection& c) {
    auto found = connections_.find(c.fd);
    if (found == connections_.end()) return;
    release_body(c);
    if (c.refused_at_accept) {
      --refusing_;
    } else if (auto from = per_address_.find(c.address);
               from != per_address_.end() && --from->second <= 0) {
      per_address_.erase(from);
    }
    ::close(c.fd);
    counters_.open.fetch_sub(1, std::memory_order_relaxed);
    closed_.push_back(std::move(found->second));
    connections_.erase(found);
  }

  // Deadlines are found by a scan every kSweepInterval; the connections it finds are closed at
  // most kClosesPerTurn per turn of the loop, so thousands of connections that time out together
  // (an attack that opened them together) do not hold up the others while they are closed.
  void sweep(SteadyClock::time_point now) {
    if (accept_paused_) {
      modify(listener_.impl()->sockfd(), EPOLLIN, &listener_);
      accept_paused_ = false;
    }
    if (!expired_.empty()) return;  // the last scan's are still being closed
    for (auto& [fd, connection] : connections_) {
      std::lock_guard lock(connection->mu);
      if (expired(*connection, now)) expired_.push_back(fd);
    }
  }

  void close_some_expired() {
    const auto now = SteadyClock::now();
    for (int n = 0; n < kClosesPerTurn && !expired_.empty(); ++n) {
      const int fd = expired_.back();
      expired_.pop_back();
      // Closed meanwhile, or its descriptor taken by a new connection: the check below sees it.
      if (auto found = connections_.find(fd); found != connections_.end()) {
        time_out(*found->second, now);
      }
    }
  }

  // With c.mu held.
  bool expired(const Connection& c, SteadyClock::time_point now) const {
    if (c.phase == Connection::Phase::kWithWorker) return false;
    if (now >= c.deadline) return true;
    const bool idle = c.phase == Connection::Phase::kHead && !c.request_started;
    return stopping_.load() && (idle || c.phase == Connection::Phase::kLingering);
  }

  void time_out(Connection& c, SteadyClock::time_point now) {
    std::unique_lock lock(c.mu);
    if (!expired(c, now)) return;
    switch (c.phase) {
      case Connection::Phase::kHead:
        if (!c.request_started) {
          if (!stopping_.load()) counters_.timed_out_idle.fetch_add(1, std::memory_order_relaxed);
          break;
        }
        [[fallthrough]];
      case Connection::Phase::kBody: {
        counters_.timed_out_request.fetch_add(1, std::memory_order_relaxed);
        // Best effort: a client this slow may not read either, so nothing waits on this send.
        const int limit = c.phase == Connection::Phase::kHead ? settings_.header_timeout_s
                                                              : settings_.receive_timeout_s;
        const std::string bytes = response_bytes(
            handler_.refuse(408,
                            Status::validation("the request did not arrive within " +
                                               std::to_string(limit) + " seconds"),
                            c.phase == Connection::Phase::kBody ? &c.request.head : nullptr),
            true, false);
        [[maybe_unused]] ssize_t sent = ::send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        break;
      }
      case Connection::Phase::kWriting:
        counters_.timed_out_send.fetch_add(1, std::memory_order_relaxed);
        break;
      default:
        break;
    }
    lock.unlock();
    close(c);
  }

  void stop_accepting() {
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listener_.impl()->sockfd(), nullptr);
    listener_.close();
    listener_closed_ = true;
    sweep(SteadyClock::now());  // finds the idle connections, closed over the next turns
  }

  // ---- epoll ----

  void watch(int fd, uint32_t events, void* tag) {
    epoll_event event{};
    event.events = events;
    event.data.ptr = tag;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event);
  }

  void modify(int fd, uint32_t events, void* tag) {
    epoll_event event{};
    event.events = events;
    event.data.ptr = tag;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &event);
  }

  void wake() {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t written = ::write(wake_fd_, &one, sizeof one);
  }

  const ServerSettings& settings_;
  const Handler& handler_;
  ServerCounters& counters_;
  const int max_connections_;

  Poco::Net::ServerSocket listener_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::unique_ptr<WorkQueue> workers_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> finished_{false};

  // The I/O thread's alone.
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  std::unordered_map<std::string, int> per_address_;
  std::vector<std::unique_ptr<Connection>> closed_;
  std::vector<int> expired_;  // descriptors the last sweep found past their deadline
  int refusing_ = 0;          // connections in the map that were refused at accept
  bool listener_closed_ = false;
  bool accept_paused_ = false;
};

// A streamed request on its connection (exchange.hpp, Stream): the handler's thread reads and
// writes the socket itself, waiting with poll() when it would block, while the connection is
// out of the I/O thread's hands (kWithWorker) until finish().
class HttpServer::Loop::ConnectionStream final : public Stream {
 public:
  ConnectionStream(Loop& loop, Connection& c)
      : loop_(loop),
        c_(c),
        body_left_(c.request.head.content_length.value_or(0)),
        head_only_(c.request.head.method == "HEAD") {}
  ~ConnectionStream() override {
    if (!finished_) finish();
  }

  const Request& request() const override { return c_.request; }

  int64_t read(char* buffer, size_t capacity) override {
    if (body_left_ == 0 || capacity == 0) return 0;
    if (broken_ || ended_early_) return -1;
    ask_for_body();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(capacity, body_left_));
    if (!c_.in.empty()) {  // bytes that arrived with the head
      const size_t take = std::min(want, c_.in.size());
      std::memcpy(buffer, c_.in.data(), take);
      c_.in.erase(0, take);
      body_left_ -= take;
      return static_cast<int64_t>(take);
    }
    while (true) {
      const ssize_t got = ::recv(c_.fd, buffer, want, 0);
      if (got > 0) {
        body_left_ -= static_cast<uint64_t>(got);
        return got;
      }
      if (got == 0) {
        // The client shut its sending side down (or closed): the handler's answer, a 400 for a
        // body cut short, may still reach it. The body is not whole, so the connection closes.
        ended_early_ = true;
        return -1;
      }
      if (errno == EINTR) continue;
      if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
          wait_for(POLLIN, loop_.settings_.receive_timeout_s)) {
        continue;
      }
      broken_ = true;  // failed, or silent past the idle time
      return -1;
    }
  }

  bool body_ended_early() const override { return ended_early_; }

  bool start(const Response& response, uint64_t content_length) override {
    response_left_ = head_only_ ? 0 : content_length;
    const bool close = body_left_ > 0 || !c_.request.head.keep_alive || response.close;
    return send_all(response_head_bytes(response, content_length, close));
  }

  bool write(std::string_view bytes) override {
    if (head_only_) return true;
    if (bytes.size() > response_left_) return false;  // more than the head announced
    if (!send_all(bytes)) return false;
    response_left_ -= bytes.size();
    return true;
  }

  bool send_file(int fd, uint64_t offset, uint64_t length) override {
    if (head_only_) return true;
    if (length > response_left_) return false;
    auto at = static_cast<off_t>(offset);
    uint64_t left = length;
    while (left > 0 && !broken_) {
      const ssize_t sent =
          ::sendfile(c_.fd, fd, &at, static_cast<size_t>(std::min<uint64_t>(left, kSendFileStep)));
      if (sent > 0) {
        left -= static_cast<uint64_t>(sent);
      } else if (sent < 0 && errno == EINTR) {
        continue;
      } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!wait_for(POLLOUT, loop_.settings_.send_timeout_s)) broken_ = true;
      } else {
        broken_ = true;  // the file ended early (sent == 0) or the socket failed
      }
    }
    response_left_ -= length - left;
    return left == 0;
  }

  void respond(Response response) override {
    const bool close = body_left_ > 0 || !c_.request.head.keep_alive || response.close;
    response_left_ = 0;
    if (send_all(response_bytes(response, close, head_only_)) && close) broken_ = true;
  }

  void finish() override {
    if (finished_) return;
    finished_ = true;
    loop_.finish_stream(c_, !broken_ && body_left_ == 0 && response_left_ == 0);
  }

 private:
  static constexpr uint64_t kSendFileStep = uint64_t{1} << 30;

  // A client that sent "Expect: 100-continue" waits for this before the body.
  void ask_for_body() {
    if (!c_.request.head.expect_continue || continued_ || !c_.in.empty()) return;
    continued_ = true;
    if (!send_all(kContinue)) broken_ = true;
  }

  bool send_all(std::string_view bytes) {
    while (!bytes.empty() && !broken_) {
      const ssize_t sent = ::send(c_.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent > 0) {
        bytes.remove_prefix(static_cast<size_t>(sent));
      } else if (sent < 0 && errno == EINTR) {
        continue;
      } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!wait_for(POLLOUT, loop_.settings_.send_timeout_s)) broken_ = true;
      } else {
        broken_ = true;
      }
    }
    return !broken_;
  }

  // Whether the socket became ready for `events` within `timeout_s`.
  bool wait_for(short events, int timeout_s) const {
    pollfd ready{c_.fd, events, 0};
    while (true) {
      const int n = ::poll(&ready, 1, timeout_s * 1000);
      if (n < 0 && errno == EINTR) continue;
      return n > 0 && (ready.revents & events) != 0;
    }
  }

  Loop& loop_;
  Connection& c_;
  uint64_t body_left_;
  uint64_t response_left_ = 0;
  const bool head_only_;
  bool continued_ = false;
  bool broken_ = false;
  bool ended_early_ = false;  // the client's bytes ended before the body's
  bool finished_ = false;
};

void HttpServer::Loop::hand_over_stream(Connection& c) {
  if (c.request.head.chunked) {
    answer_and_close(c, 411,
                     Status::validation("this route needs the body's Content-Length, not chunks"),
                     Connection::Then::kLinger, &c.request.head);
    return;
  }
  // A route reads one value of a header (the first: abi.h stream_header), so a body with two
  // types would be checked as one and could be taken as the other by whoever reads it next.
  if (c.request.head.has_body() && c.request.head.field_count("Content-Type") > 1) {
    answer_and_close(
        c, 400,
        Status::validation("the request has more than one Content-Type header",
                           {{"reason", "duplicate_header"}, {"header", "Content-Type"}}),
        Connection::Then::kLinger, &c.request.head);
    return;
  }
  c.phase = Connection::Phase::kWithWorker;
  c.request.body.clear();
  Connection* connection = &c;
  if (workers_->try_push([this, connection] {
        handler_.stream(std::make_unique<ConnectionStream>(*this, *connection));
      })) {
    return;
  }
  counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
  queue_response(
      c,
      handler_.refuse(503,
                      busy("every worker is busy and the queue is full; try again", "queue_full"),
                      &c.request.head),
      Connection::Then::kLinger);
}

HttpServer::HttpServer(ServerSettings settings, const Handler& handler)
    : settings_(std::move(settings)), handler_(handler) {}

HttpServer::~HttpServer() {
  if (loop_) stop(0);
}

Status HttpServer::start() {
  auto loop = std::make_unique<Loop>(settings_, handler_, counters_);
  if (Status listening = loop->listen(port_); !listening) return listening;
  loop_ = std::move(loop);
  loop_->start();
  return Status::ok();
}

void HttpServer::stop(int drain_s) {
  if (!loop_) return;
  loop_->stop(drain_s);
  loop_.reset();
}

std::string HttpServer::metrics_text() const { return http::metrics_text(counters_); }

}  // namespace opbase::host::http

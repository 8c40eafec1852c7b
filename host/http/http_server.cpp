#include "http/http_server.hpp"

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "http/acceptor.hpp"
#include "http/body_budget.hpp"
#include "http/connection.hpp"
#include "http/connection_stream.hpp"
#include "http/connection_table.hpp"
#include "http/deadline_sweep.hpp"
#include "http/epoll.hpp"
#include "http/held_connection.hpp"
#include "http/request_reader.hpp"
#include "http/response_writer.hpp"
#include "http/work_queue.hpp"
#include "log/log.hpp"
#include "opbase/thread_name.hpp"

namespace opbase::host::http {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// How often the I/O thread looks for connections past their deadline.
constexpr milliseconds kSweepInterval{250};

Status queue_full() {
  return busy("every worker is busy and the queue is full; try again", "queue_full");
}

}  // namespace

// The I/O thread's loop: waits on every connection at once, passes each event to the part that
// deals with it, and hands whole requests (and streamed ones) to the workers.
class HttpServer::Loop {
 public:
  Loop(const ServerSettings& settings, const Handler& handler, ServerCounters& counters)
      : settings_(settings),
        handler_(handler),
        counters_(counters),
        budget_(settings.max_inflight_body_bytes, counters.inflight_body_bytes),
        connections_(settings, counters, budget_),
        writer_(settings, handler, epoll_, stopping_),
        reader_(settings, handler, counters, budget_, writer_, epoll_),
        deadlines_(settings, handler, counters, connections_, stopping_),
        acceptor_(settings, counters, epoll_, connections_, writer_) {}

  Status listen(int& port) {
    if (Status listening = acceptor_.listen(port); !listening) return listening;
    if (!epoll_.open()) return Status::internal("cannot create the event loop");
    acceptor_.watch();
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
    epoll_.wake();
    drain(drain_s);
    finished_.store(true);
    epoll_.wake();
    if (thread_.joinable()) thread_.join();
    workers_->stop();  // handles what was queued; its writes go to sockets still open
  }

 private:
  // Waits at most `drain_s` for the connections to be done with.
  void drain(int drain_s) {
    const auto deadline = SteadyClock::now() + seconds(drain_s);
    while (counters_.open.load() > 0 && SteadyClock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(10));
    }
    if (const int64_t left = counters_.open.load(); left > 0) {
      log::warn("http", std::to_string(left) +
                            " connection(s) still busy after the drain time; closing them");
    }
  }

  // ---- the I/O thread ----

  void run() {
    std::vector<epoll_event> events(256);
    auto next_sweep = SteadyClock::now() + kSweepInterval;
    while (!finished_.load()) {
      const int wait_ms = deadlines_.closing() ? 0 : static_cast<int>(kSweepInterval.count());
      const int n = epoll_.wait(events, wait_ms);
      for (int i = 0; i < n; ++i) on_tag(events[static_cast<size_t>(i)].data.ptr);
      if (stopping_.load() && !acceptor_.closed()) stop_accepting();
      if (const auto now = SteadyClock::now(); now >= next_sweep) {
        sweep(now);
        next_sweep = now + kSweepInterval;
      }
      deadlines_.close_some_expired();
      connections_.forget_closed();  // only now: an event of this turn may still have named them
    }
    cut_off_streams();
  }

  void on_tag(void* tag) {
    if (tag == acceptor_.tag()) {
      acceptor_.accept_all();
    } else if (epoll_.is_wake(tag)) {
      epoll_.drain_wake();
    } else {
      on_event(*static_cast<Connection*>(tag));
    }
  }

  void on_event(Connection& c) {
    std::unique_lock lock(c.mu);
    switch (c.phase) {
      case Connection::Phase::kHead:
      case Connection::Phase::kBody:
        return on_readable(c);
      case Connection::Phase::kWriting:
        return writer_.send_out(c);
      case Connection::Phase::kLingering:
        return writer_.linger(c);
      case Connection::Phase::kHeld:
        return c.held->serve();
      case Connection::Phase::kClosing:
        lock.unlock();
        return connections_.close(c);
      case Connection::Phase::kWithWorker:
        return;  // not armed while a worker has it; nothing to do
    }
  }

  void on_readable(Connection& c) {
    switch (reader_.read_request(c)) {
      case RequestReader::Outcome::kWhole:
        return dispatch(c);
      case RequestReader::Outcome::kStream:
        return hand_over_stream(c);
      case RequestReader::Outcome::kWaiting:
      case RequestReader::Outcome::kDealtWith:
        return;
    }
  }

  void sweep(SteadyClock::time_point now) {
    acceptor_.resume_if_paused();
    deadlines_.sweep(now);
  }

  void stop_accepting() {
    acceptor_.close();
    sweep(SteadyClock::now());  // finds the idle connections, closed over the next turns
  }

  // Past the drain time: a stream still under way (a large upload) is cut off, so its thread
  // gives up at once rather than holding the stop until the client finishes.
  void cut_off_streams() {
    connections_.for_each([](int fd, Connection& connection) {
      std::lock_guard lock(connection.mu);
      if (connection.phase == Connection::Phase::kWithWorker) ::shutdown(fd, SHUT_RDWR);
    });
  }

  // ---- handing over to a worker, with c.mu held ----

  void dispatch(Connection& c) {
    c.phase = Connection::Phase::kWithWorker;
    Connection* connection = &c;
    if (workers_->try_push([this, connection] { answer(*connection); })) return;
    counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
    budget_.release(c);
    writer_.answer_and_close(c, 503, queue_full(), Connection::Then::kNextRequest, &c.request.head);
  }

  // Hands the request, its head read, to a worker as a Stream.
  void hand_over_stream(Connection& c) {
    c.phase = Connection::Phase::kWithWorker;
    c.request.body.clear();
    Connection* connection = &c;
    if (workers_->try_push([this, connection] {
          handler_.stream(std::make_unique<ConnectionStream>(writer_, settings_, epoll_, counters_,
                                                             *connection));
        })) {
      return;
    }
    counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
    writer_.answer_and_close(c, 503, queue_full(), Connection::Then::kLinger, &c.request.head);
  }

  // ---- the worker ----

  // The reply may come from another thread later; the connection stays with the request
  // (kWithWorker: no deadline, no close) until it does.
  void answer(Connection& c) {
    handler_.handle(c.request, [this, &c](Response response) {
      std::lock_guard lock(c.mu);
      budget_.release(c);
      writer_.queue_response(c, std::move(response), Connection::Then::kNextRequest);
    });
  }

  const ServerSettings& settings_;
  const Handler& handler_;
  ServerCounters& counters_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> finished_{false};

  Epoll epoll_;
  BodyBudget budget_;
  ConnectionTable connections_;
  ResponseWriter writer_;
  RequestReader reader_;
  DeadlineSweep deadlines_;
  Acceptor acceptor_;
  std::unique_ptr<WorkQueue> workers_;
  std::thread thread_;
};

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

#include "http/acceptor.hpp"

#include <Poco/Net/NetException.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "log/log.hpp"

namespace opbase::host::http {
namespace {

// The most connections taken in one turn of the I/O loop.
constexpr int kAcceptsPerTurn = 256;

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

}  // namespace

Status Acceptor::listen(int& port) {
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
  return Status::ok();
}

void Acceptor::accept_all() {
  for (int i = 0; i < kAcceptsPerTurn; ++i) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    const int fd = accept4(listener_fd(), reinterpret_cast<sockaddr*>(&address), &length,
                           SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) {
        // Out of files: stop listening until the next sweep instead of spinning on the error.
        log::warn("http", "out of file descriptors; pausing accepts");
        epoll_.modify(listener_fd(), 0, this);
        paused_ = true;
      }
      return;
    }
    admit_connection(fd, address_text(address));
  }
}

void Acceptor::admit_connection(int fd, std::string address) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  counters_.accepted.fetch_add(1, std::memory_order_relaxed);
  if (const auto admission = connections_.admission(address);
      admission != ConnectionTable::Admission::kAdmitted) {
    return refuse_over_cap(fd, std::move(address), admission);
  }
  Connection& c = connections_.add(fd, std::move(address));
  c.deadline = SteadyClock::now() + std::chrono::seconds(settings_.header_timeout_s);
  epoll_.watch(fd, EPOLLIN | EPOLLONESHOT, &c);
}

void Acceptor::refuse_over_cap(int fd, std::string address, ConnectionTable::Admission cap) {
  if (cap == ConnectionTable::Admission::kServerFull) {
    counters_.refused_server_full.fetch_add(1, std::memory_order_relaxed);
    return refuse_connection(
        fd, std::move(address), 503,
        busy("the server holds as many connections as it may (" +
                 std::to_string(connections_.max_connections()) + "); try again",
             "server_full"));
  }
  counters_.refused_address_full.fetch_add(1, std::memory_order_relaxed);
  refuse_connection(fd, std::move(address), 429,
                    busy("this address holds as many connections as it may (" +
                             std::to_string(settings_.max_connections_per_address) + ")",
                         "address_full"));
}

// Takes the connection in only to send it the refusal, then linger and close.
void Acceptor::refuse_connection(int fd, std::string address, int status, const Status& why) {
  Connection* c = connections_.add_refused(fd, std::move(address));
  if (!c) return;
  epoll_.watch(fd, 0, c);
  std::lock_guard lock(c->mu);
  writer_.answer_and_close(*c, status, why, Connection::Then::kLinger);
}

void Acceptor::resume_if_paused() {
  if (!paused_) return;
  epoll_.modify(listener_fd(), EPOLLIN, this);
  paused_ = false;
}

void Acceptor::close() {
  epoll_.forget(listener_fd());
  listener_.close();
  closed_ = true;
}

}  // namespace opbase::host::http

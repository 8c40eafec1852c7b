// Acceptor: the HTTP front's listening socket. It accepts what the kernel has queued, admits each
// connection under the ConnectionTable's caps and watches it for its first request, or sends it
// its refusal (503 over server.max_connections, 429 over server.max_connections_per_address).
// Out of file descriptors, it pauses until resume_if_paused() rather than spin on the error.
//
// Thread-safety: listen() before the I/O thread starts; everything else on the I/O thread.
#pragma once

#include <Poco/Net/ServerSocket.h>

#include <string>

#include "http/connection_table.hpp"
#include "http/epoll.hpp"
#include "http/response_writer.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"
#include "opbase/status.hpp"

namespace opbase::host::http {

class Acceptor {
 public:
  Acceptor(const ServerSettings& settings, ServerCounters& counters, Epoll& epoll,
           ConnectionTable& connections, ResponseWriter& writer)
      : settings_(settings),
        counters_(counters),
        epoll_(epoll),
        connections_(connections),
        writer_(writer) {}

  // Binds and listens (non-blocking), setting `port` to the bound one. Fails naming the address.
  Status listen(int& port);
  // Watches the listening socket; its events come with tag().
  void watch() { epoll_.watch(listener_fd(), EPOLLIN, this); }
  const void* tag() const { return this; }

  // Takes the connections waiting, a bounded number per turn.
  void accept_all();
  // Listens again after a pause for want of descriptors.
  void resume_if_paused();
  // Stops accepting: new connections are refused by the kernel from now on.
  void close();
  bool closed() const { return closed_; }

 private:
  int listener_fd() { return listener_.impl()->sockfd(); }
  void admit_connection(int fd, std::string address);
  void refuse_over_cap(int fd, std::string address, ConnectionTable::Admission cap);
  void refuse_connection(int fd, std::string address, int status, const Status& why);

  const ServerSettings& settings_;
  ServerCounters& counters_;
  Epoll& epoll_;
  ConnectionTable& connections_;
  ResponseWriter& writer_;

  Poco::Net::ServerSocket listener_;
  bool closed_ = false;
  bool paused_ = false;
};

}  // namespace opbase::host::http

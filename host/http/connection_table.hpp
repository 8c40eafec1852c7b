// ConnectionTable: the HTTP front's open connections, by descriptor, and the caps on how many it
// takes: server.max_connections in all (lowered to what the process may open) and
// server.max_connections_per_address from one address. A connection over a cap may still be
// taken in to be sent its refusal; such connections count towards no cap, and at most
// kMaxRefusing are held at once. Closed connections are kept until forget_closed(), so an event
// of the same turn that still names one finds live memory.
//
// Thread-safety: the I/O thread's alone.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "http/body_budget.hpp"
#include "http/connection.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"

namespace opbase::host::http {

class ConnectionTable {
 public:
  // A connection over a cap gets its refusal and is closed after lingering like any other
  // responded to one, so the client reads the response rather than a reset. At most kMaxRefusing
  // such connections at once; past that, a flood is closed without an answer.
  static constexpr int kMaxRefusing = 1024;

  enum class Admission { kAdmitted, kServerFull, kAddressFull };

  ConnectionTable(const ServerSettings& settings, ServerCounters& counters, BodyBudget& budget);
  ~ConnectionTable();  // closes the descriptors still open
  ConnectionTable(const ConnectionTable&) = delete;
  ConnectionTable& operator=(const ConnectionTable&) = delete;

  // Whether a new connection from `address` fits under the caps.
  Admission admission(const std::string& address) const;
  int max_connections() const { return max_connections_; }

  // Takes in an admitted connection, counted for its address.
  Connection& add(int fd, std::string address);
  // Takes in a connection refused at accept, to send it the refusal; nullptr (its descriptor
  // closed) when kMaxRefusing are being refused already.
  Connection* add_refused(int fd, std::string address);

  // Closes `c` (once: a second call does nothing) and gives back its body budget.
  void close(Connection& c);
  // The connections closed since the last call may be freed now.
  void forget_closed() { closed_.clear(); }

  Connection* find(int fd) {
    const auto found = connections_.find(fd);
    return found == connections_.end() ? nullptr : found->second.get();
  }
  // Calls `visit(fd, connection)` for each open connection.
  template <typename Visit>
  void for_each(Visit visit) {
    for (auto& [fd, connection] : connections_) visit(fd, *connection);
  }

 private:
  Connection& add_connection(int fd, std::string address);

  const ServerSettings& settings_;
  ServerCounters& counters_;
  BodyBudget& budget_;
  const int max_connections_;

  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  std::unordered_map<std::string, int> per_address_;
  std::vector<std::unique_ptr<Connection>> closed_;
  int refusing_ = 0;  // connections in the map that were refused at accept
};

}  // namespace opbase::host::http

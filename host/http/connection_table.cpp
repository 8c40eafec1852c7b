#include "http/connection_table.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include "http/held_connection.hpp"
#include "log/log.hpp"

namespace opbase::host::http {
namespace {

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

}  // namespace

ConnectionTable::ConnectionTable(const ServerSettings& settings, ServerCounters& counters,
                                 BodyBudget& budget)
    : settings_(settings),
      counters_(counters),
      budget_(budget),
      max_connections_(connection_limit(settings.max_connections)) {}

ConnectionTable::~ConnectionTable() {
  for (auto& [fd, connection] : connections_) ::close(fd);
}

ConnectionTable::Admission ConnectionTable::admission(const std::string& address) const {
  if (static_cast<int>(connections_.size()) - refusing_ >= max_connections_) {
    return Admission::kServerFull;
  }
  const auto from_address = per_address_.find(address);
  if (settings_.max_connections_per_address > 0 && from_address != per_address_.end() &&
      from_address->second >= settings_.max_connections_per_address) {
    return Admission::kAddressFull;
  }
  return Admission::kAdmitted;
}

Connection& ConnectionTable::add(int fd, std::string address) {
  ++per_address_[address];
  return add_connection(fd, std::move(address));
}

Connection* ConnectionTable::add_refused(int fd, std::string address) {
  if (refusing_ >= kMaxRefusing) {
    ::close(fd);
    return nullptr;
  }
  ++refusing_;
  Connection& c = add_connection(fd, std::move(address));
  c.refused_at_accept = true;
  return &c;
}

Connection& ConnectionTable::add_connection(int fd, std::string address) {
  auto connection = std::make_unique<Connection>(fd, std::move(address));
  Connection& c = *connection;
  connections_.emplace(fd, std::move(connection));
  counters_.open.fetch_add(1, std::memory_order_relaxed);
  return c;
}

void ConnectionTable::close(Connection& c) {
  auto found = connections_.find(c.fd);
  if (found == connections_.end()) return;
  budget_.release(c);
  if (c.held) c.held->closed();  // before the descriptor goes: no push may arm it after
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

}  // namespace opbase::host::http

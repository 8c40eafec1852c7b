// realtime_bench: the realtime benchmark's client (bench/realtime.sh, make bench-realtime).
//   1. opens --clients event streams (GET /api/<key>/realtime) and waits for each one's connect
//      event, then subscribes each to one of --collections collections (realtime.subscribe,
//      over --op-connections keep-alive connections), so every collection has as many
//      subscribers;
//   2. prints "held clients=<n> rss_kb=<daemon's VmRSS>" and waits --hold-s seconds with the
//      streams idle (bench/realtime.sh measures the /healthz ceiling meanwhile);
//   3. inserts {"t": <microseconds>} into the collections in turn, --rate a second for
//      --seconds, while one thread reads every stream (epoll) and takes each event's delivery
//      latency, now minus its "t";
//   4. prints one line: writes, events received, the latency's p50 / p99 / p999 / max (ms),
//      and the daemon's CPU (--pid) per event received, in microseconds.
// Every wait is bounded. Loopback only.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
  int port = 0;
  std::string endpoint_key, api_key, token;
  int clients = 10'000;
  int collections = 100;
  int rate = 1'000;
  int seconds = 10;
  int hold_s = 0;
  int op_connections = 8;
  int pid = 0;
};

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "realtime_bench: %s\n", why.c_str());
  std::exit(1);
}

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) die(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    die(std::string("connect: ") + std::strerror(errno));
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  for (size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// One keep-alive connection for ops: sends a POST, reads its answer (Content-Length framed).
class OpConnection {
 public:
  explicit OpConnection(const Options& o) : o_(o), fd_(connect_loopback(o.port)) {}
  ~OpConnection() { ::close(fd_); }

  json call(const json& body) {
    const std::string text = body.dump();
    std::string request = "POST /api/" + o_.endpoint_key +
                          " HTTP/1.1\r\nHost: x\r\nX-API-KEY: " + o_.api_key +
                          "\r\nContent-Type: application/json\r\n";
    if (!o_.token.empty()) request += "Authorization: Bearer " + o_.token + "\r\n";
    request += "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
    if (!send_all(fd_, request)) die("an op's connection closed");
    for (;;) {
      const size_t head_end = in_.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const size_t at = in_.find("Content-Length: ");
        if (at == std::string::npos || at > head_end) die("an answer without Content-Length");
        const size_t length = std::stoul(in_.substr(at + 16));
        if (in_.size() >= head_end + 4 + length) {
          const std::string status = in_.substr(9, 3);
          const std::string answer = in_.substr(head_end + 4, length);
          in_.erase(0, head_end + 4 + length);
          if (status != "200") die("op answered " + status + ": " + answer.substr(0, 300));
          return json::parse(answer);
        }
      }
      char buffer[65536];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) die("an op's connection closed while answering");
      in_.append(buffer, static_cast<size_t>(n));
    }
  }

 private:
  const Options& o_;
  int fd_;
  std::string in_;
};

struct Stream {
  int fd = -1;
  std::string in;
  std::string client_id;
  bool head_read = false;
};

int64_t daemon_cpu_ticks(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  int64_t utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) {
      stime = std::stoll(field);
      break;
    }
  }
  return utime + stime;
}

int64_t daemon_rss_kb(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) return std::stoll(line.substr(6));
  }
  return 0;
}

// Reads what arrived on a stream; calls `on_event(name, data)` for each whole event.
template <typename OnEvent>
bool read_stream(Stream& s, OnEvent&& on_event) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::recv(s.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0) break;
    s.in.append(buffer, static_cast<size_t>(n));
  }
  if (!s.head_read) {
    const size_t end = s.in.find("\r\n\r\n");
    if (end == std::string::npos) return true;
    if (s.in.compare(0, 12, "HTTP/1.1 200") != 0)
      die("a stream was refused: " + s.in.substr(0, 200));
    s.in.erase(0, end + 4);
    s.head_read = true;
  }
  size_t at = 0;
  for (size_t end; (end = s.in.find("\n\n", at)) != std::string::npos; at = end + 2) {
    const std::string_view block(s.in.data() + at, end - at);
    const size_t event = block.find("event: ");
    const size_t data = block.find("data: ");
    if (event == std::string_view::npos || data == std::string_view::npos) continue;
    const std::string_view name = block.substr(event + 7, block.find('\n', event) - event - 7);
    on_event(name, block.substr(data + 6));
  }
  s.in.erase(0, at);
  return true;
}

Options parse(int argc, char** argv) {
  Options o;
  std::map<std::string, std::string> given;
  for (int i = 1; i + 1 < argc; i += 2) given[argv[i]] = argv[i + 1];
  const auto text = [&](const char* name) {
    const auto it = given.find(name);
    if (it == given.end()) die(std::string("missing ") + name);
    return it->second;
  };
  const auto number = [&](const char* name, int fallback) {
    const auto it = given.find(name);
    return it == given.end() ? fallback : std::stoi(it->second);
  };
  o.port = std::stoi(text("--port"));
  o.endpoint_key = text("--endpoint-key");
  o.api_key = text("--api-key");
  o.token = text("--token");
  o.pid = std::stoi(text("--pid"));
  o.clients = number("--clients", o.clients);
  o.collections = number("--collections", o.collections);
  o.rate = number("--rate", o.rate);
  o.seconds = number("--seconds", o.seconds);
  o.hold_s = number("--hold-s", o.hold_s);
  o.op_connections = number("--op-connections", o.op_connections);
  return o;
}

double percentile(std::vector<int64_t>& values, double p) {
  if (values.empty()) return 0;
  const size_t at = std::min(values.size() - 1, static_cast<size_t>(p * values.size()));
  std::nth_element(values.begin(), values.begin() + at, values.end());
  return values[at] / 1000.0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);

  const int64_t rss_before_kb = daemon_rss_kb(o.pid);
  const int epoll = ::epoll_create1(0);
  std::vector<Stream> streams(static_cast<size_t>(o.clients));
  const std::string request = "GET /api/" + o.endpoint_key +
                              "/realtime HTTP/1.1\r\nHost: x\r\nX-API-KEY: " + o.api_key +
                              "\r\n\r\n";
  // Opened a batch at a time, each batch once the one before has its connect events, as clients
  // that arrive over a moment would (a burst of 10,000 at once fills the plugin's lane queue).
  constexpr size_t kBatch = 500;
  size_t connected = 0;
  std::vector<epoll_event> events(1024);
  const auto connect_deadline = Clock::now() + std::chrono::seconds(300);
  for (size_t opened = 0; opened < streams.size() || connected < streams.size();) {
    for (; opened < streams.size() && opened < connected + kBatch; ++opened) {
      streams[opened].fd = connect_loopback(o.port);
      if (!send_all(streams[opened].fd, request)) die("a stream's request could not be sent");
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.u64 = opened;
      ::epoll_ctl(epoll, EPOLL_CTL_ADD, streams[opened].fd, &e);
    }
    if (Clock::now() > connect_deadline) die("not every stream connected within 300 s");
    const int n = ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 1000);
    for (int i = 0; i < n; ++i) {
      Stream& s = streams[events[i].data.u64];
      const bool open = read_stream(s, [&](std::string_view name, std::string_view data) {
        if (name == "connect") {
          s.client_id = json::parse(data).value("client_id", "");
          ++connected;
        }
      });
      if (!open) die("a stream closed before it connected, after: " + s.in.substr(0, 300));
    }
  }

  // Each stream subscribed to one collection, over a few keep-alive connections.
  std::vector<std::thread> subscribers;
  for (int t = 0; t < o.op_connections; ++t) {
    subscribers.emplace_back([&, t] {
      OpConnection op(o);
      for (size_t i = static_cast<size_t>(t); i < streams.size();
           i += static_cast<size_t>(o.op_connections)) {
        op.call({{"op", "realtime.subscribe"},
                 {"client_id", streams[i].client_id},
                 {"collection", "rt" + std::to_string(i % static_cast<size_t>(o.collections))},
                 {"match", json::object()}});
      }
    });
  }
  for (auto& t : subscribers) t.join();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const int64_t rss_held_kb = daemon_rss_kb(o.pid);
  std::printf("held clients=%d rss_kb=%lld rss_before_kb=%lld per_client_bytes=%.0f\n", o.clients,
              static_cast<long long>(rss_held_kb), static_cast<long long>(rss_before_kb),
              (rss_held_kb - rss_before_kb) * 1024.0 / o.clients);
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::seconds(o.hold_s));

  // The writes, spread evenly over the seconds, and every stream read meanwhile.
  std::atomic<bool> writing{true};
  std::atomic<int64_t> written{0};
  const int64_t ticks_before = daemon_cpu_ticks(o.pid);
  // Several writers, since each insert waits for its commit: writer w makes writes w, w + k...
  constexpr int kWriters = 4;
  std::atomic<int> writers_left{kWriters};
  std::vector<std::thread> writers;
  const auto start = Clock::now();
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      OpConnection op(o);
      const int64_t total = static_cast<int64_t>(o.rate) * o.seconds;
      for (int64_t n = w; n < total; n += kWriters) {
        std::this_thread::sleep_until(start + std::chrono::microseconds(n * 1'000'000 / o.rate));
        op.call({{"op", "collection.insert"},
                 {"collection", "rt" + std::to_string(n % o.collections)},
                 {"data", {{"t", wall_us()}}}});
        ++written;
      }
      if (--writers_left == 0) writing = false;
    });
  }
  std::vector<int64_t> latencies;
  latencies.reserve(static_cast<size_t>(o.rate) * o.seconds *
                    static_cast<size_t>(std::max(1, o.clients / o.collections)));
  int64_t closed = 0;
  auto quiet_until = Clock::time_point::max();
  while (Clock::now() < quiet_until) {
    if (!writing && quiet_until == Clock::time_point::max()) {
      quiet_until = Clock::now() + std::chrono::seconds(2);
    }
    const int n = ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 100);
    for (int i = 0; i < n; ++i) {
      Stream& s = streams[events[i].data.u64];
      const bool open = read_stream(s, [&](std::string_view name, std::string_view data) {
        if (name != "created") return;
        const size_t t = data.find("\"t\":");
        if (t == std::string_view::npos) return;
        latencies.push_back(wall_us() - std::strtoll(data.data() + t + 4, nullptr, 10));
      });
      if (!open) {
        ::epoll_ctl(epoll, EPOLL_CTL_DEL, s.fd, nullptr);
        ++closed;
      }
    }
  }
  for (auto& w : writers) w.join();
  const int64_t ticks = daemon_cpu_ticks(o.pid) - ticks_before;
  const double cpu_us_per_event =
      latencies.empty() ? 0 : ticks * 1e6 / sysconf(_SC_CLK_TCK) / latencies.size();
  const size_t received = latencies.size();
  const double p50 = percentile(latencies, 0.50), p99 = percentile(latencies, 0.99),
               p999 = percentile(latencies, 0.999);
  const double max =
      latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end()) / 1000.0;
  std::printf(
      "result writes=%lld expected_events=%lld events=%zu closed=%lld p50_ms=%.2f p99_ms=%.2f "
      "p999_ms=%.2f max_ms=%.2f daemon_cpu_us_per_event=%.2f\n",
      static_cast<long long>(written.load()),
      static_cast<long long>(written.load() * (o.clients / o.collections)), received,
      static_cast<long long>(closed), p50, p99, p999, max, cpu_us_per_event);
  for (Stream& s : streams) ::close(s.fd);
  return 0;
}

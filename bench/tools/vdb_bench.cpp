// vdb_bench: the client of the vector benchmark (bench/vdb.sh, make bench-vdb). It talks to a
// daemon on 127.0.0.1 only, over keep-alive connections, and prints one machine-readable line per
// command ("LOAD ...", "RECALL ...", "PROBE ...") that vdb.sh reads.
//
//   vector-queries  writes Q vdb.search bodies, one a line, each with a seeded random unit vector
//                   (the query vectors of the wrk scenario and of `recall`)
//   text-queries    writes Q vdb.search bodies with a "query" text of English words
//   load            inserts N seeded random unit vectors per user (one token file per user) in
//                   batches of 100 over C connections; only the sending is timed: the bodies of
//                   each chunk are printed before it is sent (so the client's printing of floats
//                   is not counted against the daemon)
//   load-text       inserts N records with "content" (embedded by the daemon) for one user
//   recall          the exact top 10 of each query vector over one user's N vectors (computed
//                   here, kept in a cache file), then vdb.search of each query: recall@10
//   probe           sends the bodies of a file (cycled) over C connections, for a count or a
//                   time, and reports the client's latency beside the answers' own
//                   meta.processing_time_ms and meta.embedding_time_ms
//
// Vectors: the record i of user u is the unit vector of a Gaussian sample drawn from a generator
// seeded by (seed, u, i), so any command can make any record again without storing it; query q
// is drawn the same way from stream 1000. Floats are printed with std::to_chars (the shortest
// text that reads back as the same float32), so the daemon stores exactly the floats used here;
// with --format base64, vectors are sent as base64 of their float32 values instead.
//
// Every connection has a 120 s send/receive timeout; vdb.sh bounds each command as a whole.
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "vectors/dot_product.hpp"  // the plugin's own, for the exact top 10

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kQueryStream = 1000;
constexpr uint64_t kTextStream = 2000;
constexpr size_t kBatch = 100;
constexpr size_t kTopK = 10;

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "vdb_bench: " << message << "\n";
  std::exit(1);
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- arguments --------------------------------------------------------------------------------

class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 2; i < argc; ++i) {
      std::string name = argv[i];
      if (name.rfind("--", 0) != 0 || i + 1 >= argc) fail("bad argument " + name);
      values_[name.substr(2)] = argv[++i];
    }
  }
  std::string text(const std::string& name, const char* fallback = nullptr) const {
    if (const auto found = values_.find(name); found != values_.end()) return found->second;
    if (fallback != nullptr) return fallback;
    fail("--" + name + " is required");
  }
  size_t number(const std::string& name, const char* fallback = nullptr) const {
    const std::string value = text(name, fallback);
    size_t out = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (error != std::errc() || end != value.data() + value.size()) {
      fail("--" + name + " must be a number, not " + value);
    }
    return out;
  }

 private:
  std::map<std::string, std::string> values_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

std::string read_token(const std::string& path) {
  std::string token = read_file(path);
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  if (token.empty()) fail("no token in " + path);
  return token;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// ---- seeded vectors ---------------------------------------------------------------------------

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class Rng {  // xoshiro256**
 public:
  Rng(uint64_t seed, uint64_t stream, uint64_t index) {
    uint64_t x = mix(mix(seed) ^ mix(stream + 0x51ED) ^ mix(index * 0x2545F4914F6CDD1Dull + 7));
    for (uint64_t& word : s_) word = x = mix(x);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// A unit vector of `dimensions` float32, uniform on the sphere (normalised Gaussian sample).
void unit_vector(uint64_t seed, uint64_t stream, uint64_t index, size_t dimensions, float* out) {
  Rng rng(seed, stream, index);
  std::vector<double> v(dimensions);
  for (size_t i = 0; i < dimensions; i += 2) {
    const double u1 = 1.0 - rng.uniform();  // (0, 1]
    const double u2 = rng.uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    v[i] = r * std::cos(2 * std::numbers::pi * u2);
    if (i + 1 < dimensions) v[i + 1] = r * std::sin(2 * std::numbers::pi * u2);
  }
  double sum = 0;
  for (const double x : v) sum += x * x;
  const double length = std::sqrt(sum);
  for (size_t i = 0; i < dimensions; ++i) out[i] = static_cast<float>(v[i] / length);
}

// How vectors are sent (--format): "numbers", a JSON array printed by std::to_chars, or
// "base64", the text form vdb also reads (base64 of the float32 values, little-endian).
bool g_base64 = false;

void append_base64(std::string& out, const unsigned char* bytes, size_t size) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const uint32_t n = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63],
            kAlphabet[n & 63]};
  }
  if (size - i == 1) {
    const uint32_t n = uint32_t{bytes[i]} << 16;
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], '=', '='};
  } else if (size - i == 2) {
    const uint32_t n = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8);
    out += {kAlphabet[n >> 18], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63], '='};
  }
}

void append_vector(std::string& out, const float* v, size_t dimensions) {
  static_assert(std::endian::native == std::endian::little, "base64 of float32 is little-endian");
  if (g_base64) {
    out.push_back('"');
    append_base64(out, reinterpret_cast<const unsigned char*>(v), dimensions * sizeof(float));
    out.push_back('"');
    return;
  }
  char buffer[32];
  out.push_back('[');
  for (size_t i = 0; i < dimensions; ++i) {
    if (i > 0) out.push_back(',');
    const auto printed = std::to_chars(buffer, buffer + sizeof buffer, v[i]);
    out.append(buffer, printed.ptr);
  }
  out.push_back(']');
}

// English words the offline model knows, so the texts embed into something.
const char* const kWords[] = {
    "river",    "mountain", "city",     "market",  "garden",   "winter",   "summer",  "ocean",
    "forest",   "teacher",  "student",  "doctor",  "engine",   "train",    "airport", "bridge",
    "library",  "kitchen",  "coffee",   "bread",   "music",    "painting", "history", "science",
    "computer", "network",  "software", "battery", "weather",  "storm",    "rain",    "sunlight",
    "children", "family",   "village",  "harbour", "island",   "desert",   "valley",  "lake",
    "price",    "company",  "bank",     "money",   "contract", "meeting",  "report",  "letter",
    "quick",    "quiet",    "bright",   "dark",    "ancient",  "modern",   "small",   "large",
    "happy",    "careful",  "strong",   "gentle",  "warm",     "cold",     "green",   "blue",
    "builds",   "carries",  "finds",    "reads",   "writes",   "opens",    "closes",  "follows",
    "watches",  "sells",    "buys",     "repairs", "visits",   "explains", "plays",   "grows",
    "the",      "a",        "near",     "under",   "over",     "with",     "from",    "into",
    "old",      "new",      "long",     "short",   "road",     "house",    "window",  "door",
    "animal",   "horse",    "bird",     "fish",    "tree",     "flower",   "stone",   "fire",
    "morning",  "evening",  "night",    "day",     "week",     "year",     "journey", "story",
};
constexpr size_t kWordCount = sizeof kWords / sizeof kWords[0];

std::string sentence(uint64_t seed, uint64_t stream, uint64_t index) {
  Rng rng(seed, stream, index);
  const size_t words = 8 + static_cast<size_t>(rng.uniform() * 9);
  std::string text;
  for (size_t w = 0; w < words; ++w) {
    if (w > 0) text.push_back(' ');
    text += kWords[static_cast<size_t>(rng.uniform() * kWordCount)];
  }
  text.push_back('.');
  return text;
}

// ---- HTTP -------------------------------------------------------------------------------------

struct Target {
  std::string host;
  uint16_t port = 0;
  std::string path;  // /api/<endpoint key>
  std::string api_key;
};

Target target_from(const Args& args) {
  const char* url_env = std::getenv("BENCH_URL");
  const char* endpoint_env = std::getenv("BENCH_ENDPOINT_KEY");
  const char* api_env = std::getenv("BENCH_API_KEY");
  const Poco::URI url(args.text("url", url_env ? url_env : ""));
  Target target;
  target.host = url.getHost();
  target.port = url.getPort();
  // Every byte of the benchmark stays on this machine.
  if (target.host != "127.0.0.1") fail("the daemon must be on 127.0.0.1, not " + target.host);
  target.path = "/api/" + args.text("endpoint-key", endpoint_env ? endpoint_env : "");
  target.api_key = args.text("api-key", api_env ? api_env : "");
  if (target.path == "/api/" || target.api_key.empty()) fail("endpoint key and API key needed");
  return target;
}

class Client {
 public:
  explicit Client(const Target& target) : target_(target), session_(target.host, target.port) {
    session_.setKeepAlive(true);
    session_.setTimeout(Poco::Timespan(120, 0));
  }

  // POSTs `body` signed in with `token`; answers the status and fills `answer`.
  int post(const std::string& body, const std::string& token, std::string& answer) {
    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, target_.path,
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    request.setKeepAlive(true);
    request.setContentType("application/json");
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    request.set("X-API-KEY", target_.api_key);
    request.set("Authorization", "Bearer " + token);
    std::ostream& out = session_.sendRequest(request);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    Poco::Net::HTTPResponse response;
    std::istream& in = session_.receiveResponse(response);
    answer.clear();
    Poco::StreamCopier::copyToString(in, answer);
    return static_cast<int>(response.getStatus());
  }

 private:
  const Target& target_;
  Poco::Net::HTTPClientSession session_;
};

// ---- figures ----------------------------------------------------------------------------------

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t rank = static_cast<size_t>(std::ceil(p / 100 * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (const double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// The daemon's user + system CPU so far, in seconds (/proc/<pid>/stat fields 14 and 15); 0
// without a pid.
double daemon_cpu_seconds(const std::string& pid) {
  if (pid.empty()) return 0;
  const std::string stat = read_file("/proc/" + pid + "/stat");
  std::istringstream in(stat.substr(stat.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i >= 14) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Runs fn(thread) on `threads` threads and waits for them.
template <typename Fn>
void on_threads(size_t threads, Fn fn) {
  std::vector<std::thread> running;
  for (size_t t = 0; t < threads; ++t) running.emplace_back(fn, t);
  for (std::thread& thread : running) thread.join();
}

size_t cores() { return std::max<size_t>(1, std::thread::hardware_concurrency()); }

// ---- commands ---------------------------------------------------------------------------------

std::string vector_query_body(const std::string& collection, uint64_t seed, size_t q,
                              size_t dimensions, size_t limit) {
  std::vector<float> v(dimensions);
  unit_vector(seed, kQueryStream, q, dimensions, v.data());
  std::string body = R"({"op":"vdb.search","collection":)" + json(collection).dump() +
                     R"(,"limit":)" + std::to_string(limit) + R"(,"vector":)";
  append_vector(body, v.data(), dimensions);
  body.push_back('}');
  return body;
}

int vector_queries(const Args& args) {
  std::ofstream out(args.text("out"));
  const size_t count = args.number("count", "200");
  for (size_t q = 0; q < count; ++q) {
    out << vector_query_body(args.text("collection", "bench_vectors"), args.number("seed", "1"), q,
                             args.number("dimensions"), args.number("limit", "10"))
        << "\n";
  }
  return out ? 0 : 1;
}

int text_queries(const Args& args) {
  std::ofstream out(args.text("out"));
  const size_t count = args.number("count", "256");
  const std::string collection = json(args.text("collection", "bench_vectors")).dump();
  for (size_t q = 0; q < count; ++q) {
    out << R"({"op":"vdb.search","collection":)" << collection << R"(,"limit":10,"query":)"
        << json(sentence(args.number("seed", "1"), kTextStream + 1, q)).dump() << "}\n";
  }
  return out ? 0 : 1;
}

// The bodies of batches [first, first + count) of user `user`: vectors, or texts with `content`.
std::vector<std::string> insert_bodies(const std::string& collection, uint64_t seed, size_t user,
                                       size_t records, size_t dimensions, size_t first_batch,
                                       size_t batches, bool content) {
  std::vector<std::string> bodies(batches);
  std::atomic<size_t> next{0};
  on_threads(cores(), [&](size_t) {
    std::vector<float> v(dimensions);
    for (size_t b; (b = next++) < batches;) {
      std::string& body = bodies[b];
      body = R"({"op":"vdb.insert","collection":)" + json(collection).dump() + R"(,"data":[)";
      const size_t from = (first_batch + b) * kBatch;
      const size_t to = std::min(records, from + kBatch);
      for (size_t i = from; i < to; ++i) {
        if (i > from) body.push_back(',');
        if (content) {
          body += R"({"content":)" + json(sentence(seed, kTextStream, user * 1'000'000 + i)).dump();
        } else {
          unit_vector(seed, user, i, dimensions, v.data());
          body += R"({"vector":)";
          append_vector(body, v.data(), dimensions);
        }
        body += R"(,"metadata":{"i":)" + std::to_string(i) + "}}";
      }
      body += "]}";
    }
  });
  return bodies;
}

int load(const Args& args, bool content) {
  const Target target = target_from(args);
  const std::vector<std::string> token_files = split(args.text("tokens"), ',');
  const size_t records = args.number("records");
  const size_t dimensions = content ? 0 : args.number("dimensions");
  const uint64_t seed = args.number("seed", "1");
  const size_t connections = std::max<size_t>(1, args.number("connections", "4"));
  const size_t chunk_batches = std::max<size_t>(1, args.number("chunk", "10000") / kBatch);
  const std::string collection = args.text("collection", content ? "bench_text" : "bench_vectors");
  const std::string pid = args.text("daemon-pid", "");

  std::vector<std::unique_ptr<Client>> clients;
  for (size_t c = 0; c < connections; ++c) clients.push_back(std::make_unique<Client>(target));

  const size_t batches_per_user = (records + kBatch - 1) / kBatch;
  std::vector<double> latencies_ms;
  std::mutex latencies_mutex;
  double send_seconds = 0, make_seconds = 0, daemon_cpu = 0, body_bytes = 0;
  std::atomic<bool> failed{false};
  std::string first_error;
  for (size_t user = 0; user < token_files.size(); ++user) {
    const std::string token = read_token(token_files[user]);
    double user_seconds = 0;
    for (size_t first = 0; first < batches_per_user; first += chunk_batches) {
      const size_t count = std::min(chunk_batches, batches_per_user - first);
      const auto made = Clock::now();
      const std::vector<std::string> bodies =
          insert_bodies(collection, seed, user, records, dimensions, first, count, content);
      make_seconds += seconds_since(made);
      for (const std::string& body : bodies) body_bytes += static_cast<double>(body.size());

      const double cpu_before = daemon_cpu_seconds(pid);
      const auto sent = Clock::now();
      std::atomic<size_t> next{0};
      on_threads(connections, [&](size_t c) {
        std::string answer;
        std::vector<double> mine;
        for (size_t b; !failed && (b = next++) < count;) {
          const auto start = Clock::now();
          int status = 0;
          try {
            status = clients[c]->post(bodies[b], token, answer);
          } catch (const std::exception& e) {
            answer = std::string("exception: ") + e.what();
          }
          mine.push_back(seconds_since(start) * 1000);
          const size_t expected = std::min(kBatch, records - (first + b) * kBatch);
          bool ok = status == 200;
          if (ok) {
            const json parsed = json::parse(answer, nullptr, false);
            ok = parsed.is_object() && parsed.contains("data") && parsed["data"].is_array() &&
                 parsed["data"].size() == expected;
          }
          if (!ok && !failed.exchange(true)) {
            const std::lock_guard lock(latencies_mutex);
            first_error = "status " + std::to_string(status) + ": " + answer.substr(0, 400);
          }
        }
        const std::lock_guard lock(latencies_mutex);
        latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
      });
      const double seconds = seconds_since(sent);
      daemon_cpu += daemon_cpu_seconds(pid) - cpu_before;
      user_seconds += seconds;
      send_seconds += seconds;
      if (failed) fail("an insert failed: " + first_error);
    }
    std::cout << "LOAD_USER user=" << user << " records=" << records << " seconds=" << user_seconds
              << " records_per_s=" << static_cast<double>(records) / user_seconds << std::endl;
  }
  const double total = static_cast<double>(records * token_files.size());
  const double batches = static_cast<double>(latencies_ms.size());
  std::printf(
      "LOAD users=%zu records=%.0f batches=%.0f connections=%zu send_seconds=%.3f "
      "records_per_s=%.1f batches_per_s=%.1f batch_p50_ms=%.3f batch_p99_ms=%.3f "
      "batch_max_ms=%.3f mb_per_batch=%.3f make_seconds=%.1f daemon_cpu_us_per_record=%.1f "
      "errors=0\n",
      token_files.size(), total, batches, connections, send_seconds, total / send_seconds,
      batches / send_seconds, percentile(latencies_ms, 50), percentile(latencies_ms, 99),
      percentile(latencies_ms, 100), body_bytes / batches / 1e6, make_seconds,
      pid.empty() ? 0.0 : daemon_cpu * 1e6 / total);
  return 0;
}

struct Scored {
  float score;
  uint32_t index;
};

// The exact top kTopK of each query over the user's records, best first.
std::vector<std::vector<Scored>> exact_top(uint64_t seed, size_t user, size_t records,
                                           size_t dimensions, size_t queries) {
  std::vector<float> query_vectors(queries * dimensions);
  for (size_t q = 0; q < queries; ++q) {
    unit_vector(seed, kQueryStream, q, dimensions, &query_vectors[q * dimensions]);
  }
  const size_t threads = cores();
  // Each thread: its share of the records, made here and scored in blocks against all queries
  // (a block and the queries stay in cache), its own top list per query.
  std::vector<std::vector<std::vector<Scored>>> partial(threads,
                                                        std::vector<std::vector<Scored>>(queries));
  on_threads(threads, [&](size_t t) {
    constexpr size_t kBlock = 64;
    std::vector<float> block(kBlock * dimensions);
    const size_t from = records * t / threads, to = records * (t + 1) / threads;
    for (size_t start = from; start < to; start += kBlock) {
      const size_t n = std::min(kBlock, to - start);
      for (size_t r = 0; r < n; ++r) {
        unit_vector(seed, user, start + r, dimensions, &block[r * dimensions]);
      }
      for (size_t q = 0; q < queries; ++q) {
        std::vector<Scored>& top = partial[t][q];
        const float* qv = &query_vectors[q * dimensions];
        for (size_t r = 0; r < n; ++r) {
          const float s = opbase::vdb::dot_product(qv, &block[r * dimensions], dimensions);
          if (top.size() < kTopK) {
            top.push_back({s, static_cast<uint32_t>(start + r)});
          } else {
            auto worst = std::min_element(top.begin(), top.end(),
                                          [](auto& a, auto& b) { return a.score < b.score; });
            if (s > worst->score) *worst = {s, static_cast<uint32_t>(start + r)};
          }
        }
      }
    }
  });
  std::vector<std::vector<Scored>> top(queries);
  for (size_t q = 0; q < queries; ++q) {
    for (size_t t = 0; t < threads; ++t) {
      top[q].insert(top[q].end(), partial[t][q].begin(), partial[t][q].end());
    }
    std::sort(top[q].begin(), top[q].end(),
              [](const Scored& a, const Scored& b) { return a.score > b.score; });
    top[q].resize(std::min(kTopK, top[q].size()));
  }
  return top;
}

int recall(const Args& args) {
  const Target target = target_from(args);
  const std::string token = read_token(args.text("token"));
  const size_t user = args.number("user", "0");
  const size_t records = args.number("records");
  const size_t dimensions = args.number("dimensions");
  const uint64_t seed = args.number("seed", "1");
  const size_t queries = args.number("queries", "200");
  const std::string cache = args.text("cache");
  const std::string collection = args.text("collection", "bench_vectors");

  // The exact answers: from the cache when it was made for the same data and queries.
  const std::string signature =
      "exact-top10 seed=" + std::to_string(seed) + " user=" + std::to_string(user) +
      " records=" + std::to_string(records) + " dimensions=" + std::to_string(dimensions) +
      " queries=" + std::to_string(queries);
  std::vector<std::vector<Scored>> exact;
  double exact_seconds = 0;
  {
    std::ifstream in(cache);
    std::string line;
    if (in && std::getline(in, line) && line == signature) {
      for (size_t q = 0; q < queries && std::getline(in, line); ++q) {
        std::istringstream fields(line);
        std::vector<Scored> top;
        Scored s{};
        while (fields >> s.index >> s.score) top.push_back(s);
        exact.push_back(std::move(top));
      }
      if (exact.size() != queries) exact.clear();
    }
  }
  if (exact.empty()) {
    const auto start = Clock::now();
    exact = exact_top(seed, user, records, dimensions, queries);
    exact_seconds = seconds_since(start);
    std::ofstream out(cache);
    out << signature << "\n";
    for (const auto& top : exact) {
      for (const Scored& s : top) out << s.index << " " << s.score << " ";
      out << "\n";
    }
  }

  Client client(target);
  std::vector<double> recalls, latencies_ms, processing_ms, best_score_gaps;
  std::string answer;
  size_t perfect = 0;
  for (size_t q = 0; q < queries; ++q) {
    const std::string body = vector_query_body(collection, seed, q, dimensions, kTopK);
    const auto start = Clock::now();
    const int status = client.post(body, token, answer);
    latencies_ms.push_back(seconds_since(start) * 1000);
    if (status != 200)
      fail("search " + std::to_string(q) + ": status " + std::to_string(status) + ": " +
           answer.substr(0, 400));
    const json parsed = json::parse(answer);
    std::vector<uint32_t> found;
    for (const json& record : parsed.at("data")) {
      found.push_back(record.at("metadata").at("i").get<uint32_t>());
    }
    size_t hits = 0;
    for (const Scored& s : exact[q]) {
      hits += std::find(found.begin(), found.end(), s.index) != found.end() ? 1 : 0;
    }
    const double r = static_cast<double>(hits) / static_cast<double>(exact[q].size());
    recalls.push_back(r);
    perfect += hits == exact[q].size() ? 1 : 0;
    processing_ms.push_back(parsed.at("meta").value("processing_time_ms", 0.0));
    if (!parsed["data"].empty()) {
      best_score_gaps.push_back(
          std::fabs(parsed["data"][0].value("score", 0.0) - exact[q].front().score));
    }
  }
  std::printf(
      "RECALL queries=%zu k=%zu records=%zu dimensions=%zu recall=%.4f min=%.2f perfect=%zu "
      "p50_ms=%.3f p99_ms=%.3f processing_p50_ms=%.3f max_best_score_gap=%.2e "
      "exact_seconds=%.1f\n",
      queries, kTopK, records, dimensions, mean(recalls),
      *std::min_element(recalls.begin(), recalls.end()), perfect, percentile(latencies_ms, 50),
      percentile(latencies_ms, 99), percentile(processing_ms, 50),
      best_score_gaps.empty() ? 0.0
                              : *std::max_element(best_score_gaps.begin(), best_score_gaps.end()),
      exact_seconds);
  return 0;
}

int probe(const Args& args) {
  const Target target = target_from(args);
  const std::string token = read_token(args.text("token"));
  const std::vector<std::string> bodies = split(read_file(args.text("bodies")), '\n');
  if (bodies.empty()) fail("no bodies in " + args.text("bodies"));
  const size_t count = args.number("count", "2000");
  const size_t connections = std::max<size_t>(1, args.number("connections", "16"));
  const double limit_s = static_cast<double>(args.number("seconds", "20"));
  const std::string expect = args.text("expect", "");

  std::atomic<size_t> next{0};
  std::atomic<size_t> errors{0};
  std::mutex mutex;
  std::vector<double> latencies_ms, processing_ms, embedding_ms;
  std::string first_error;
  const auto start = Clock::now();
  on_threads(connections, [&](size_t c) {
    Client client(target);
    std::string answer;
    std::vector<double> lat, proc, emb;
    for (size_t i; (i = next++) < count && seconds_since(start) < limit_s;) {
      const auto sent = Clock::now();
      int status = 0;
      try {
        status = client.post(bodies[(i + c * 7) % bodies.size()], token, answer);
      } catch (const std::exception& e) {
        answer = std::string("exception: ") + e.what();
      }
      lat.push_back(seconds_since(sent) * 1000);
      const json parsed = status == 200 ? json::parse(answer, nullptr, false) : json();
      if (!parsed.is_object() || !parsed.contains("meta") ||
          (!expect.empty() && answer.find(expect) == std::string::npos)) {
        if (errors++ == 0) {
          const std::lock_guard lock(mutex);
          first_error = "status " + std::to_string(status) + ": " + answer.substr(0, 400);
        }
        continue;
      }
      const json& meta = parsed["meta"];
      proc.push_back(meta.value("processing_time_ms", 0.0));
      if (meta.contains("embedding_time_ms"))
        emb.push_back(meta["embedding_time_ms"].get<double>());
    }
    const std::lock_guard lock(mutex);
    latencies_ms.insert(latencies_ms.end(), lat.begin(), lat.end());
    processing_ms.insert(processing_ms.end(), proc.begin(), proc.end());
    embedding_ms.insert(embedding_ms.end(), emb.begin(), emb.end());
  });
  const double seconds = seconds_since(start);
  if (errors > 0) std::cerr << "vdb_bench: first wrong answer: " << first_error << "\n";
  std::printf(
      "PROBE requests=%zu connections=%zu seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f "
      "processing_p50_ms=%.3f processing_p99_ms=%.3f processing_mean_ms=%.3f embedded=%zu "
      "embedding_p50_ms=%.3f embedding_p99_ms=%.3f embedding_mean_ms=%.3f errors=%zu\n",
      latencies_ms.size(), connections, seconds, static_cast<double>(latencies_ms.size()) / seconds,
      percentile(latencies_ms, 50), percentile(latencies_ms, 99), percentile(processing_ms, 50),
      percentile(processing_ms, 99), mean(processing_ms), embedding_ms.size(),
      percentile(embedding_ms, 50), percentile(embedding_ms, 99), mean(embedding_ms),
      errors.load());
  return errors > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: vdb_bench vector-queries|text-queries|load|load-text|recall|probe "
                 "--name value ...\n";
    return 2;
  }
  const std::string command = argv[1];
  const Args args(argc, argv);
  const std::string format = args.text("format", "numbers");
  if (format != "numbers" && format != "base64") fail("--format is numbers or base64");
  g_base64 = format == "base64";
  try {
    if (command == "vector-queries") return vector_queries(args);
    if (command == "text-queries") return text_queries(args);
    if (command == "load") return load(args, false);
    if (command == "load-text") return load(args, true);
    if (command == "recall") return recall(args);
    if (command == "probe") return probe(args);
  } catch (const std::exception& e) {
    fail(command + ": " + e.what());
  }
  fail("unknown command " + command);
}

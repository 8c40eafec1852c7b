#include "log/log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "opbase/iso_time.hpp"
#include "util/clock.hpp"

namespace opbase::host::log {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::kInfo)};
std::atomic<int> g_fd{STDERR_FILENO};

const char* name_of(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO ";
    case Level::kWarning:
      return "WARN ";
    case Level::kError:
      return "ERROR";
  }
  return "?    ";
}

}  // namespace

void set_level(Level level) { g_level.store(static_cast<int>(level)); }

bool set_file(const std::string& path) {
  // O_APPEND keeps each line whole among writers and works with copy-and-truncate rotation.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd < 0) return false;
  g_fd.store(fd);
  return true;
}

bool parse_level(std::string_view text, Level* out) {
  if (text == "debug")
    *out = Level::kDebug;
  else if (text == "info")
    *out = Level::kInfo;
  else if (text == "warning" || text == "warn")
    *out = Level::kWarning;
  else if (text == "error")
    *out = Level::kError;
  else
    return false;
  return true;
}

bool enabled(Level level) {
  return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view component, std::string_view message) {
  if (!enabled(level)) return;
  std::string line = iso_time(system_now_ms());
  line += ' ';
  line += name_of(level);
  line += " [";
  line += component;
  line += "] ";
  // One line per entry: newlines inside a message would let input forge log lines.
  for (char c : message) line += (c == '\n' || c == '\r') ? ' ' : c;
  line += '\n';
  // A single write() per line keeps concurrent lines whole.
  ssize_t ignored = ::write(g_fd.load(std::memory_order_relaxed), line.data(), line.size());
  (void)ignored;
}

}  // namespace opbase::host::log

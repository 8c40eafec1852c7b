#include "metrics/process_metrics.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

namespace opbase::host {
namespace {

struct ProcessStat {
  double cpu_seconds = 0;
  double start_seconds_after_boot = 0;
  double virtual_bytes = 0;
  double resident_bytes = 0;
  double threads = 0;
};

// /proc/self/stat: the fields after the command name, which may itself hold spaces and ')'.
std::optional<ProcessStat> read_stat() {
  std::ifstream file("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto name_end = text.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(name_end + 2));
  std::vector<std::string> fields;  // fields[0] is field 3 (state) of proc(5)
  for (std::string field; rest >> field;) fields.push_back(field);
  if (fields.size() < 22) return std::nullopt;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  ProcessStat stat;
  // The kernel's exact count, not stat's utime + stime: those are sampled in clock ticks, and a
  // daemon that has used under one tick would show 0.
  timespec cpu{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  stat.cpu_seconds = static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) / 1e9;
  stat.threads = std::stod(fields[17]);
  stat.start_seconds_after_boot = std::stod(fields[19]) / ticks;
  stat.virtual_bytes = std::stod(fields[20]);
  stat.resident_bytes = std::stod(fields[21]) * page;
  return stat;
}

std::optional<double> boot_time_seconds() {
  std::ifstream file("/proc/stat");
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with("btime ")) return std::stod(line.substr(6));
  }
  return std::nullopt;
}

double open_fds() {
  std::error_code ignored;
  double count = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ignored), end; it != end;
       it.increment(ignored)) {
    ++count;
  }
  return count - 1;  // the iterator's own descriptor
}

void add(std::string& out, std::string_view name, std::string_view type, std::string_view help,
         double value) {
  char number[48];
  std::snprintf(number, sizeof number, "%.17g", value);
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
  out += name;
  out += ' ';
  out += number;
  out += '\n';
}

}  // namespace

std::string process_metrics_text() {
  std::string out;
  if (const auto stat = read_stat()) {
    add(out, "process_cpu_seconds_total", "counter", "User and system CPU time spent in seconds.",
        stat->cpu_seconds);
    add(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
        stat->resident_bytes);
    add(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
        stat->virtual_bytes);
    add(out, "process_threads", "gauge", "Number of OS threads in the process.", stat->threads);
    if (const auto boot = boot_time_seconds()) {
      add(out, "process_start_time_seconds", "gauge",
          "Start time of the process since the Unix epoch in seconds.",
          *boot + stat->start_seconds_after_boot);
    }
  }
  add(out, "process_open_fds", "gauge", "Number of open file descriptors.", open_fds());
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    add(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
        static_cast<double>(limit.rlim_cur));
  }
  return out;
}

}  // namespace opbase::host

#include "config/properties_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace opbase::host {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

Result<Properties> parse_properties(std::string_view text, std::string_view file_name) {
  Properties out;
  // Editors on some systems start a UTF-8 file with a byte-order mark; it is not part of a key.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == '!') continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) {
      return Status::validation(std::string(file_name) + ":" + std::to_string(line_no) +
                                ": expected 'key = value', got '" + std::string(line) + "'");
    }
    const std::string_view key = trim(line.substr(0, eq));
    if (key.empty()) {
      return Status::validation(std::string(file_name) + ":" + std::to_string(line_no) +
                                ": the key before '=' is empty");
    }
    out.emplace_back(std::string(key), std::string(trim(line.substr(eq + 1))));
  }
  return out;
}

Result<Properties> read_properties_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::validation("cannot read configuration file " + path + ": " +
                              std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_properties(text.str(), path);
}

Status write_properties_file(const std::string& path, const Properties& properties,
                             std::string_view header_comment) {
  std::string text = "# " + std::string(header_comment) + "\n";
  for (const auto& [key, value] : properties) text += key + " = " + value + "\n";
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::internal("cannot write " + tmp + ": " + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                       ::fsync(fd) == 0;
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return Status::internal("cannot write " + path + ": " + std::strerror(errno));
  }
  // The rename itself must reach the disk too, or a crash could leave no file at all.
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return Status::ok();
}

}  // namespace opbase::host

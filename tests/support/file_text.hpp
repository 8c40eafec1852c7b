// file_text: a whole file's bytes, for tests that read what a child process or the daemon wrote.
// A file that cannot be read answers "" (the test's own assertions then say what is missing).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace opbase::test {

inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace opbase::test

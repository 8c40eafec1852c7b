// altcha_lib: runs tests/support/altcha_lib.mjs (npm altcha-lib, an independent implementation
// of the ALTCHA format) with `args`, for tests that check the captcha plugin against it. Its
// printed line, without the newline; *exit_code gets the script's exit code.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "child_server.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace opbase::test {

inline std::string altcha_lib(std::vector<std::string> args, int* exit_code) {
  const TempDir dir("opbase-altcha");
  const std::string output = dir.path() + "/out.txt";
  args.insert(args.begin(),
              {"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/altcha_lib.mjs"});
  *exit_code = run_to_file(args, output, std::chrono::seconds(60));
  std::string text = file_text(output);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace opbase::test

// Offline translation from English with Apertium (the Debian packages), for ai.translate when no
// model provider is configured. Spanish, French, Portuguese and Italian go through Catalan
// (eng-cat, then cat-spa, cat-fra, cat-por or cat-ita): the Catalan hub gives better text than
// Debian's direct eng-spa pair, even for Spanish. German, Japanese, Chinese and Russian have no
// Apertium pair from English: those need a model provider (ai.provider.translate = openai).
// The quality is "gist": readable, often clumsy, with words the dictionaries lack left as written.
//
// Each direction keeps a small pool of persistent pipelines (pipeline_pool.hpp) of Apertium's
// programs, started on first use, so a call costs milliseconds instead of a process start-up
// (0.2-0.6 s each, several seconds on a busy machine). Memory is the price: with one pipeline
// per language, about 1.3 GB in all (cat-fra's generator alone takes 440 MB), so pipelines left
// idle are stopped after idle_stop_ms. The text goes through pipes, never on a
// command line, and is cut into lines and pieces (text_pieces.hpp) whose layout is kept.
//
// The source is taken to be English; looks_english() (source_language.hpp) lets the op layer
// refuse text that clearly is not.
//
// Failures are PROCESSING_FAILED with details.error_type (translate_errors.hpp): a missing mode
// file or program is "unavailable" (the message names it and the Debian package).
//
// Thread-safety: translate() and supports() may be called from any number of threads at once.
// shutdown() (also run by the destructor) stops and collects every Apertium process; calls after
// it fail. The translator must outlive every call.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "provider/task.hpp"
#include "translate/mode_command.hpp"
#include "translate/pipeline_pool.hpp"

namespace opbase::ai {

struct ApertiumSettings {
  std::string modes_dir = "/usr/share/apertium/modes";
  int pipelines_per_direction = 2;
  // Budget of one translate() call. A call that finds no pipeline ready (on first use, or after
  // one broke) waits for one to start within this budget, and fails with "timeout" if none does.
  int timeout_ms = 15000;
  // Budget of a pipeline's start-up, which goes on in the background after a call gave up.
  int startup_timeout_ms = 60000;
  // A pipeline unused this long is stopped, giving its memory back (0: kept until shutdown).
  int idle_stop_ms = 600000;
  // Where Apertium's programs are looked up; empty: the PATH of the host process, else
  // /usr/local/bin:/usr/bin:/bin.
  std::string search_path;
};

struct TranslationAnswer {
  std::string text;
  std::string engine = "apertium";
  std::string route;  // the directions taken, e.g. "eng-cat|cat-spa"
  // The share of words Apertium knew (0 to 1, two decimals): 1 - unknown words / words of the
  // English text, where the unknown ones are those Apertium marks when generating the target
  // (not in a dictionary, or with no translation). Text with no words counts as fully known.
  double confidence = 0.0;
  int unknown_words = 0;
};

class ApertiumTranslator {
 public:
  using Settings = ApertiumSettings;

  explicit ApertiumTranslator(Settings settings);
  ~ApertiumTranslator();
  ApertiumTranslator(const ApertiumTranslator&) = delete;
  ApertiumTranslator& operator=(const ApertiumTranslator&) = delete;

  // True for the languages with an offline route (by ISO 639-1 code: es, fr, pt, it), whether or
  // not the Apertium packages are installed here (translate() says when they are not).
  bool supports(const Language& target) const;

  // `english_text` translated into `target`; line breaks, empty lines and each line's
  // surrounding white space kept. Failures: unsupported_offline, unavailable, timeout,
  // engine_failed (translate_errors.hpp).
  Result<TranslationAnswer> translate(std::string_view english_text, const Language& target) const;

  // Starts one pipeline per supported direction and translates a word through it, waiting up to
  // startup_timeout_ms, so that the first real call does not wait for start-up. Meant for a
  // background thread at plugin start; the first failure is returned.
  Status warm_up() const;

  void shutdown();

 private:
  struct Hop {
    std::string direction;  // a mode name, e.g. "eng-cat"
    std::string package;    // the Debian package that installs it
    bool marks_unknown;     // generate with unknown-word marks (the last hop only)
  };

  PipelinePool& pool_for(const std::string& direction) const;
  Result<std::vector<Stage>> stages_for(const Hop& hop) const;
  Result<std::vector<Stage>> load_stages(const Hop& hop) const;
  Result<TranslationAnswer> translate_until(std::string_view english_text, const Language& target,
                                            PipelinePool::Clock::time_point deadline) const;
  Result<std::vector<std::string>> run_hops(const std::vector<const Hop*>& hops,
                                            std::vector<std::string> messages,
                                            PipelinePool::Clock::time_point deadline) const;

  const Settings settings_;
  const std::string search_path_;
  const std::vector<std::string> environment_;
  const std::vector<Hop> hops_;  // eng-cat first
  std::map<std::string, std::unique_ptr<PipelinePool>>
      pools_;  // by direction; fixed after construction

  mutable std::mutex stages_mutex_;
  mutable std::map<std::string, Result<std::vector<Stage>>> stages_;  // guarded by stages_mutex_
};

}  // namespace opbase::ai

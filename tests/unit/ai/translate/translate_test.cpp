// Offline translation (plugins/ai/translate): target languages, the English check, Apertium's
// stream format, how texts are cut, mode command lines, and the Apertium engine itself. The
// engine tests need the Debian packages apertium, apertium-eng-cat, apertium-spa-cat,
// apertium-fra-cat, apertium-por-cat and apertium-cat-ita, and are skipped when their modes are
// missing.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "translate/apertium_stream.hpp"
#include "translate/apertium_translator.hpp"
#include "translate/languages.hpp"
#include "translate/mode_command.hpp"
#include "translate/source_language.hpp"
#include "translate/text_pieces.hpp"
#include "translate/translate_errors.hpp"

namespace opbase::ai {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---------------------------------------------------------------------------------------------
// Languages

TEST(Languages, TheSpecsEightInItsOrder) {
  const std::vector<std::string> expected = {"Spanish", "French",     "German",  "Japanese",
                                             "Chinese", "Portuguese", "Italian", "Russian"};
  EXPECT_EQ(supported_language_names(), expected);
  std::vector<std::string> codes;
  for (const Language& language : supported_languages()) codes.push_back(language.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"es", "fr", "de", "ja", "zh", "pt", "it", "ru"}));
}

TEST(Languages, NamesAndCodesInAnyCaseTrimmed) {
  const struct {
    const char* text;
    const char* code;
  } cases[] = {{"Spanish", "es"},    {"spanish", "es"},   {"  SPANISH\t", "es"}, {"es", "es"},
               {"ES", "es"},         {" fr ", "fr"},      {"french", "fr"},      {"German", "de"},
               {"ja", "ja"},         {"JAPANESE", "ja"},  {"Chinese", "zh"},     {"zh", "zh"},
               {"portuguese", "pt"}, {"Pt", "pt"},        {"Italian", "it"},     {"IT", "it"},
               {"russian", "ru"},    {"\n ru \r\n", "ru"}};
  for (const auto& c : cases) {
    const std::optional<Language> language = language_from(c.text);
    ASSERT_TRUE(language.has_value()) << c.text;
    EXPECT_EQ(language->code, c.code) << c.text;
  }
  EXPECT_EQ(language_from("es")->name, "Spanish");
  EXPECT_EQ(language_from("RUSSIAN")->name, "Russian");
}

TEST(Languages, OthersAreRefused) {
  for (const char* text : {"", "  ", "Klingon", "en", "English", "esp", "e s", "Spanish!", "spa",
                           "es-ES", "zh-CN", "Españ", "Deutsch", "日本語"}) {
    EXPECT_FALSE(language_from(text).has_value()) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// The English check

TEST(LooksEnglish, EnglishPasses) {
  for (const char* text : {
           "The house is big.",
           "Please send the report to the manager before the meeting on Friday.",
           "I think that this product is great, but the delivery was slow and the box was "
           "damaged when it arrived.",
           "Thank you for your quick answer!",
           "Hello",
           "iPhone 15 Pro Max 256GB Blue",  // no function words at all: not refused
           "El País",                       // a name: too few words to judge
           "The café serves crème brûlée and piña colada to the guests.",
       }) {
    EXPECT_TRUE(looks_english(text)) << text;
  }
}

TEST(LooksEnglish, OtherLanguagesAreRefused) {
  for (const char* text : {
           "La casa es grande y el perro está en el jardín con los niños.",
           "Je pense que le produit est très bon, mais la livraison était lente.",
           "Ich glaube, dass das Produkt sehr gut ist, aber die Lieferung war langsam.",
           "Il prodotto è molto buono, ma la consegna della merce è stata lenta.",
           "O produto é muito bom, mas a entrega foi lenta e a caixa chegou danificada.",
           "Это очень хороший продукт, но доставка была медленной.",
           "この製品はとても良いですが、配達が遅かったです。",
           "这个产品很好，但是送货很慢。",
       }) {
    EXPECT_FALSE(looks_english(text)) << text;
  }
}

TEST(LooksEnglish, RefusalIsProcessingFailedNotWorthRetrying) {
  const Status failure = not_english_failure();
  EXPECT_EQ(failure.code(), "PROCESSING_FAILED");
  EXPECT_EQ(failure.details()["error_type"], "unsupported_source_language");
  EXPECT_EQ(failure.details()["retry_recommended"], false);
  EXPECT_NE(failure.message().find("English"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Apertium's stream format

TEST(ApertiumStream, MarkupIsEscapedAndMarksTravelInSuperblanks) {
  EXPECT_EQ(to_stream("plain words"), "plain words");
  EXPECT_EQ(to_stream("a^b$c/d<e>f[g]h{i}j\\k"), "a\\^b\\$c\\/d\\<e\\>f\\[g\\]h\\{i\\}j\\\\k");
  EXPECT_EQ(to_stream("a@b*c#d~e"), "a[\\@]b[\\*]c[\\#]d[\\~]e");
  EXPECT_EQ(to_stream(std::string("a\0b", 3)), "ab") << "NUL ends a message: dropped";
  EXPECT_EQ(to_stream("a\tb\x01"), "a\tb[\\\x01]");
}

TEST(ApertiumStream, RoundTripKeepsEveryCharacter) {
  const std::string text = "a ~ b ^ c $ d @ e / f < g > h [ i ] j { k } l \\ m * n # o \t é 日本";
  const StreamText back = from_stream(to_stream(text));
  EXPECT_EQ(back.text, text);
  EXPECT_EQ(back.unknown_marks, 0);
}

TEST(ApertiumStream, MarksAreCountedAndDropped) {
  const StreamText plain = from_stream("La *xyzzy casa #gran \\@foo es[ ][\\*]bold[\\*].[]");
  EXPECT_EQ(plain.text, "La xyzzy casa gran foo es *bold*.");
  EXPECT_EQ(plain.unknown_marks, 3);
}

// ---------------------------------------------------------------------------------------------
// How texts are cut

std::string joined(const std::vector<TextPiece>& pieces) {
  std::string text;
  for (const TextPiece& piece : pieces) text += piece.text;
  return text;
}

std::vector<std::string> translated_parts(const std::vector<TextPiece>& pieces) {
  std::vector<std::string> parts;
  for (const TextPiece& piece : pieces) {
    if (piece.translate) parts.emplace_back(piece.text);
  }
  return parts;
}

TEST(TextPieces, LayoutIsKeptAroundTheWords) {
  const std::string text = "  Hello world.\n\nSecond line\t \r\n\n   \nLast";
  const std::vector<TextPiece> pieces = split_for_translation(text, 1000);
  EXPECT_EQ(joined(pieces), text);
  EXPECT_EQ(translated_parts(pieces),
            (std::vector<std::string>{"Hello world.", "Second line", "Last"}));
  EXPECT_FALSE(pieces.front().translate);
  EXPECT_EQ(pieces.front().text, "  ");
}

TEST(TextPieces, EmptyAndBlankTextsHaveNothingToTranslate) {
  EXPECT_TRUE(split_for_translation("", 1000).empty());
  const std::vector<TextPiece> pieces = split_for_translation("\n \n\t\n", 1000);
  EXPECT_EQ(joined(pieces), "\n \n\t\n");
  EXPECT_TRUE(translated_parts(pieces).empty());
}

TEST(TextPieces, LongLinesAreCutAtSentenceEnds) {
  std::string line;
  for (int i = 0; i < 40; ++i) line += "This is sentence number " + std::to_string(i) + ". ";
  line += "End";
  const std::vector<TextPiece> pieces = split_for_translation(line, 200);
  EXPECT_EQ(joined(pieces), line);
  const std::vector<std::string> parts = translated_parts(pieces);
  ASSERT_GT(parts.size(), 5u);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    EXPECT_LE(parts[i].size(), 200u);
    EXPECT_EQ(parts[i].back(), '.') << parts[i];
    EXPECT_EQ(parts[i].rfind("This is sentence", 0), 0u) << parts[i];
  }
}

TEST(TextPieces, LinesWithoutSentenceEndsAreCutAtSpacesThenCharacters) {
  std::string words;
  for (int i = 0; i < 100; ++i) words += "word ";
  const std::vector<TextPiece> by_spaces = split_for_translation(words, 64);
  EXPECT_EQ(joined(by_spaces), words);
  for (const std::string& part : translated_parts(by_spaces)) {
    EXPECT_LE(part.size(), 64u);
    EXPECT_EQ(part.back(), 'd');
  }
  std::string solid;
  for (int i = 0; i < 100; ++i) solid += "é";  // 2 bytes each
  const std::vector<TextPiece> by_characters = split_for_translation(solid, 63);
  EXPECT_EQ(joined(by_characters), solid);
  for (const std::string& part : translated_parts(by_characters)) {
    EXPECT_LE(part.size(), 63u);
    EXPECT_EQ(part.size() % 2, 0u) << "cut inside a character";
  }
}

TEST(TextPieces, WordCount) {
  EXPECT_EQ(count_apertium_words(""), 0u);
  EXPECT_EQ(count_apertium_words(" ... !! "), 0u);
  EXPECT_EQ(count_apertium_words("The house is big."), 4u);
  EXPECT_EQ(count_apertium_words("don't stop 3.5"), 5u);
  EXPECT_EQ(count_apertium_words("café crème"), 2u);
}

// ---------------------------------------------------------------------------------------------
// Mode command lines

TEST(ModeCommand, ParsesWhatApertiumWblankModePrints) {
  const std::string command =
      "lt-proc -z -w '/usr/share/apertium/apertium-spa-cat/cat-spa.automorf.bin' | "
      "apertium-tagger -z -g $2 '/x/cat-spa.prob' | apertium-pretransfer -z | "
      "lt-proc -z $1 '/x/cat-spa.autogen.bin'\n";
  Result<std::vector<Stage>> stages = parse_pipeline(command, {"-g", ""});
  ASSERT_TRUE(stages.is_ok()) << stages.status().to_string();
  ASSERT_EQ(stages->size(), 4u);
  EXPECT_EQ((*stages)[0], (Stage{"lt-proc", "-z", "-w",
                                 "/usr/share/apertium/apertium-spa-cat/cat-spa.automorf.bin"}));
  EXPECT_EQ((*stages)[1], (Stage{"apertium-tagger", "-z", "-g", "/x/cat-spa.prob"}))
      << "an empty bare $2 vanishes";
  EXPECT_EQ((*stages)[2], (Stage{"apertium-pretransfer", "-z"}));
  EXPECT_EQ((*stages)[3], (Stage{"lt-proc", "-z", "-g", "/x/cat-spa.autogen.bin"}));
}

TEST(ModeCommand, QuotingAndEscapes) {
  Result<std::vector<Stage>> stages =
      parse_pipeline(R"(prog "a b" 'c|d' e\ f "" "x$1y" | other)", {"-n"});
  ASSERT_TRUE(stages.is_ok()) << stages.status().to_string();
  EXPECT_EQ((*stages)[0], (Stage{"prog", "a b", "c|d", "e f", "", "x-ny"}));
  EXPECT_EQ((*stages)[1], (Stage{"other"}));
}

TEST(ModeCommand, ShellFeaturesAreRefused) {
  for (const char* command :
       {"a; rm -rf /", "a && b", "a > /tmp/x", "a < /etc/passwd", "a $(id)", "a `id`", "a $HOME",
        "a | | b", "a |", "", "a 'open", "a \"open", "a *"}) {
    EXPECT_FALSE(parse_pipeline(command, {"-n", ""}).is_ok()) << command;
  }
}

// ---------------------------------------------------------------------------------------------
// The Apertium engine

const char* kModesDir = "/usr/share/apertium/modes";

bool apertium_installed() {
  for (const char* mode : {"eng-cat", "cat-spa", "cat-fra", "cat-por", "cat-ita"}) {
    if (!std::filesystem::exists(std::string(kModesDir) + "/" + mode + ".mode")) return false;
  }
  return true;
}

#define SKIP_WITHOUT_APERTIUM()                                                              \
  if (!apertium_installed()) {                                                               \
    GTEST_SKIP() << "Apertium modes missing in " << kModesDir                                \
                 << " (install apertium apertium-eng-cat apertium-spa-cat apertium-fra-cat " \
                    "apertium-por-cat apertium-cat-ita)";                                    \
  }

Language language(const char* code) { return *language_from(code); }

// The processes this test binary started that are still there (zombies included).
std::vector<pid_t> children() {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 1));
    char state = 0;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parent == getpid()) found.push_back(std::stoi(name));
  }
  return found;
}

size_t open_descriptors() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

std::string command_line(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/cmdline");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  return text;
}

ApertiumTranslator::Settings test_settings() {
  ApertiumTranslator::Settings settings;
  // Generous: the machines running the tests are often busy, and a pipeline's start-up then
  // takes seconds.
  settings.timeout_ms = 60000;
  return settings;
}

// These tests make translators of their own; they run before the shared one starts, so the
// processes they see appear and go are theirs.

TEST(ApertiumTranslator, LanguagesWithoutAnOfflineRouteNeedAModelProvider) {
  ApertiumTranslator translator(test_settings());
  for (const char* code : {"de", "ja", "zh", "ru"}) {
    const Language target = language(code);
    EXPECT_FALSE(translator.supports(target)) << code;
    const std::vector<pid_t> before = children();
    Result<TranslationAnswer> answer = translator.translate("The house is big.", target);
    EXPECT_EQ(children(), before) << "no process is started for " << code;
    ASSERT_FALSE(answer.is_ok()) << code;
    const Status failure = answer.status();
    EXPECT_EQ(failure.code(), "PROCESSING_FAILED");
    EXPECT_EQ(failure.details(), (nlohmann::json{{"error_type", "unsupported_offline"},
                                                 {"retry_recommended", false}}));
    EXPECT_NE(failure.message().find(target.name), std::string::npos) << failure.message();
    EXPECT_NE(failure.message().find("model provider"), std::string::npos) << failure.message();
    EXPECT_NE(failure.message().find("ai.provider.translate = openai"), std::string::npos)
        << failure.message();
  }
  for (const char* code : {"es", "fr", "pt", "it"})
    EXPECT_TRUE(translator.supports(language(code)));
}

TEST(ApertiumTranslator, AMissingPairIsNamed) {
  const std::filesystem::path empty =
      std::filesystem::temp_directory_path() / ("ai_translate_modes_" + std::to_string(getpid()));
  std::filesystem::create_directories(empty);
  ApertiumTranslator::Settings settings;
  settings.modes_dir = empty.string();
  ApertiumTranslator translator(settings);
  Result<TranslationAnswer> answer = translator.translate("The house is big.", language("es"));
  ASSERT_FALSE(answer.is_ok());
  EXPECT_EQ(answer.status().code(), "PROCESSING_FAILED");
  EXPECT_EQ(answer.status().details(),
            (nlohmann::json{{"error_type", "unavailable"}, {"retry_recommended", false}}));
  EXPECT_NE(answer.status().message().find((empty / "eng-cat.mode").string()), std::string::npos)
      << answer.status().message();
  EXPECT_NE(answer.status().message().find("apertium-eng-cat"), std::string::npos);
  std::filesystem::remove_all(empty);
}

TEST(ApertiumTranslator, MissingProgramsAreNamed) {
  SKIP_WITHOUT_APERTIUM();
  ApertiumTranslator::Settings settings;
  settings.search_path = "/nonexistent";
  ApertiumTranslator translator(settings);
  Result<TranslationAnswer> answer = translator.translate("The house is big.", language("it"));
  ASSERT_FALSE(answer.is_ok());
  EXPECT_EQ(translation_error_type(answer.status()), "unavailable");
  EXPECT_NE(answer.status().message().find("apertium-wblank-mode"), std::string::npos)
      << answer.status().message();
}

TEST(ApertiumTranslator, ACallThatCannotGetAPipelineInTimeFailsClearly) {
  SKIP_WITHOUT_APERTIUM();
  const std::vector<pid_t> before = children();
  {
    ApertiumTranslator::Settings settings;
    settings.timeout_ms = 1;  // far less than a start-up
    ApertiumTranslator translator(settings);
    const auto start = Clock::now();
    Result<TranslationAnswer> answer = translator.translate("The house is big.", language("fr"));
    // Reading the two modes (once per translator) is not bounded by the call's budget.
    EXPECT_LT(ms_since(start), 5000.0);
    ASSERT_FALSE(answer.is_ok());
    EXPECT_EQ(answer.status().code(), "PROCESSING_FAILED");
    EXPECT_EQ(answer.status().details(),
              (nlohmann::json{{"error_type", "timeout"}, {"retry_recommended", true}}));
    EXPECT_NE(answer.status().message().find("1 ms"), std::string::npos)
        << answer.status().message();
    // The translator goes while its pipelines are still starting.
  }
  for (const pid_t pid : children()) {
    EXPECT_NE(std::find(before.begin(), before.end(), pid), before.end())
        << pid << " (" << command_line(pid) << ") left behind after the translator went";
  }
}

TEST(ApertiumTranslator, ShutdownStopsEveryProgramAndLaterCallsFail) {
  SKIP_WITHOUT_APERTIUM();
  const std::vector<pid_t> before = children();
  const size_t descriptors_before = open_descriptors();
  ApertiumTranslator::Settings settings;
  settings.timeout_ms = 1;  // the call gives up at once; its pipelines go on starting
  ApertiumTranslator translator(settings);
  EXPECT_FALSE(translator.translate("Hello.", language("it")).is_ok());
  std::vector<pid_t> started;
  for (int wait = 0; wait < 100 && started.size() < 20; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    started.clear();
    for (const pid_t pid : children()) {
      if (std::find(before.begin(), before.end(), pid) == before.end()) started.push_back(pid);
    }
  }
  EXPECT_GE(started.size(), 20u) << "the eng-cat and cat-ita pipelines are starting";
  translator.shutdown();
  const std::vector<pid_t> after = children();
  for (const pid_t pid : started) {
    EXPECT_EQ(std::find(after.begin(), after.end(), pid), after.end()) << pid << " left behind";
  }
  EXPECT_EQ(open_descriptors(), descriptors_before) << "pipes left open";
  Result<TranslationAnswer> answer = translator.translate("Hello.", language("it"));
  ASSERT_FALSE(answer.is_ok());
  EXPECT_EQ(translation_error_type(answer.status()), "unavailable");
}

TEST(ApertiumTranslator, IdlePipelinesAreStoppedAndStartAgainWhenNeeded) {
  SKIP_WITHOUT_APERTIUM();
  const std::vector<pid_t> before = children();
  ApertiumTranslator::Settings settings = test_settings();
  settings.idle_stop_ms = 300;
  ApertiumTranslator translator(settings);
  const auto ours = [&] {
    std::vector<pid_t> found;
    for (const pid_t pid : children()) {
      if (std::find(before.begin(), before.end(), pid) == before.end()) found.push_back(pid);
    }
    return found;
  };
  for (int round = 0; round < 2; ++round) {
    Result<TranslationAnswer> answer = translator.translate("The house is big.", language("pt"));
    ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
    EXPECT_EQ(answer->text, "A casa é grande.");
    // At least cat-por's programs: eng-cat's may already be stopped when cat-por took more than
    // 300 ms longer to start.
    EXPECT_GE(ours().size(), 10u) << "the pipelines run";
    const auto start = Clock::now();
    while (!ours().empty() && ms_since(start) < 5000) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(ours().empty()) << "idle pipelines still running after " << ms_since(start)
                                << " ms";
  }
}

struct Expected {
  const char* english;
  std::vector<const char*> words;  // each must appear in the translation
};

// Destroyed at exit, which stops and collects its programs: left running, they would end when
// their input closes and wait as zombies for a parent that may never collect them.
ApertiumTranslator& shared_engine() {
  static ApertiumTranslator translator(test_settings());
  return translator;
}

// The first call of each language starts its pipelines (eng-cat once, for the first language).
void expect_translations(const char* code, const std::vector<Expected>& cases) {
  ApertiumTranslator& translator = shared_engine();
  bool first = true;
  double warm_total_ms = 0;
  for (const Expected& c : cases) {
    const auto start = Clock::now();
    Result<TranslationAnswer> answer = translator.translate(c.english, language(code));
    const double ms = ms_since(start);
    ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
    if (first) {
      std::printf("[ timing ] %s cold (pipelines start): %.0f ms\n", code, ms);
    } else {
      warm_total_ms += ms;
    }
    first = false;
    std::printf("[  text  ] %s: %s -> %s (confidence %.2f)\n", code, c.english,
                answer->text.c_str(), answer->confidence);
    for (const char* word : c.words) {
      EXPECT_NE(answer->text.find(word), std::string::npos)
          << c.english << " -> " << answer->text << " lacks " << word;
    }
    EXPECT_EQ(answer->engine, "apertium");
    EXPECT_GE(answer->confidence, 0.8) << c.english;
  }
  std::printf("[ timing ] %s warm: %.1f ms a sentence\n", code,
              warm_total_ms / static_cast<double>(cases.size() - 1));
}

// The engine tests share one translator, so the pipelines start once.
class ApertiumEngine : public ::testing::Test {
 protected:
  static ApertiumTranslator& engine() { return shared_engine(); }

  static TranslationAnswer translated(std::string_view text, const char* code) {
    Result<TranslationAnswer> answer = engine().translate(text, language(code));
    EXPECT_TRUE(answer.is_ok()) << answer.status().to_string();
    return answer.is_ok() ? *answer : TranslationAnswer{};
  }
};

TEST_F(ApertiumEngine, Spanish) {
  SKIP_WITHOUT_APERTIUM();
  expect_translations("es", {{"The house is big.", {"casa", "grande"}},
                             {"The children are reading a book.", {"niños", "libro"}},
                             {"I want to buy a new car.", {"Quiero", "comprar", "nuevo"}},
                             {"Thank you for your quick answer.", {"Gracias", "respuesta"}}});
}

TEST_F(ApertiumEngine, French) {
  SKIP_WITHOUT_APERTIUM();
  expect_translations("fr", {{"The house is big.", {"maison", "grande"}},
                             {"The children are reading a book.", {"enfants", "livre"}},
                             {"I want to buy a new car.", {"Je veux", "acheter"}},
                             {"The weather is good today.", {"aujourd'hui"}}});
}

TEST_F(ApertiumEngine, Portuguese) {
  SKIP_WITHOUT_APERTIUM();
  expect_translations("pt", {{"The house is big.", {"casa", "grande"}},
                             {"The children are reading a book.", {"livro"}},
                             {"I want to buy a new car.", {"Quero", "comprar"}},
                             {"Please send the report to the manager.", {"relatório"}}});
}

TEST_F(ApertiumEngine, Italian) {
  SKIP_WITHOUT_APERTIUM();
  expect_translations("it", {{"The house is big.", {"casa", "grande"}},
                             {"The children are reading a book.", {"bambini", "libro"}},
                             {"I want to buy a new car.", {"Voglio", "comprare", "nuovo"}},
                             {"Thank you for your quick answer.", {"Grazie", "risposta"}}});
}

TEST_F(ApertiumEngine, LineBreaksEmptyLinesAndIndentationAreKept) {
  SKIP_WITHOUT_APERTIUM();
  const TranslationAnswer answer =
      translated("The house is big.\n\n  The dog is small.\r\n\n\nThe car is red.  \n", "es");
  EXPECT_EQ(answer.text,
            "La casa es grande.\n\n  El perro es pequeño.\r\n\n\nEl carro es rojo.  \n")
      << answer.text;
}

TEST_F(ApertiumEngine, ReservedCharactersSurviveThePipes) {
  SKIP_WITHOUT_APERTIUM();
  const std::string reserved = "^ $ @ / < > [ ] { } \\ ~ * #";
  const TranslationAnswer answer = translated("The house " + reserved + " is big.", "es");
  EXPECT_NE(answer.text.find(reserved), std::string::npos) << answer.text;
  EXPECT_NE(answer.text.find("casa"), std::string::npos) << answer.text;
  const TranslationAnswer markup = translated("<b>house</b> ^house/casa<n>$ [house] {x}", "it");
  for (const char* kept : {"<b>", "</b>", "^", "/", "<n>$", "[", "]", "{x}"}) {
    EXPECT_NE(markup.text.find(kept), std::string::npos) << kept << " in " << markup.text;
  }
  const TranslationAnswer mail = translated("Write to bob@example.com today.", "fr");
  EXPECT_NE(mail.text.find("@"), std::string::npos) << mail.text;
}

TEST_F(ApertiumEngine, UnknownWordsPassThroughAndLowerTheConfidence) {
  SKIP_WITHOUT_APERTIUM();
  const TranslationAnswer answer = translated("The xyzzyq house is big.", "es");
  EXPECT_NE(answer.text.find("xyzzyq"), std::string::npos) << answer.text;
  EXPECT_EQ(answer.text.find('*'), std::string::npos) << "no unknown-word mark: " << answer.text;
  EXPECT_EQ(answer.unknown_words, 1);
  EXPECT_DOUBLE_EQ(answer.confidence, 0.8);  // 4 of 5 words known
  EXPECT_EQ(answer.route, "eng-cat|cat-spa");
}

TEST_F(ApertiumEngine, TextsWithoutWordsComeBackAsTheyWere) {
  SKIP_WITHOUT_APERTIUM();
  for (const char* text : {"", "\n\n", "  ", "...", "* * *\n---"}) {
    const TranslationAnswer answer = translated(text, "pt");
    EXPECT_EQ(answer.text, text);
    EXPECT_DOUBLE_EQ(answer.confidence, 1.0);
  }
}

TEST_F(ApertiumEngine, LongTextsAreTranslatedWhole) {
  SKIP_WITHOUT_APERTIUM();
  std::string text;
  for (int i = 0; i < 300; ++i) text += "The house is big. ";  // 5,400 bytes on one line
  text += "\nThe end.";
  const auto start = Clock::now();
  const TranslationAnswer answer = translated(text, "es");
  std::printf("[ timing ] es, 301 sentences (5.4 KB): %.0f ms\n", ms_since(start));
  size_t houses = 0;
  for (size_t at = answer.text.find("casa"); at != std::string::npos;
       at = answer.text.find("casa", at + 1)) {
    ++houses;
  }
  EXPECT_EQ(houses, 300u);
  EXPECT_NE(answer.text.find("\nEl final."), std::string::npos) << answer.text.substr(0, 200);
}

TEST_F(ApertiumEngine, ConcurrentCallsAllGetTheirOwnAnswers) {
  SKIP_WITHOUT_APERTIUM();
  const char* codes[] = {"es", "fr", "pt", "it"};
  const char* houses[] = {"casa", "maison", "casa", "casa"};
  for (const char* code : codes) translated("Hello.", code);  // started before the clock runs
  std::atomic<int> right{0};
  std::atomic<int> wrong{0};
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const int which = (t + i) % 4;
        // A number per call: an answer given to the wrong caller would carry another number.
        const std::string number = std::to_string(t * 1000 + i);
        Result<TranslationAnswer> answer = engine().translate(
            "The house " + number + " is big.\nLine two.", language(codes[which]));
        const bool ok = answer.is_ok() &&
                        answer->text.find(" " + number + " ") != std::string::npos &&
                        answer->text.find(houses[which]) != std::string::npos &&
                        answer->text.find('\n') != std::string::npos;
        (ok ? right : wrong)++;
        if (!ok) {
          ADD_FAILURE() << codes[which] << " " << number << ": "
                        << (answer.is_ok() ? answer->text : answer.status().to_string());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::printf("[ timing ] 8 threads x 20 calls over 4 languages: %.0f ms (%.1f ms a call)\n",
              ms_since(start), ms_since(start) / 160.0);
  EXPECT_EQ(right.load(), 160);
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(ApertiumEngine, AKilledPipelineIsReplaced) {
  SKIP_WITHOUT_APERTIUM();
  translated("Hello.", "es");
  // Kill the tagger of every eng-cat pipeline (all idle now): a program in the middle, whose
  // neighbours stay up for a while.
  std::vector<pid_t> killed;
  for (const pid_t pid : children()) {
    const std::string command = command_line(pid);
    if (command.find("apertium-tagger") != std::string::npos &&
        command.find("eng-cat.prob") != std::string::npos) {
      ASSERT_EQ(kill(pid, SIGKILL), 0);
      killed.push_back(pid);
    }
  }
  ASSERT_FALSE(killed.empty()) << "no eng-cat tagger among the children";
  for (int call = 0; call < 3; ++call) {
    const auto start = Clock::now();
    const TranslationAnswer answer = translated("The house is big.", "es");
    EXPECT_EQ(answer.text, "La casa es grande.");
    std::printf("[ timing ] call %d after killing %zu tagger(s): %.0f ms\n", call + 1,
                killed.size(), ms_since(start));
  }
  // The broken pipelines' programs are gone, collected, not left as zombies.
  const std::vector<pid_t> now = children();
  for (const pid_t pid : killed) {
    EXPECT_EQ(std::find(now.begin(), now.end(), pid), now.end()) << pid << " not collected";
  }
}

}  // namespace
}  // namespace opbase::ai

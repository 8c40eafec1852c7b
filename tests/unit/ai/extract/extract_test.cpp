// ai.extract's offline entity extractor: a labelled set scored per type (precision and recall
// printed and held above floors), each type's fields, code point offsets, the caller's names as
// output keys, empty arrays, type names, loading, and the time a 10 KB text takes.
// Data: $OPBASE_AI_DATA_DIR, else <build>/plugins-out/ai-data (written by extract_data_pack).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "ai_data_dir.hpp"
#include "extract/entity_extractor.hpp"
#include "extract/entity_type.hpp"

namespace opbase::ai {
namespace {

std::filesystem::path data_dir() { return test::ai_data_dir(); }

const std::vector<std::string> kAllTypes = {"email", "url",    "phone",    "date",
                                            "money", "person", "location", "organization"};

class ExtractTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto started = std::chrono::steady_clock::now();
    auto loaded = EntityExtractor::load(data_dir());
    ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
    std::printf("load: %.0f ms\n", std::chrono::duration<double, std::milli>(
                                       std::chrono::steady_clock::now() - started)
                                       .count());
    extractor_ = new std::shared_ptr<const EntityExtractor>(*loaded);
  }
  static void TearDownTestSuite() {
    delete extractor_;
    extractor_ = nullptr;
  }
  static ExtractAnswer run(std::string_view text,
                           const std::vector<std::string>& types = kAllTypes) {
    return (*extractor_)->extract(ExtractRequest{text, types});
  }
  // The one entity of `type` in `text`; fails the test unless there is exactly one.
  static nlohmann::json only(std::string_view text, const std::string& type) {
    const auto answer = run(text, {type});
    const auto& list = answer.output.at(type);
    EXPECT_EQ(list.size(), 1u) << text << "\n" << answer.output.dump(2);
    return list.empty() ? nlohmann::json::object() : list[0];
  }

  static std::shared_ptr<const EntityExtractor>* extractor_;
};

std::shared_ptr<const EntityExtractor>* ExtractTest::extractor_ = nullptr;

// ---- The labelled set -------------------------------------------------------------------------

struct Labelled {
  std::string text;
  std::vector<std::pair<std::string, std::string>> entities;  // type, exact text
};

// Sentences written for this test, labelled by hand the way a reader would, before the
// extractor was run on them: its misses stay in the scores.
const std::vector<Labelled>& labelled_set() {
  static const std::vector<Labelled> set = {
      {"Dr. Sarah Johnson joined Microsoft in Seattle on January 5, 2023.",
       {{"person", "Dr. Sarah Johnson"},
        {"organization", "Microsoft"},
        {"location", "Seattle"},
        {"date", "January 5, 2023"}}},
      {"Please email support@opbase.io or call (212) 555-0147 before Friday.",
       {{"email", "support@opbase.io"}, {"phone", "(212) 555-0147"}, {"date", "Friday"}}},
      {"Siemens AG reported revenue of €72 billion for the fiscal year, according to Reuters.",
       {{"organization", "Siemens AG"}, {"money", "€72 billion"}, {"organization", "Reuters"}}},
      {"Angela Merkel met Emmanuel Macron in Paris on 14 July 2019.",
       {{"person", "Angela Merkel"},
        {"person", "Emmanuel Macron"},
        {"location", "Paris"},
        {"date", "14 July 2019"}}},
      {"The startup raised $12.5 million from Sequoia Capital and Andreessen Horowitz last week.",
       {{"money", "$12.5 million"},
        {"organization", "Sequoia Capital"},
        {"organization", "Andreessen Horowitz"},
        {"date", "last week"}}},
      {"Visit https://www.example.org/docs?page=2 for details, or write to Mark Davis at "
       "mark.davis@example.org.",
       {{"url", "https://www.example.org/docs?page=2"},
        {"person", "Mark Davis"},
        {"email", "mark.davis@example.org"}}},
      {"Professor Alan Turing studied at the University of Cambridge in England.",
       {{"person", "Professor Alan Turing"},
        {"organization", "University of Cambridge"},
        {"location", "England"}}},
      {"Our office at 10 Downing Street in London can be reached on +44 20 7946 0018.",
       {{"location", "London"}, {"phone", "+44 20 7946 0018"}}},
      {"Goldman Sachs and JPMorgan Chase paid USD 3 billion in fines to the Federal Reserve.",
       {{"organization", "Goldman Sachs"},
        {"organization", "JPMorgan Chase"},
        {"money", "USD 3 billion"},
        {"organization", "Federal Reserve"}}},
      {"Maria Garcia flew from Madrid to Buenos Aires on 03/15/2024 with a ticket costing 850 "
       "euros.",
       {{"person", "Maria Garcia"},
        {"location", "Madrid"},
        {"location", "Buenos Aires"},
        {"date", "03/15/2024"},
        {"money", "850 euros"}}},
      {"Tim Cook, the chief executive of Apple Inc., spoke in Tokyo, Japan, yesterday.",
       {{"person", "Tim Cook"},
        {"organization", "Apple Inc."},
        {"location", "Tokyo"},
        {"location", "Japan"},
        {"date", "yesterday"}}},
      {"The Bank of America branch in Chicago will close on Mar. 31.",
       {{"organization", "Bank of America"}, {"location", "Chicago"}, {"date", "Mar. 31"}}},
      {"São Paulo and Rio de Janeiro are the largest cities in Brazil, said Mr. Pedro Alves.",
       {{"location", "São Paulo"},
        {"location", "Rio de Janeiro"},
        {"location", "Brazil"},
        {"person", "Mr. Pedro Alves"}}},
      {"Contact the Red Cross at info@redcross.org or visit www.redcross.org before December 1.",
       {{"organization", "Red Cross"},
        {"email", "info@redcross.org"},
        {"url", "www.redcross.org"},
        {"date", "December 1"}}},
      {"Toyota Motor Corporation plans to invest ¥500 billion in Texas and California by 2030.",
       {{"organization", "Toyota Motor Corporation"},
        {"money", "¥500 billion"},
        {"location", "Texas"},
        {"location", "California"}}},
      {"Elon Musk said Tesla would open a factory near Berlin, Germany, next year.",
       {{"person", "Elon Musk"},
        {"organization", "Tesla"},
        {"location", "Berlin"},
        {"location", "Germany"},
        {"date", "next year"}}},
      {"The World Health Organization warned on 2020-01-30 that the outbreak in China was an "
       "emergency.",
       {{"organization", "World Health Organization"},
        {"date", "2020-01-30"},
        {"location", "China"}}},
      {"Jennifer Lopez and Robert Smith donated £250,000 to Oxford University.",
       {{"person", "Jennifer Lopez"},
        {"person", "Robert Smith"},
        {"money", "£250,000"},
        {"organization", "Oxford University"}}},
      {"Call our Toronto office at 416-555-0199 or e-mail sales@northwind.ca today.",
       {{"location", "Toronto"},
        {"phone", "416-555-0199"},
        {"email", "sales@northwind.ca"},
        {"date", "today"}}},
      {"Stanford University researchers led by Dr. Wei Zhang published the study on Monday.",
       {{"organization", "Stanford University"}, {"person", "Dr. Wei Zhang"}, {"date", "Monday"}}},
      {"Shares of Deutsche Bank fell 5% in Frankfurt after the report on 21.02.2024.",
       {{"organization", "Deutsche Bank"}, {"location", "Frankfurt"}, {"date", "21.02.2024"}}},
      {"Nairobi, Kenya, hosted a summit where President William Ruto announced $1 billion in "
       "funding.",
       {{"location", "Nairobi"},
        {"location", "Kenya"},
        {"person", "President William Ruto"},
        {"money", "$1 billion"}}},
      {"Will Apple release a new phone in September? Analysts at Morgan Stanley expect so, and "
       "Mark expects a price near $999.",
       {{"organization", "Apple"}, {"organization", "Morgan Stanley"}, {"money", "$999"}}},
      {"Send the signed contract to legal@acme-corp.com by Tuesday, March 12, 2024, or fax it to "
       "+1 650 253 0000.",
       {{"email", "legal@acme-corp.com"},
        {"date", "Tuesday, March 12, 2024"},
        {"phone", "+1 650 253 0000"}}},
      {"In a statement, Chief Financial Officer Amy Hood said Microsoft Corporation expects "
       "growth in India and Brazil.",
       {{"person", "Amy Hood"},
        {"organization", "Microsoft Corporation"},
        {"location", "India"},
        {"location", "Brazil"}}},
      {"Jordan Peterson spoke in Victoria, British Columbia, on June 3.",
       {{"person", "Jordan Peterson"},
        {"location", "Victoria"},
        {"location", "British Columbia"},
        {"date", "June 3"}}},
      {"Apple pie sales rose 3% at Walmart stores across the Midwest, the company said on "
       "5/6/2023.",
       {{"organization", "Walmart"}, {"location", "Midwest"}, {"date", "5/6/2023"}}},
  };
  return set;
}

struct Score {
  int true_positives = 0;
  int false_positives = 0;
  int false_negatives = 0;
  double precision() const {
    const int found = true_positives + false_positives;
    return found == 0 ? 1.0 : static_cast<double>(true_positives) / found;
  }
  double recall() const {
    const int wanted = true_positives + false_negatives;
    return wanted == 0 ? 1.0 : static_cast<double>(true_positives) / wanted;
  }
};

TEST_F(ExtractTest, LabelledSetPrecisionAndRecallPerType) {
  ASSERT_GE(labelled_set().size(), 15u);
  std::map<std::string, Score> scores;
  for (const auto& sentence : labelled_set()) {
    const auto answer = run(sentence.text);
    std::multiset<std::pair<std::string, std::string>> gold(sentence.entities.begin(),
                                                            sentence.entities.end());
    for (const auto& type : kAllTypes) {
      for (const auto& entity : answer.output.at(type)) {
        const std::pair<std::string, std::string> found{type, entity.at("text")};
        const auto match = gold.find(found);
        if (match != gold.end()) {
          ++scores[type].true_positives;
          gold.erase(match);
        } else {
          ++scores[type].false_positives;
          std::printf("  extra  %-12s %s\n", type.c_str(), found.second.c_str());
        }
      }
    }
    for (const auto& [type, text] : gold) {
      ++scores[type].false_negatives;
      std::printf("  missed %-12s %s\n", type.c_str(), text.c_str());
    }
  }
  std::printf("%-13s %9s %7s %4s %4s %4s\n", "type", "precision", "recall", "tp", "fp", "fn");
  for (const auto& type : kAllTypes) {
    const Score& score = scores[type];
    std::printf("%-13s %9.2f %7.2f %4d %4d %4d\n", type.c_str(), score.precision(), score.recall(),
                score.true_positives, score.false_positives, score.false_negatives);
  }
  // Floors: the scanned types are near exact; names come from rules and lists, so lower.
  for (const char* type : {"email", "url", "phone", "date", "money"}) {
    EXPECT_GE(scores[type].precision(), 0.9) << type;
    EXPECT_GE(scores[type].recall(), 0.9) << type;
  }
  for (const char* type : {"person", "location", "organization"}) {
    EXPECT_GE(scores[type].precision(), 0.8) << type;
    EXPECT_GE(scores[type].recall(), 0.7) << type;
  }
}

// ---- Each type's fields -----------------------------------------------------------------------

TEST_F(ExtractTest, EmailHasLowerCaseValueAndDomain) {
  const auto email = only("Write to Jane.Doe+News@Mail.Example.COM today.", "email");
  EXPECT_EQ(email["text"], "Jane.Doe+News@Mail.Example.COM");
  EXPECT_EQ(email["value"], "jane.doe+news@mail.example.com");
  EXPECT_EQ(email["domain"], "mail.example.com");
  EXPECT_GT(email["confidence"].get<double>(), 0.9);
  EXPECT_TRUE(
      run("not an address: a@b, user@localhost, @example.com", {"email"}).output["email"].empty());
}

TEST_F(ExtractTest, UrlValueIsNormalisedAndLeavesSentencePunctuation) {
  const auto url = only("See (WWW.Example.com/Path?q=1).", "url");
  EXPECT_EQ(url["text"], "WWW.Example.com/Path?q=1");
  EXPECT_EQ(url["value"], "https://www.example.com/Path?q=1");
  const auto wiki = only("Read https://en.wikipedia.org/wiki/Bash_(Unix_shell), then stop.", "url");
  EXPECT_EQ(wiki["text"], "https://en.wikipedia.org/wiki/Bash_(Unix_shell)");
  const auto answer = run("Mail bob@www.example.com now.", {"url", "email"});
  EXPECT_TRUE(answer.output["url"].empty()) << "an e-mail's domain is not re-read as a URL";
  EXPECT_EQ(answer.output["email"].size(), 1u);
}

TEST_F(ExtractTest, PhoneValueIsE164AndRegionApplies) {
  EXPECT_EQ(only("Call (415) 555-2671 now", "phone")["value"], "+14155552671");
  EXPECT_EQ(only("Ring +33 1 42 68 53 00 in Paris", "phone")["value"], "+33142685300");
  const auto london = (*extractor_)->extract(ExtractRequest{"Ring 020 7946 0958", {"phone"}, "GB"});
  ASSERT_EQ(london.output["phone"].size(), 1u);
  EXPECT_EQ(london.output["phone"][0]["value"], "+442079460958");
  EXPECT_TRUE(run("Order 12345678 shipped on 2024-03-15.", {"phone"}).output["phone"].empty())
      << "order numbers and dates are not phone numbers";
}

TEST_F(ExtractTest, DatesAbsolutePartialAndRelative) {
  const std::vector<std::tuple<std::string, std::string, nlohmann::json>> cases = {
      {"2024-03-15", "absolute", "2024-03-15"},
      {"March 15, 2024", "absolute", "2024-03-15"},
      {"15 March 2024", "absolute", "2024-03-15"},
      {"15th of March, 2024", "absolute", "2024-03-15"},
      {"Friday, March 15, 2024", "absolute", "2024-03-15"},
      {"03/15/2024", "absolute", "2024-03-15"},  // month first with '/'
      {"15/03/2024", "absolute", "2024-03-15"},  // 15 cannot be a month: day first
      {"04/03/2024", "absolute", "2024-04-03"},  // both could be: month first
      {"04.03.2024", "absolute", "2024-03-04"},  // dots: day first
      {"3/15/24", "absolute", "2024-03-15"},
      {"Mar. 15", "partial", nullptr},
      {"March 2024", "partial", nullptr},
      {"today", "relative", nullptr},
      {"tomorrow", "relative", nullptr},
      {"next Friday", "relative", nullptr},
      {"Wednesday", "relative", nullptr},
  };
  for (const auto& [written, kind, value] : cases) {
    const auto date = only("We meet " + written + " at noon.", "date");
    EXPECT_EQ(date["text"], written);
    EXPECT_EQ(date["kind"], kind) << written;
    EXPECT_EQ(date["value"], value) << written;
  }
  EXPECT_TRUE(run("Version 1.2.3, 13/13/2024, February 30, 2023 and may we go?", {"date"})
                  .output["date"]
                  .empty());
}

TEST_F(ExtractTest, MoneyAmountsAndCurrencies) {
  const std::vector<std::tuple<std::string, double, std::string>> cases = {
      {"$5", 5, "USD"},
      {"$1,234.56", 1234.56, "USD"},
      {"$5 million", 5e6, "USD"},
      {"$2.5bn", 2.5e9, "USD"},
      {"$40k", 4e4, "USD"},
      {"€10", 10, "EUR"},
      {"10 €", 10, "EUR"},
      {"1.234,50 €", 1234.5, "EUR"},
      {"£3.50", 3.5, "GBP"},
      {"¥1000", 1000, "JPY"},
      {"USD 5", 5, "USD"},
      {"5 EUR", 5, "EUR"},
      {"CHF 2 billion", 2e9, "CHF"},
      {"US$ 7", 7, "USD"},
      {"20 dollars", 20, "USD"},
  };
  for (const auto& [written, amount, currency] : cases) {
    const auto money = only("It costs " + written + ", they said.", "money");
    EXPECT_EQ(money["text"], written);
    EXPECT_DOUBLE_EQ(money["amount"].get<double>(), amount) << written;
    EXPECT_EQ(money["currency"], currency) << written;
  }
  EXPECT_TRUE(only("a $5 million deal", "money")["amount"].is_number_integer());
  EXPECT_TRUE(
      run("5 pounds of flour, PHP 8, 7 apples and $ signs", {"money"}).output["money"].empty());
}

TEST_F(ExtractTest, PeopleWithTitlesFirstNamesAndSurnames) {
  const auto answer = run(
      "Dr. Jane Smith met John F. Kennedy and Ludwig van Beethoven. Later Smith left.", {"person"});
  const auto& people = answer.output["person"];
  ASSERT_EQ(people.size(), 4u) << people.dump(2);
  EXPECT_EQ(people[0]["text"], "Dr. Jane Smith");
  EXPECT_EQ(people[0]["name"], "Jane Smith");
  EXPECT_EQ(people[1]["name"], "John F. Kennedy");
  EXPECT_EQ(people[2]["name"], "Ludwig van Beethoven");
  EXPECT_EQ(people[3]["text"], "Smith");
  EXPECT_LT(people[3]["confidence"].get<double>(), people[0]["confidence"].get<double>());
  EXPECT_TRUE(run("Will it rain in May? Mark the date.", {"person"}).output["person"].empty());
  const auto founder = run("Henry Ford built Ford cars.", {"person", "organization"});
  ASSERT_EQ(founder.output["person"].size(), 1u) << founder.output.dump(2);
  EXPECT_EQ(founder.output["person"][0]["text"], "Henry Ford");
  ASSERT_EQ(founder.output["organization"].size(), 1u) << "the second Ford is the company";
  EXPECT_EQ(founder.output["organization"][0]["start"], 17);
}

TEST_F(ExtractTest, LocationsCarryKindAndCountryCode) {
  const auto answer =
      run("From Zurich to the USA, via Bavaria and New York; then Paris, France.", {"location"});
  const auto& places = answer.output["location"];
  ASSERT_EQ(places.size(), 6u) << places.dump(2);
  EXPECT_EQ(places[0]["text"], "Zurich");
  EXPECT_EQ(places[0]["name"], "Zürich");
  EXPECT_EQ(places[0]["kind"], "city");
  EXPECT_EQ(places[0]["country_code"], "CH");
  EXPECT_EQ(places[1]["name"], "United States");
  EXPECT_EQ(places[1]["kind"], "country");
  EXPECT_EQ(places[2]["kind"], "region");
  EXPECT_EQ(places[2]["country_code"], "DE");
  EXPECT_EQ(places[3]["text"], "New York");
  EXPECT_EQ(places[4]["country_code"], "FR");
  EXPECT_EQ(places[5]["kind"], "country");
  // "us" is a pronoun, "Reading" without a place word a gerund.
  EXPECT_TRUE(run("Tell us. Reading helps.", {"location"}).output["location"].empty());
  EXPECT_EQ(run("She moved to Reading.", {"location"}).output["location"].size(), 1u);
}

TEST_F(ExtractTest, OrganisationsBySuffixHeadAndList) {
  const auto answer = run(
      "Meanwhile Acme Widgets, Inc. hired staff from the Massachusetts Institute of Technology, "
      "Siemens AG and NASA, but not from nasa.",
      {"organization"});
  const auto& orgs = answer.output["organization"];
  ASSERT_EQ(orgs.size(), 4u) << orgs.dump(2);
  EXPECT_EQ(orgs[0]["text"], "Acme Widgets, Inc.");
  EXPECT_EQ(orgs[0]["name"], "Acme Widgets, Inc.");
  EXPECT_EQ(orgs[1]["text"], "Massachusetts Institute of Technology");
  EXPECT_EQ(orgs[2]["text"], "Siemens AG");
  EXPECT_EQ(orgs[3]["text"], "NASA");
}

// ---- Overlaps, offsets, keys ------------------------------------------------------------------

TEST_F(ExtractTest, OverlapsAreSettledOnce) {
  const auto answer =
      run("George Washington studied at the University of California, not in Washington.",
          {"person", "location", "organization"});
  ASSERT_EQ(answer.output["person"].size(), 1u) << answer.output.dump(2);
  EXPECT_EQ(answer.output["person"][0]["text"], "George Washington");
  ASSERT_EQ(answer.output["organization"].size(), 1u);
  EXPECT_EQ(answer.output["organization"][0]["text"], "University of California");
  ASSERT_EQ(answer.output["location"].size(), 1u) << "California is inside the organisation";
  EXPECT_EQ(answer.output["location"][0]["text"], "Washington");
}

TEST_F(ExtractTest, OffsetsCountCodePoints) {
  // "Grüße aus 日本 — " is 15 code points but 24 bytes; an emoji is one code point, four bytes.
  const std::string prefix =
      "Gr\xC3\xBC\xC3\x9F"
      "e aus \xE6\x97\xA5\xE6\x9C\xAC \xE2\x80\x94 ";
  const std::string text = prefix +
                           "Dr. Anna Weber \xF0\x9F\x98\x80 anna@example.de, $5 on 2024-03-15 in "
                           "Berlin, +1 415 555 2671.";
  const auto answer = run(text);
  const auto expect_at = [&](const std::string& type, size_t start, const std::string& written) {
    ASSERT_EQ(answer.output[type].size(), 1u) << type << answer.output.dump(2);
    const auto& entity = answer.output[type][0];
    EXPECT_EQ(entity["text"], written);
    EXPECT_EQ(entity["start"], start) << type;
    EXPECT_EQ(entity["end"], start + written.size()) << type;  // these entities are ASCII
  };
  expect_at("person", 15, "Dr. Anna Weber");
  expect_at("email", 32, "anna@example.de");
  expect_at("money", 49, "$5");
  expect_at("date", 55, "2024-03-15");
  expect_at("location", 69, "Berlin");
  expect_at("phone", 77, "+1 415 555 2671");
  const auto place = only("Caf\xC3\xA9 in S\xC3\xA3o Paulo", "location");
  EXPECT_EQ(place["start"], 8);
  EXPECT_EQ(place["end"], 17) << "São Paulo is 9 code points, 10 bytes";
}

TEST_F(ExtractTest, KeysAreTheNamesTheCallerWrote) {
  const auto answer =
      run("Mail ann@example.com, see www.example.com, meet Ann Lee in Oslo at Acme Ltd.",
          {"emails", "links", "people", "places", "companies", "phone_numbers", "amounts"});
  EXPECT_EQ(answer.output.size(), 7u);
  EXPECT_EQ(answer.output["emails"].size(), 1u);
  EXPECT_EQ(answer.output["links"].size(), 1u);
  EXPECT_EQ(answer.output["people"].size(), 1u);
  EXPECT_EQ(answer.output["places"].size(), 1u);
  EXPECT_EQ(answer.output["companies"].size(), 1u);
  EXPECT_TRUE(answer.output["phone_numbers"].is_array());
  EXPECT_TRUE(answer.output["phone_numbers"].empty());
  EXPECT_TRUE(answer.output["amounts"].empty());
  EXPECT_FALSE(answer.output.contains("email"));
  EXPECT_EQ(answer.entities_found, 5u);
  EXPECT_GT(answer.confidence, 0.5);
  EXPECT_LE(answer.confidence, 1.0);
}

TEST_F(ExtractTest, NothingFoundGivesEmptyArraysAndZeroConfidence) {
  const auto answer = run("the quick brown fox jumps over the lazy dog");
  ASSERT_EQ(answer.output.size(), kAllTypes.size());
  for (const auto& type : kAllTypes) {
    EXPECT_TRUE(answer.output[type].is_array()) << type;
    EXPECT_TRUE(answer.output[type].empty()) << type;
  }
  EXPECT_EQ(answer.entities_found, 0u);
  EXPECT_EQ(answer.confidence, 0.0);
  EXPECT_TRUE(run("", {"person"}).output["person"].empty());
}

TEST_F(ExtractTest, OnlyRequestedTypesAreAnswered) {
  const auto answer = run("Email a@example.com on 2024-03-15.", {"date"});
  EXPECT_EQ(answer.output.size(), 1u);
  EXPECT_EQ(answer.output["date"].size(), 1u);
  EXPECT_EQ(answer.entities_found, 1u);
  EXPECT_DOUBLE_EQ(answer.confidence, answer.output["date"][0]["confidence"].get<double>());
}

TEST_F(ExtractTest, ConcurrentCallsAgree) {
  const std::string text = labelled_set()[0].text + " " + labelled_set()[10].text;
  const auto expected = run(text).output;
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        if (run(text).output != expected) ++mismatches;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// ---- Names, loading, speed --------------------------------------------------------------------

TEST(EntityTypeNames, CanonicalNamesAndSynonyms) {
  EXPECT_EQ(entity_type_from_name("email"), EntityType::kEmail);
  EXPECT_EQ(entity_type_from_name(" Emails "), EntityType::kEmail);
  EXPECT_EQ(entity_type_from_name("links"), EntityType::kUrl);
  EXPECT_EQ(entity_type_from_name("PHONE_NUMBERS"), EntityType::kPhone);
  EXPECT_EQ(entity_type_from_name("currency"), EntityType::kMoney);
  EXPECT_EQ(entity_type_from_name("names"), EntityType::kPerson);
  EXPECT_EQ(entity_type_from_name("places"), EntityType::kLocation);
  EXPECT_EQ(entity_type_from_name("organisations"), EntityType::kOrganization);
  EXPECT_EQ(entity_type_from_name("orgs"), EntityType::kOrganization);
  EXPECT_FALSE(entity_type_from_name("colour").has_value());
  EXPECT_FALSE(entity_type_from_name("").has_value());
  const auto& names = canonical_entity_names();
  ASSERT_EQ(names.size(), 8u);
  for (const auto name : names) {
    const auto type = entity_type_from_name(name);
    ASSERT_TRUE(type.has_value()) << name;
    EXPECT_EQ(canonical_name(*type), name);
  }
}

TEST(EntityExtractorLoad, MissingDataIsAnInternalError) {
  const auto loaded = EntityExtractor::load("/nonexistent/ai-data");
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(loaded.status().code(), "INTERNAL_ERROR");
  EXPECT_NE(loaded.status().message().find("places.tsv"), std::string::npos);
}

TEST_F(ExtractTest, TenKilobytesTakeLittleTime) {
  std::string text;
  size_t at = 0;
  while (text.size() < 10 * 1024) {
    text += labelled_set()[at++ % labelled_set().size()].text;
    text += ' ';
  }
  const auto started = std::chrono::steady_clock::now();
  const auto answer = run(text);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::printf("10 KB text (%zu bytes): %zu entities in %.1f ms\n", text.size(),
              answer.entities_found, ms);
  EXPECT_GT(answer.entities_found, 100u);
}

}  // namespace
}  // namespace opbase::ai

// The offline ai.classify (plugins/ai/vectors/category_classifier): hit rates on obvious texts
// with the default categories and with categories a request names, the output's shape,
// confidences and threshold. Needs glove-6b-100d.bin in OPBASE_AI_DATA_DIR (default:
// <build>/plugins-out/ai-data).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ai_data_dir.hpp"
#include "vectors/category_classifier.hpp"
#include "vectors/text_embedder.hpp"

#ifndef OPBASE_TEST_BINARY_DIR
#define OPBASE_TEST_BINARY_DIR "."
#endif

namespace opbase::ai {
namespace {

namespace fs = std::filesystem;

fs::path data_dir() { return test::ai_data_dir(); }

const CategoryClassifier* classifier() {
  static const std::unique_ptr<const CategoryClassifier> shared = [] {
    auto loaded = TextEmbedder::load(data_dir());
    if (!loaded) {
      ADD_FAILURE() << loaded.status().to_string();
      return std::unique_ptr<const CategoryClassifier>();
    }
    return std::make_unique<const CategoryClassifier>(std::move(loaded).value());
  }();
  return shared.get();
}

struct Labelled {
  const char* text;
  const char* category;
};

// Obvious texts for the default categories, three each.
const std::vector<Labelled> kDefaultSet = {
    {"The company's quarterly revenue rose 12 percent and its shares gained on Wall Street.",
     "business"},
    {"The retailer plans to cut costs and expand into new markets after a weak year of sales.",
     "business"},
    {"Investors welcomed the merger of the two banks, which creates the largest lender.",
     "business"},
    {"The new smartphone has a faster processor and the update fixes a software bug.",
     "technology"},
    {"Engineers moved the database to cloud servers to make the web application scale.",
     "technology"},
    {"Hackers exploited a vulnerability in the operating system to steal passwords.", "technology"},
    {"The striker scored twice as the home team won the football match 3-1.", "sports"},
    {"She won the tennis tournament after beating the defending champion in three sets.", "sports"},
    {"The coach praised his players after a tough playoff game in the basketball league.",
     "sports"},
    {"The senator announced she will run for re-election as the campaign heats up.", "politics"},
    {"Parliament passed the budget bill after a heated debate between the parties.", "politics"},
    {"Voters head to the polls on Sunday to choose a new prime minister.", "politics"},
    {"The film premiered at the festival and its lead actress won praise from critics.",
     "entertainment"},
    {"The band released its new album and announced a world concert tour.", "entertainment"},
    {"The hit television series was renewed for another season by the streaming network.",
     "entertainment"},
    {"Patients with high blood pressure should take their medication and reduce salt.", "health"},
    {"The hospital opened a new clinic to treat diabetes and heart disease.", "health"},
    {"Doctors recommend regular exercise and sleep to lower the risk of illness.", "health"},
    {"Astronomers detected a distant galaxy using the new space telescope.", "science"},
    {"The researchers published a study on how genes control cell growth in mice.", "science"},
    {"Physicists measured the particle's mass in an experiment at the laboratory.", "science"},
    {"We booked a hotel near the beach and a cheap flight for our summer holiday.", "travel"},
    {"Tourists can visit the ancient temples and museums on a guided tour of the city.", "travel"},
    {"Pack your passport and luggage before heading to the airport for the trip abroad.", "travel"},
    {"Add the chopped onions and garlic to the pan and simmer the sauce for ten minutes.", "food"},
    {"This bakery makes the best chocolate cake and fresh bread in town.", "food"},
    {"The chef's menu features grilled fish, roasted vegetables and a lemon dessert.", "food"},
    {"The school hired more teachers to reduce class sizes for its pupils.", "education"},
    {"Students must submit their homework before the final exam at the end of the semester.",
     "education"},
    {"The university offers scholarships for graduate courses in mathematics.", "education"},
};

// Harder texts for the default categories: shorter, plainer or touching two topics (the label
// is the main one). Used to tune the temperature and printed; not asserted one by one.
const std::vector<Labelled> kHarderDefaultSet = {
    {"The startup raised money from venture capital firms to build its new app.", "business"},
    {"Ticket prices for the stadium rose again this year.", "sports"},
    {"The minister promised more money for hospitals and nurses.", "politics"},
    {"A new study links eating less sugar to a longer life.", "health"},
    {"The museum's exhibition on ancient Egypt drew large crowds.", "travel"},
    {"The documentary follows a chef who opened a restaurant in Paris.", "food"},
    {"Kids learn coding in after-school clubs.", "education"},
    {"The satellite launch was delayed by a problem with the rocket.", "science"},
    {"The singer's lawsuit against her record label goes to court next month.", "entertainment"},
    {"Online sales of electronics grew as shoppers avoided malls.", "business"},
    {"The airline cancelled hundreds of flights because of the storm.", "travel"},
    {"Teachers went on strike over pay.", "education"},
    {"The vaccine was approved after trials showed it prevents infection.", "health"},
    {"Robots are replacing workers in car factories.", "technology"},
    {"The election debate was watched by millions on television.", "politics"},
};

struct UserSet {
  std::vector<std::string> categories;
  std::vector<Labelled> texts;
};

// Texts for categories a request names.
const std::vector<UserSet> kUserSets = {
    {{"billing", "shipping", "returns"},
     {
         {"I was charged twice on my credit card for the same invoice.", "billing"},
         {"Why is there an extra fee on my monthly bill?", "billing"},
         {"Please update the payment method used for my subscription charges.", "billing"},
         {"My package has not arrived yet; can you tell me where the delivery is?", "shipping"},
         {"The courier says the parcel is stuck in transit at the warehouse.", "shipping"},
         {"How long does delivery take to Canada and what does postage cost?", "shipping"},
         {"I want to send back these shoes because they do not fit and get a refund.", "returns"},
         {"The blender arrived broken, how do I return it for an exchange?", "returns"},
         {"Can I get my money back if I return the jacket within 30 days?", "returns"},
         {"My receipt shows a payment I never authorised.", "billing"},
         {"The order was shipped last week but tracking shows no update.", "shipping"},
         {"What is your policy for returning unopened items to the store?", "returns"},
     }},
    {{"bug_report", "featureRequest", "praise"},
     {
         {"The app crashes with an error every time I open the settings page.", "bug_report"},
         {"Clicking save does nothing and the data is lost, this is broken.", "bug_report"},
         {"It would be great if you could add a dark mode option.", "featureRequest"},
         {"Please consider adding support for exporting reports to a spreadsheet.",
          "featureRequest"},
         {"Thank you, your team did a wonderful job, I love this product!", "praise"},
         {"Excellent service, the support staff were friendly and helpful.", "praise"},
         {"When I upload a photo the page freezes and shows an error message.", "bug_report"},
         {"Could you add an option to schedule posts for later?", "featureRequest"},
         {"Great update, everything works perfectly now. Well done!", "praise"},
     }},
    {{"weather", "traffic", "crime"},
     {
         {"Expect heavy snow and freezing temperatures tonight with strong winds.", "weather"},
         {"Sunny skies and warm afternoons are forecast for the weekend.", "weather"},
         {"A crash on the motorway has closed two lanes and caused long delays for drivers.",
          "traffic"},
         {"Commuters face congestion on the bridge during the evening rush hour.", "traffic"},
         {"Police arrested two men suspected of robbing a jewelry store.", "crime"},
         {"The suspect was charged with burglary and assault after the break-in.", "crime"},
     }},
};

double hit_rate(const std::vector<Labelled>& texts, const std::vector<std::string>& categories,
                std::vector<double>* correct_confidences) {
  int hits = 0;
  for (const Labelled& l : texts) {
    const nlohmann::json out = classifier()->classify({l.text, categories, 0.5});
    const bool hit = out["primary_classification"] == l.category;
    hits += hit;
    correct_confidences->push_back(out["confidence_scores"][l.category].get<double>());
    if (!hit) {
      std::printf("  miss: %s -> %s (%s)\n", l.text,
                  out["primary_classification"].get<std::string>().c_str(), l.category);
    }
  }
  return double(hits) / double(texts.size());
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return sum / double(v.size());
}

TEST(CategoryClassifier, FindsTheObviousDefaultCategory) {
  ASSERT_NE(classifier(), nullptr);
  std::vector<double> confidences;
  const double rate = hit_rate(kDefaultSet, {}, &confidences);
  std::printf(
      "default categories: %zu texts, hit rate %.3f, mean confidence of the right "
      "category %.3f\n",
      kDefaultSet.size(), rate, mean(confidences));
  EXPECT_GE(rate, 0.9);
  confidences.clear();
  const double harder = hit_rate(kHarderDefaultSet, {}, &confidences);
  std::printf("harder texts: %zu, hit rate %.3f, mean confidence of the right category %.3f\n",
              kHarderDefaultSet.size(), harder, mean(confidences));
  EXPECT_GE(harder, 0.6);
}

TEST(CategoryClassifier, FindsTheObviousRequestedCategory) {
  ASSERT_NE(classifier(), nullptr);
  std::vector<double> confidences;
  size_t texts = 0;
  double hits = 0;
  for (const UserSet& set : kUserSets) {
    hits += hit_rate(set.texts, set.categories, &confidences) * double(set.texts.size());
    texts += set.texts.size();
  }
  std::printf(
      "requested categories: %zu texts, hit rate %.3f, mean confidence of the right "
      "category %.3f\n",
      texts, hits / double(texts), mean(confidences));
  EXPECT_GE(hits / double(texts), 0.8);
}

double sum_of(const nlohmann::json& confidences) {
  double sum = 0;
  for (const auto& [name, value] : confidences.items()) sum += value.get<double>();
  return sum;
}

TEST(CategoryClassifier, AnswersTheSpecShape) {
  ASSERT_NE(classifier(), nullptr);
  const nlohmann::json out =
      classifier()->classify({"The striker scored twice in the final match.", {}, 0.5});
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out.size(), 4u) << out.dump();
  EXPECT_EQ(out["primary_classification"], "sports");
  EXPECT_TRUE(out["secondary_classifications"].is_array());
  ASSERT_TRUE(out["confidence_scores"].is_object());
  EXPECT_EQ(out["confidence_scores"].size(), 10u);
  for (const std::string& name : classifier()->default_categories()) {
    EXPECT_TRUE(out["confidence_scores"].contains(name)) << name;
  }
  EXPECT_NEAR(sum_of(out["confidence_scores"]), 1.0, 1e-9);
  ASSERT_TRUE(out["reasoning"].is_string());
  const std::string reasoning = out["reasoning"];
  std::printf("reasoning: %s\n", reasoning.c_str());
  EXPECT_NE(reasoning.find("\"sports\""), std::string::npos);
  EXPECT_TRUE(reasoning.find("\"striker\"") != std::string::npos ||
              reasoning.find("\"scored\"") != std::string::npos ||
              reasoning.find("\"match\"") != std::string::npos)
      << "names the words closest to the category";
  EXPECT_EQ(reasoning.find("\"the\""), std::string::npos) << "function words are not reasons";
}

TEST(CategoryClassifier, ConfidencesSumToOneForEveryText) {
  ASSERT_NE(classifier(), nullptr);
  for (const Labelled& l : kDefaultSet) {
    const nlohmann::json out = classifier()->classify({l.text, {}, 0.5});
    EXPECT_NEAR(sum_of(out["confidence_scores"]), 1.0, 1e-9) << l.text;
    for (const auto& [name, value] : out["confidence_scores"].items()) {
      EXPECT_GE(value.get<double>(), 0.0);
      EXPECT_LE(value.get<double>(), 1.0);
    }
  }
  for (const UserSet& set : kUserSets) {
    for (const Labelled& l : set.texts) {
      const nlohmann::json out = classifier()->classify({l.text, set.categories, 0.5});
      EXPECT_EQ(out["confidence_scores"].size(), set.categories.size());
      EXPECT_NEAR(sum_of(out["confidence_scores"]), 1.0, 1e-9) << l.text;
    }
  }
}

TEST(CategoryClassifier, ThresholdChoosesTheSecondaryCategories) {
  ASSERT_NE(classifier(), nullptr);
  const char* text = "The hospital's new cancer drug trial was funded by a biotech company.";
  const nlohmann::json all = classifier()->classify({text, {}, 0.0});
  EXPECT_EQ(all["secondary_classifications"].size(), 9u) << "at 0 every other category";
  // Most confident first.
  double previous = 2;
  for (const auto& name : all["secondary_classifications"]) {
    const double c = all["confidence_scores"][name.get<std::string>()];
    EXPECT_LE(c, previous);
    previous = c;
  }
  const nlohmann::json some = classifier()->classify({text, {}, 0.05});
  for (const auto& name : some["secondary_classifications"]) {
    EXPECT_GE(all["confidence_scores"][name.get<std::string>()].get<double>(), 0.05);
    EXPECT_NE(name, some["primary_classification"]);
  }
  std::printf("at 0.05: %s\n", some.dump().c_str());

  // Above every confidence: still a primary, no secondary, and the reasoning says so.
  const nlohmann::json none = classifier()->classify({text, {}, 1.0});
  EXPECT_EQ(none["primary_classification"], all["primary_classification"]);
  EXPECT_TRUE(none["secondary_classifications"].empty());
  const std::string reasoning = none["reasoning"];
  EXPECT_NE(reasoning.find("No category reached the 100% threshold"), std::string::npos)
      << reasoning;
}

TEST(CategoryClassifier, RequestedCategoriesAreSplitIntoWords) {
  EXPECT_EQ(category_words("order_status"), "order status");
  EXPECT_EQ(category_words("orderStatus"), "order Status");
  EXPECT_EQ(category_words("order-status"), "order status");
  EXPECT_EQ(category_words("HTTPError"), "HTTP Error");
  EXPECT_EQ(category_words("billing"), "billing");
  ASSERT_NE(classifier(), nullptr);
  // The same category however it is written.
  const char* text = "The parcel is stuck in transit at the warehouse.";
  const std::vector<double> a = classifier()->similarities(text, {"package_delivery", "refund"});
  const std::vector<double> b = classifier()->similarities(text, {"packageDelivery", "refund"});
  ASSERT_EQ(a.size(), 2u);
  EXPECT_DOUBLE_EQ(a[0], b[0]);
  EXPECT_GT(a[0], a[1]);
}

TEST(CategoryClassifier, RepeatedOrUnknownCategoriesAndTexts) {
  ASSERT_NE(classifier(), nullptr);
  const nlohmann::json twice =
      classifier()->classify({"Refund my order", {"returns", "shipping", "returns"}, 0.5});
  EXPECT_EQ(twice["confidence_scores"].size(), 2u) << "a repeated category counts once";

  const nlohmann::json unknown =
      classifier()->classify({"qwzxv plorkt", {"billing", "shipping", "returns"}, 0.5});
  EXPECT_EQ(unknown["primary_classification"], "billing") << "every score equal: the first";
  for (const auto& [name, value] : unknown["confidence_scores"].items()) {
    EXPECT_NEAR(value.get<double>(), 1.0 / 3, 1e-9);
  }
  EXPECT_NE(unknown["reasoning"].get<std::string>().find("vocabulary"), std::string::npos);

  // A category none of whose words is known scores 0 and cannot win against a real match.
  const nlohmann::json made_up =
      classifier()->classify({"The doctor treated the patient.", {"zzqxv", "health"}, 0.5});
  EXPECT_EQ(made_up["primary_classification"], "health");
}

TEST(CategoryClassifier, ClassifiesAKibibyteAndReportsTheTime) {
  ASSERT_NE(classifier(), nullptr);
  std::string text;
  for (size_t i = 0; text.size() < 1024; ++i) text += std::string(kDefaultSet[i].text) + " ";
  text.resize(1024);
  const int rounds = 200;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int i = 0; i < rounds; ++i) sink += classifier()->classify({text, {}, 0.5}).size();
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      rounds;
  std::printf("classify 1 KiB over the 10 default categories: %.0f us each\n", us);
  EXPECT_EQ(sink, size_t(rounds) * 4);
}

}  // namespace
}  // namespace opbase::ai

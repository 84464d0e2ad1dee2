// Replays tests/fuzz-regressions/: every input goes through the fuzzer's property
// (fuzz/classfile_property.h: parse; if it parses, the model is consistent and writeClass
// returns the input byte for byte) and must have the outcome recorded in
// tests/fuzz-regressions/expected.txt (accept or reject). Crashes and sanitizer reports
// show up as a failing (or aborted) test in the ASan build.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../../../fuzz/classfile_property.h"

namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(DRAGNET_SOURCE_DIR) / "tests" / "fuzz-regressions";
const char* const kManifest = "expected.txt";

bool isInput(const fs::path& p) {
  std::string name = p.filename().string();
  return fs::is_regular_file(p) && name != kManifest && name != "README.md" && name[0] != '.';
}

std::vector<std::string> inputFiles() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kDir, ec)) {
    if (isInput(entry.path())) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// file name -> "accept" / "reject"
std::map<std::string, std::string> expectations() {
  std::map<std::string, std::string> out;
  std::ifstream in(kDir / kManifest);
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string outcome, file;
    if (words >> outcome >> file) out[file] = outcome;
  }
  return out;
}

std::vector<uint8_t> readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(FuzzRegressions, DirectoryAndManifestAgree) {
  std::vector<std::string> files = inputFiles();
  ASSERT_GE(files.size(), 5u) << "expected regression inputs in " << kDir;
  std::map<std::string, std::string> expected = expectations();
  for (const std::string& f : files) {
    EXPECT_TRUE(expected.count(f)) << f << " has no line in " << kManifest;
  }
  for (const auto& [file, outcome] : expected) {
    EXPECT_TRUE(outcome == "accept" || outcome == "reject")
        << kManifest << ": unknown outcome '" << outcome << "' for " << file;
    EXPECT_TRUE(std::binary_search(files.begin(), files.end(), file))
        << kManifest << " lists " << file << ", which does not exist";
  }
}

class FuzzRegression : public testing::TestWithParam<std::string> {};

TEST_P(FuzzRegression, PropertyHoldsAndOutcomeMatches) {
  const std::string& name = GetParam();
  std::vector<uint8_t> bytes = readFile(kDir / name);
  dragnet::fuzz::PropertyResult r = dragnet::fuzz::checkClassFile(bytes);
  EXPECT_EQ(r.violation, "") << name;

  std::map<std::string, std::string> expected = expectations();
  auto it = expected.find(name);
  ASSERT_NE(it, expected.end()) << name << " has no line in " << kManifest;
  if (it->second == "reject") {
    EXPECT_FALSE(r.parsed) << name << " must be rejected, but it parses";
    if (!r.parsed) {
      EXPECT_NE(r.error, "") << name << ": rejected without a message";
    }
  } else {
    EXPECT_TRUE(r.parsed) << name << " must parse, but: " << r.error;
  }
}

std::string testName(const testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzRegression, testing::ValuesIn(inputFiles()), testName);

}  // namespace

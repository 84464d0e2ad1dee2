// Checks that a text report's header says what its JSON header says (the text renders it
// from the JSON header): every number in the text is a value of the JSON header, each
// labelled line shows its JSON values, and a header whose numbers are changed renders the
// changed numbers. Shared by the alloc (tests/report) and lifetime (tests/lifetime) tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "report/text_format.h"

namespace dragnet::test {

using HeaderJson = nlohmann::ordered_json;

// The kinds of profile the header tests cover, and their names in the tests' names.
enum class Kind { Exact, Sampled, Corrupt };
inline const auto kKinds = ::testing::Values(Kind::Exact, Kind::Sampled, Kind::Corrupt);
inline std::string kindName(const ::testing::TestParamInfo<Kind>& info) {
  switch (info.param) {
    case Kind::Exact:
      return "Exact";
    case Kind::Sampled:
      return "Sampled";
    case Kind::Corrupt:
      return "Corrupt";
  }
  return "";
}

// The numbers of a text, commas dropped: "1,800" -> "1800", "12.34" stays.
inline std::vector<std::string> numbersIn(const std::string& text) {
  static const std::regex kNumber("[0-9]+(,[0-9]{3})*(\\.[0-9]+)?");
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), kNumber), end; it != end; ++it) {
    std::string n = it->str();
    std::erase(n, ',');
    out.push_back(n);
  }
  return out;
}

// Every number the header holds, as the text may print it: integers in decimal, doubles
// rounded to an integer and to two decimals, and the numbers inside its strings.
inline void collectNumbers(const HeaderJson& j, std::set<std::string>& out) {
  if (j.is_structured()) {
    for (const auto& v : j) collectNumbers(v, out);
  } else if (j.is_number_integer()) {
    out.insert(j.dump());
  } else if (j.is_number_float()) {
    double d = j.get<double>();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", d);
    out.insert(buf);
    std::snprintf(buf, sizeof buf, "%.0f", std::floor(d + 0.5));
    out.insert(buf);
  } else if (j.is_string()) {
    for (auto& n : numbersIn(j.get<std::string>())) out.insert(n);
  }
}

inline void expectNumbersFromHeader(const std::string& text, const HeaderJson& h) {
  std::set<std::string> known;
  collectNumbers(h, known);
  for (const std::string& n : numbersIn(text)) {
    EXPECT_TRUE(known.contains(n)) << n << " is in the text header but not in the JSON header:\n"
                                   << text << h.dump(1);
  }
}

// `h` with every non-zero number made larger by a different multiple of a million (zeros
// and conditions kept, and the keys in `keep`), to see the text follow the JSON: no two
// numbers of the result are the same, or a sum of two small ones.
inline HeaderJson perturbed(HeaderJson h, const std::set<std::string>& keep, uint64_t& step) {
  for (auto it = h.begin(); it != h.end(); ++it) {
    if (h.is_object() && keep.contains(it.key())) continue;
    HeaderJson& v = it.value();
    if (v.is_structured()) {
      v = perturbed(v, keep, step);
    } else if (v.is_number_unsigned() && v.get<uint64_t>() != 0) {
      v = v.get<uint64_t>() + ++step * 1000000;
    } else if (v.is_number_float() && v.get<double>() != 0) {
      v = v.get<double>() + static_cast<double>(++step * 1000000);
    }
  }
  return h;
}

inline HeaderJson perturbed(const HeaderJson& h, const std::set<std::string>& keep) {
  uint64_t step = 0;
  return perturbed(h, keep, step);
}

// A number as the text prints it: "1,234,567".
inline std::string groupedNumber(uint64_t v) { return report::grouped(v); }

// The line of `text` that starts with `label` ("" if none).
inline std::string lineOf(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(label)) return line;
  }
  return "";
}

// Whether `line` holds `n` as a whole number (not as part of a longer one).
inline bool holdsNumber(const std::string& line, const std::string& n) {
  for (size_t at = line.find(n); at != std::string::npos; at = line.find(n, at + 1)) {
    auto digitish = [](char c) { return (c >= '0' && c <= '9') || c == ','; };
    bool before = at > 0 && digitish(line[at - 1]);
    bool after = at + n.size() < line.size() && digitish(line[at + n.size()]) &&
                 !(line[at + n.size()] == ',' &&
                   (at + n.size() + 1 >= line.size() || line[at + n.size() + 1] == ' '));
    if (!before && !after) return true;
  }
  return false;
}

// The line labelled `label` shows the header's value at each pointer (a number grouped,
// a double as "%.2f", a string as is, a string of digits as is or grouped); a missing, null, zero
// or false value is skipped (such lines or parts are left out of the text). Returns how many values
// it checked.
inline int expectLineShows(const std::string& text, const HeaderJson& h, const std::string& label,
                           const std::vector<std::string>& pointers) {
  int checked = 0;
  for (const std::string& ptr : pointers) {
    HeaderJson::json_pointer at(ptr);
    if (!h.contains(at)) continue;  // a key some profiles leave out ("corrupt")
    const HeaderJson& v = h.at(at);
    if (v.is_null() || v == 0 || v == "" || v.is_boolean()) continue;
    std::string line = lineOf(text, label);
    std::string shown;
    if (v.is_number_float()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", v.get<double>());
      shown = buf;
    } else if (v.is_number()) {
      shown = groupedNumber(v.get<uint64_t>());
    } else {
      shown = v.get<std::string>();
    }
    // A number the header carries as a string of digits (too large for a double).
    const bool digits = v.is_string() && shown.find_first_not_of("0123456789") == std::string::npos;
    bool found = v.is_string() && !digits
                     ? line.find(shown) != std::string::npos
                     : holdsNumber(line, shown) ||
                           (digits && holdsNumber(line, report::groupedDigits(shown)));
    EXPECT_TRUE(found) << ptr << " = " << shown << " not on the line \"" << label << "\": \""
                       << line << "\"\n"
                       << text;
    ++checked;
  }
  return checked;
}

}  // namespace dragnet::test

// The option tables (common/option_table.h) and what comes from them: every option of every
// table parses in every spelling, the help text lists each one, README.md's table lists
// exactly the tables' options with their defaults and flags, `dragnet run` has a flag for
// exactly the options marked for one, and the meta data carries the keys the reports read.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "agent/options.h"
#include "analyses/alloc/options.h"
#include "analyses/lifetime/options.h"
#include "cli/run_flags.h"

namespace {

using dragnet::agent::Options;
using dragnet::agent::optionTables;
using dragnet::agent::parseOptions;
using dragnet::options::Kind;
using dragnet::options::Spec;
using dragnet::options::Table;

// A mode that accepts the options of `t`.
std::string modeFor(const Table& t) {
  return std::string(t.modes.empty() ? dragnet::options::modes(optionTables()).front()
                                     : t.modes.front());
}

// A valid value of `s` and the number it parses to.
std::pair<std::string, uint64_t> example(const Spec& s) {
  switch (s.kind) {
    case Kind::Flag:
      return {"", 1};
    case Kind::OnOff:
      return {"yes", 1};
    case Kind::Number:
      return {"7", 7};
    case Kind::Size:
      return {"3k", 3072};
    case Kind::PowerOfTwo:
      return {"4K", 4096};
    case Kind::Percent:
      return {"30%", 30};
    case Kind::Choice:
      return {std::string(s.choices.back()), s.choices.size() - 1};
    case Kind::Mode:
      return {"lifetime", 1};
    case Kind::FilePattern:
      return {"x-%p.d", 0};
  }
  return {};
}

TEST(OptionTables, EveryOptionParsesInEverySpelling) {
  size_t parsedCount = 0;
  for (const Table* t : optionTables()) {
    for (const Spec& s : t->options) {
      std::vector<std::string_view> spellings{s.name};
      spellings.insert(spellings.end(), s.aliases.begin(), s.aliases.end());
      for (std::string_view spelling : spellings) {
        auto [value, number] = example(s);
        std::string item = std::string(spelling) + (s.kind == Kind::Flag ? "" : "=" + value);
        std::string text = s.kind == Kind::Mode ? item : "mode=" + modeFor(*t) + "," + item;
        Options o;
        std::string error;
        ASSERT_TRUE(parseOptions(text, o, error)) << text << ": " << error;
        const auto& v = o.values[s.name];
        EXPECT_TRUE(v.given) << text;
        EXPECT_EQ(v.spelling, spelling) << text;
        EXPECT_EQ(v.number, number) << text;
        if (!s.choices.empty() || s.kind == Kind::FilePattern) {
          EXPECT_EQ(v.text, value);
        }
        ++parsedCount;
      }
    }
  }
  EXPECT_GE(parsedCount, 18u);  // 11 common, 5 of lifetime, 2 old spellings
  // Every spelling of on and off.
  for (const char* on : {"on", "true", "yes", "1"}) {
    Options o;
    std::string error;
    ASSERT_TRUE(parseOptions(std::string("mode=lifetime,stacks=") + on, o, error)) << error;
    EXPECT_TRUE(dragnet::analyses::lifetime::optionValues(o.values).useContexts) << on;
  }
  for (const char* off : {"off", "false", "no", "0"}) {
    Options o;
    std::string error;
    ASSERT_TRUE(parseOptions(std::string("record=") + off, o, error)) << error;
    EXPECT_FALSE(o.record) << off;
  }
}

TEST(OptionTables, HelpListsEveryOption) {
  std::string help = dragnet::agent::optionHelp();
  for (const Table* t : optionTables()) {
    if (!t->title.empty() && !t->options.empty()) {
      EXPECT_NE(help.find("\n" + std::string(t->title) + ":\n"), std::string::npos) << t->title;
    }
    for (const Spec& s : t->options) {
      std::string head = "\n  " + std::string(s.name);
      std::string p = dragnet::options::placeholder(s, optionTables());
      if (!p.empty()) head += "=" + p;
      // A head too long for the column has its text on the next line.
      bool listed =
          help.find(head + " ") != std::string::npos || help.find(head + "\n") != std::string::npos;
      EXPECT_TRUE(listed) << head << "\n" << help;
      for (std::string_view alias : s.aliases) {
        EXPECT_NE(help.find("old name: " + std::string(alias)), std::string::npos) << alias;
      }
    }
  }
  EXPECT_NE(help.find("mode=alloc|lifetime"), std::string::npos) << help;
  std::string flat;  // the help with its lines joined
  for (char c : help) {
    if (c == ' ' || c == '\n') {
      if (!flat.ends_with(' ')) flat += ' ';
    } else {
      flat += c;
    }
  }
  EXPECT_NE(flat.find("lifetime: lifetimes of the sampled objects only"), std::string::npos);
  EXPECT_NE(flat.find("alloc: no rewriting"), std::string::npos);
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 90u) << line;
}

// The cells of README.md's table of agent options, backticks removed, "\|" as "|".
std::vector<std::vector<std::string>> readmeRows() {
  std::ifstream in(std::string(DRAGNET_SOURCE_DIR) + "/README.md");
  std::vector<std::vector<std::string>> rows;
  bool inTable = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("| agent option |")) {
      inTable = true;
      continue;
    }
    if (!inTable || line.starts_with("|---")) continue;
    if (!line.starts_with("|")) break;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell += '|';
        ++i;
      } else if (line[i] == '|') {
        size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
        cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        cell.clear();
      } else if (line[i] != '`') {
        cell += line[i];
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

TEST(OptionTables, ReadmeTableListsExactlyTheOptions) {
  auto rows = readmeRows();
  ASSERT_FALSE(rows.empty()) << "no '| agent option |' table in README.md";
  std::set<std::string> inReadme, inTables;
  for (const auto& r : rows) {
    ASSERT_GE(r.size(), 4u);
    std::string name = r[0].substr(0, r[0].find('='));
    inReadme.insert(name);
    const Spec* s = dragnet::options::find(optionTables(), name);
    ASSERT_NE(s, nullptr) << "README.md lists '" << name << "', which no table has";
    EXPECT_EQ(s->name, name) << "README.md lists an old spelling";
    std::string p = dragnet::options::placeholder(*s, optionTables());
    EXPECT_EQ(r[0], p.empty() ? name : name + "=" + p);
    EXPECT_EQ(r[2], dragnet::options::defaultText(*s, optionTables())) << name;
    if (s->flag.empty()) {
      EXPECT_TRUE(r[1].empty() || r[1].starts_with("--agent-opts")) << name << ": " << r[1];
    } else {
      std::string flags(s->flag);
      for (size_t c = 0; (c = flags.find(',', c)) != std::string::npos; c += 2) {
        flags.replace(c, 1, ", ");
      }
      EXPECT_EQ(r[1], flags) << name;
    }
  }
  for (const Table* t : optionTables()) {
    for (const Spec& s : t->options) inTables.insert(std::string(s.name));
  }
  EXPECT_EQ(inReadme, inTables);
}

TEST(OptionTables, RunFlagsAreExactlyTheMarkedOptions) {
  CLI::App app;
  CLI::App* run = app.add_subcommand("run");
  dragnet::cli::AgentFlags given;
  dragnet::cli::addAgentFlags(*run, given);
  std::set<std::string> shown, hidden, marked, aliases;
  for (const CLI::Option* o : run->get_options()) {
    if (o->get_name() == "--help") continue;
    std::string names;
    for (const auto& s : o->get_snames()) names += (names.empty() ? "-" : ",-") + s;
    for (const auto& l : o->get_lnames()) names += (names.empty() ? "--" : ",--") + l;
    (o->get_group().empty() ? hidden : shown).insert(names);
  }
  for (const Table* t : optionTables()) {
    for (const Spec& s : t->options) {
      if (s.flag.empty()) continue;
      marked.insert(std::string(s.flag));
      for (std::string_view a : s.aliases) aliases.insert("--" + std::string(a));
    }
  }
  EXPECT_EQ(shown, marked);
  EXPECT_EQ(hidden, aliases);
  EXPECT_TRUE(marked.contains("--site-frames") && marked.contains("--use-contexts"));
  EXPECT_TRUE(aliases.contains("--stack") && aliases.contains("--stacks"));

  // The flags, old spellings too, become the agent's options.
  app.parse("run --stack 4 --stacks --gc-budget 30 --mode lifetime -o x.dragnet", false);
  std::string text = dragnet::cli::agentOptionText(given, "OUT", "quiet=on");
  EXPECT_EQ(text, "out=OUT,gc-budget=30,mode=lifetime,site-frames=4,use-contexts=on,quiet=on");
  EXPECT_EQ(given["out"], "x.dragnet");
  Options o;
  std::string error;
  ASSERT_TRUE(parseOptions(text, o, error)) << error;
  auto l = dragnet::analyses::lifetime::optionValues(o.values);
  EXPECT_EQ(l.siteFrames, 4u);
  EXPECT_TRUE(l.useContexts);
  EXPECT_EQ(l.gcBudget, 30u);
}

// Mode alloc's caller-lines: off unless given, `dragnet run --caller-lines` turns it on, and
// the modes that do not take it refuse it.
TEST(OptionTables, CallerLinesIsModeAllocsAndOffByDefault) {
  Options o;
  std::string error;
  ASSERT_TRUE(parseOptions("mode=alloc", o, error)) << error;
  EXPECT_FALSE(dragnet::analyses::alloc::optionValues(o.values).callerLines);
  CLI::App app;
  CLI::App* run = app.add_subcommand("run");
  dragnet::cli::AgentFlags given;
  dragnet::cli::addAgentFlags(*run, given);
  app.parse("run --caller-lines", false);
  std::string text = dragnet::cli::agentOptionText(given, "", "");
  EXPECT_EQ(text, "caller-lines=on");
  Options on;
  ASSERT_TRUE(parseOptions(text, on, error)) << error;
  EXPECT_TRUE(dragnet::analyses::alloc::optionValues(on.values).callerLines);
  Options sampled;
  EXPECT_TRUE(parseOptions("sample=512k,caller-lines=on", sampled, error)) << error;
  Options lifetime;
  EXPECT_FALSE(parseOptions("mode=lifetime,caller-lines=on", lifetime, error));
  EXPECT_NE(error.find("caller-lines"), std::string::npos) << error;
}

TEST(OptionTables, MetaCarriesTheKeysTheReportsRead) {
  auto meta = [](const char* text) {
    Options o;
    std::string error;
    EXPECT_TRUE(parseOptions(text, o, error)) << error;
    return dragnet::agent::optionMeta(o);
  };
  using Meta = std::map<std::string, std::string>;
  EXPECT_EQ(meta(""),
            (Meta{{"mode", "alloc"}, {"bytecodes", "off"}, {"depth", "1024"}, {"record", "on"}}));
  EXPECT_EQ(meta("sample=64k,depth=3"), (Meta{{"mode", "alloc"},
                                              {"bytecodes", "off"},
                                              {"depth", "3"},
                                              {"record", "on"},
                                              {"sample", "65536"}}));
  EXPECT_EQ(meta("mode=lifetime,gc-interval=1m,site-frames=2,use-contexts=on"),
            (Meta{{"mode", "lifetime"},
                  {"bytecodes", "off"},
                  {"depth", "1024"},
                  {"record", "on"},
                  {"gc.interval", "1048576"},
                  {"gc.budget", "100"},
                  {"use.epoch", "65536"},
                  {"stacks", "on"},
                  {"stack", "2"}}));
  EXPECT_EQ(meta("mode=lifetime")["gc.budget"], "25");
}

}  // namespace

// Option tables: each option the agent takes is declared once, as a Spec in a table (the
// core's in agent/options.cpp, each analysis's in its own folder, listed by the registry).
// From them come the parser (typed values, errors naming the option), the help text, the
// profile's meta data, `dragnet run`'s flags; a unit test checks README.md's table against
// them. No JNI here: the agent and the dragnet command both use it.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dragnet::options {

enum class Kind : uint8_t {
  Flag,         // given without a value (help)
  OnOff,        // on|off (also true/false, yes/no, 1/0)
  Number,       // a number that fits 32 bits
  Size,         // bytes: a number with an optional k, m or g suffix, 1 to `max`
  PowerOfTwo,   // a Size that is a power of two
  Percent,      // 1 to 100, may end in %
  Choice,       // one of `choices`
  Mode,         // one of the modes the tables name (Table::modes)
  FilePattern,  // a file name in which %p is the pid and %% a %
};

struct Spec {
  std::string_view name = {};
  Kind kind = Kind::Flag;
  // The default as written (parsed like a given value); "off" for an option that is off
  // unless given (sample); empty for a flag, and for Kind::Mode (the first table's mode).
  std::string_view def = {};
  std::string_view help = {};   // what it does, one sentence or two (wrapped for help)
  std::string_view meta = {};   // its key in the profile's meta data; empty: not written
  std::string_view flag = {};   // `dragnet run`'s flag ("--sample", "-o,--output")
  std::string_view value = {};  // the value's placeholder; empty: the kind's (SIZE, N, ...)
  std::string_view note = {};   // said after the default ("0: no limit")
  std::vector<std::string_view> aliases = {};  // old spellings, accepted as the name
  std::vector<std::string_view> choices = {};  // Kind::Choice
  uint64_t max = uint64_t{2} << 30;            // Size, PowerOfTwo (JVMTI takes a jint)
};

// A parsed option.
struct Value {
  uint64_t number = 0;  // OnOff, Flag: 0 or 1; Choice: the choice's index
  std::string text;     // Choice, Mode, FilePattern
  bool set = false;     // has a value: given, or a default
  bool given = false;
  std::string spelling;  // the name as given (an alias, maybe), for messages
};

class Values;

struct Table {
  std::string_view title = {};               // the help text's heading of the group ("" = common)
  std::vector<std::string_view> modes = {};  // the modes that accept these options (none: all)
  std::string_view about = {};               // what the mode records (the mode option's help)
  std::vector<Spec> options = {};
  // What a common option means in these modes, added to its help: {name, text}.
  std::vector<std::pair<std::string_view, std::string_view>> notes = {};
  // After parsing, when the mode accepts this table: rules between options and defaults
  // that depend on other options. False with `error`.
  bool (*check)(Values& values, std::string& error) = nullptr;
  // How much larger the modes make the program's live heap at most (fields they add to its
  // objects): `dragnet run` raises the JVM's heap limit by it (--heap-factor). 1: none.
  double heapGrowth = 1.0;
};

using Tables = std::span<const Table* const>;

// The options of all tables, by name (aliases resolved), every one with its default.
class Values {
 public:
  // The value of option `name` (its name, not an alias); aborts on a name no table has,
  // a mistake every test that parses options finds.
  const Value& operator[](std::string_view name) const;
  Value& at(std::string_view name);
  bool on(std::string_view name) const { return (*this)[name].number != 0; }
  uint64_t number(std::string_view name) const { return (*this)[name].number; }
  const std::string& text(std::string_view name) const { return (*this)[name].text; }
  bool given(std::string_view name) const { return (*this)[name].given; }
  // The mode (the Kind::Mode option's value).
  const std::string& mode() const { return mode_; }

 private:
  friend bool parse(std::string_view, Tables, Values&, std::string&);
  std::map<std::string, Value, std::less<>> values_;
  std::string mode_;
};

// Parses "k=v,k=v" with the options of `tables` (tables[0] the common ones). False with
// `error` naming the offending option; an option of a table whose modes do not include the
// chosen mode is an error naming the modes that accept it.
bool parse(std::string_view text, Tables tables, Values& out, std::string& error);

// The option named `name` or one of its aliases, or null; `table` gets its table.
const Spec* find(Tables tables, std::string_view name, const Table** table = nullptr);

// Every mode the tables name, in order.
std::vector<std::string_view> modes(Tables tables);

// The value's placeholder as the help writes it after `name=` (empty for a flag).
std::string placeholder(const Spec& s, Tables tables);
// The default as the help and README say it: "1024 (0: no limit)", "off"; empty if none.
std::string defaultText(const Spec& s, Tables tables);
// The help of `s`: its text with the notes the tables add, and its default.
std::string describe(const Spec& s, Tables tables);

// The help text: `heading`, the common options, then each table's group.
std::string help(Tables tables, std::string_view heading);

// The meta data of the options with a meta key in the tables that accept values.mode():
// on/off, numbers in decimal, text as it is; options without a value are left out.
std::map<std::string, std::string> meta(Tables tables, const Values& values);

}  // namespace dragnet::options

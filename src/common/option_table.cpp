#include "common/option_table.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace dragnet::options {
namespace {

bool parseBool(std::string_view v, uint64_t& out) {
  if (v == "on" || v == "true" || v == "yes" || v == "1") return out = 1, true;
  if (v == "off" || v == "false" || v == "no" || v == "0") return out = 0, true;
  return false;
}

bool parseUint(std::string_view v, uint64_t& out) {
  uint32_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty()) return false;
  out = n;
  return true;
}

// A size in bytes: a number with an optional k, m or g suffix (powers of 1024), 1 to `max`.
bool parseSize(std::string_view v, uint64_t& out, uint64_t max) {
  uint64_t scale = 1;
  if (!v.empty()) {
    switch (v.back() | 0x20) {
      case 'k':
        scale = 1u << 10;
        break;
      case 'm':
        scale = 1u << 20;
        break;
      case 'g':
        scale = 1u << 30;
        break;
      default:
        break;
    }
    if (scale != 1) v.remove_suffix(1);
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty() || n == 0) return false;
  if (n > max / scale) return false;
  out = n * scale;
  return true;
}

// A size as written with the largest suffix that divides it: 2g, 64k, 1000.
std::string sizeText(uint64_t n) {
  for (auto [shift, suffix] : {std::pair{30, "g"}, {20, "m"}, {10, "k"}}) {
    if (n >= (uint64_t{1} << shift) && n % (uint64_t{1} << shift) == 0) {
      return std::to_string(n >> shift) + suffix;
    }
  }
  return std::to_string(n);
}

// "a, b or c" (`last` " or "), or with `last` "|" and `sep` "|": "a|b|c".
std::string joined(const std::vector<std::string_view>& words, std::string_view last,
                   std::string_view sep = ", ") {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) s.append(i + 1 == words.size() ? last : sep);
    s.append(words[i]);
  }
  return s;
}

// What a malformed value of `s` should have been ("expected ...").
std::string expected(const Spec& s, Tables tables) {
  uint64_t example = 0;
  bool hasExample = parseSize(s.def, example, s.max);
  switch (s.kind) {
    case Kind::Flag:
      return "expected no value";
    case Kind::OnOff:
      return "expected on or off";
    case Kind::Number: {
      std::string unit(s.value);
      std::transform(unit.begin(), unit.end(), unit.begin(), [](char c) { return c | 0x20; });
      return s.value.empty() || s.value == "N" ? "expected a number"
                                               : "expected a number of " + unit;
    }
    case Kind::Size:
      return "expected a size such as " + std::string(hasExample ? s.def : "512k") + " (1 to " +
             sizeText(s.max) + ")";
    case Kind::PowerOfTwo:
      return "expected a power of two such as " + std::string(hasExample ? s.def : "64k");
    case Kind::Percent:
      return "expected a percentage from 1 to 100";
    case Kind::Choice:
      return "expected " + joined(s.choices, " or ");
    case Kind::Mode:
      return "expected " + joined(modes(tables), " or ");
    case Kind::FilePattern:
      return "expected a file name";
  }
  return "expected a value";
}

// Parses `v` as a value of `s` into `out`; false with `error` if malformed.
bool parseValue(const Spec& s, Tables tables, std::string_view key, std::string_view v, Value& out,
                std::string& error) {
  auto bad = [&](const std::string& what) {
    error = "option '" + std::string(key) + "': " + what + ", got '" + std::string(v) + "'";
    return false;
  };
  uint64_t n = 0;
  switch (s.kind) {
    case Kind::Flag:
      return bad(expected(s, tables));
    case Kind::OnOff:
      if (!parseBool(v, n)) return bad(expected(s, tables));
      break;
    case Kind::Number:
      if (!parseUint(v, n)) return bad(expected(s, tables));
      break;
    case Kind::Size:
      if (!parseSize(v, n, s.max)) return bad(expected(s, tables));
      break;
    case Kind::PowerOfTwo:
      if (!parseSize(v, n, s.max) || (n & (n - 1)) != 0) return bad(expected(s, tables));
      break;
    case Kind::Percent: {
      std::string_view p = v;
      if (!p.empty() && p.back() == '%') p.remove_suffix(1);
      if (!parseUint(p, n) || n == 0 || n > 100) return bad(expected(s, tables));
      break;
    }
    case Kind::Choice:
    case Kind::Mode: {
      std::vector<std::string_view> choices = s.kind == Kind::Mode ? modes(tables) : s.choices;
      auto it = std::find(choices.begin(), choices.end(), v);
      if (it == choices.end()) return bad(expected(s, tables));
      n = it - choices.begin();
      break;
    }
    case Kind::FilePattern:
      if (v.empty()) return bad(expected(s, tables));
      for (size_t i = v.find('%'); i != std::string_view::npos; i = v.find('%', i + 2)) {
        if (i + 1 == v.size() || (v[i + 1] != 'p' && v[i + 1] != '%')) {
          return bad("expected a file name with %p (the pid) or %% only");
        }
      }
      break;
  }
  out.number = n;
  out.text = v;
  out.set = true;
  return true;
}

// The default mode: the first a table names.
std::string_view firstMode(Tables tables) {
  std::vector<std::string_view> all = modes(tables);
  return all.empty() ? std::string_view() : all.front();
}

bool accepts(const Table& t, std::string_view mode) {
  return t.modes.empty() || std::find(t.modes.begin(), t.modes.end(), mode) != t.modes.end();
}

// Every option with its default.
bool defaults(Tables tables, Values& out, std::string& error) {
  for (const Table* t : tables) {
    for (const Spec& s : t->options) {
      Value& v = out.at(s.name);
      v = Value{};
      v.spelling = s.name;
      std::string_view def = s.kind == Kind::Mode ? firstMode(tables) : s.def;
      bool unset = def.empty() || (def == "off" && s.kind != Kind::OnOff);
      if (!unset && !parseValue(s, tables, s.name, def, v, error)) return false;
    }
  }
  return true;
}

// An option given for a mode that does not accept it.
bool checkModes(Tables tables, const Values& values, std::string& error) {
  for (const Table* t : tables) {
    if (accepts(*t, values.mode())) continue;
    for (const Spec& s : t->options) {
      if (!values.given(s.name)) continue;
      error = "option '" + values[s.name].spelling + "' is accepted by mode " +
              joined(t->modes, " or ") + " only, not by mode " + values.mode();
      return false;
    }
  }
  return true;
}

// `text` wrapped to lines of at most `width` characters, each after `indent` spaces but the
// first (which continues the caller's line).
std::string wrapped(std::string_view text, size_t indent, size_t width) {
  std::string out;
  size_t column = indent;
  while (!text.empty()) {
    size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (column > indent && column + 1 + word.size() > width) {
      out.append("\n").append(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

void describeGroup(std::string& out, const Table& t, Tables tables) {
  constexpr size_t kColumn = 23, kWidth = 90;
  for (const Spec& s : t.options) {
    std::string head("  ");
    head.append(s.name);
    if (std::string p = placeholder(s, tables); !p.empty()) head.append("=").append(p);
    out += head;
    if (head.size() + 1 > kColumn) {
      out.append("\n").append(kColumn, ' ');
    } else {
      out += std::string(kColumn - head.size(), ' ');
    }
    out += wrapped(describe(s, tables), kColumn, kWidth) + "\n";
  }
}

}  // namespace

const Value& Values::operator[](std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    std::fprintf(stderr, "dragnet: internal error: no option '%.*s' in the tables\n",
                 static_cast<int>(name.size()), name.data());
    std::abort();
  }
  return it->second;
}

Value& Values::at(std::string_view name) {
  auto it = values_.find(name);
  if (it == values_.end()) it = values_.emplace(std::string(name), Value{}).first;
  return it->second;
}

const Spec* find(Tables tables, std::string_view name, const Table** table) {
  for (const Table* t : tables) {
    for (const Spec& s : t->options) {
      if (s.name == name ||
          std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end()) {
        if (table) *table = t;
        return &s;
      }
    }
  }
  return nullptr;
}

// Each mode once, in the tables' order (a table shared by several modes names them again).
std::vector<std::string_view> modes(Tables tables) {
  std::vector<std::string_view> out;
  for (const Table* t : tables) {
    for (std::string_view m : t->modes) {
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
  }
  return out;
}

std::string placeholder(const Spec& s, Tables tables) {
  if (!s.value.empty()) return std::string(s.value);
  switch (s.kind) {
    case Kind::Flag:
      return "";
    case Kind::OnOff:
      return "on|off";
    case Kind::Number:
      return "N";
    case Kind::Size:
    case Kind::PowerOfTwo:
      return "SIZE";
    case Kind::Percent:
      return "PERCENT";
    case Kind::Choice:
      return joined(s.choices, "|", "|");
    case Kind::Mode:
      return joined(modes(tables), "|", "|");
    case Kind::FilePattern:
      return "FILE";
  }
  return "";
}

std::string defaultText(const Spec& s, Tables tables) {
  std::string def(s.kind == Kind::Mode ? firstMode(tables) : s.def);
  if (def.empty() || s.note.empty()) return def;
  return def + " (" + std::string(s.note) + ")";
}

std::string describe(const Spec& s, Tables tables) {
  std::string text(s.help);
  if (s.kind == Kind::Mode) {
    for (const Table* t : tables) {
      for (std::string_view m : t->modes)
        text.append(" ").append(m).append(" = ").append(t->about).append(";");
    }
    text.pop_back();
  }
  for (const Table* t : tables) {
    for (const auto& [name, note] : t->notes) {
      if (name == s.name)
        text.append(" ").append(joined(t->modes, ", ")).append(": ").append(note).append(".");
    }
  }
  std::string def(s.kind == Kind::Mode ? firstMode(tables) : s.def);
  if (!def.empty()) {
    text.append(" (").append(def);
    if (!s.note.empty()) text.append("; ").append(s.note);
    if (!s.aliases.empty()) text.append("; old name: ").append(joined(s.aliases, ", "));
    text.append(")");
  }
  return text;
}

std::string help(Tables tables, std::string_view heading) {
  std::string out(heading);
  for (const Table* t : tables) {
    if (t->options.empty()) continue;
    if (!t->title.empty()) out.append("\n").append(t->title).append(":\n");
    describeGroup(out, *t, tables);
  }
  return out;
}

bool parse(std::string_view text, Tables tables, Values& out, std::string& error) {
  if (!defaults(tables, out, error)) return false;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    const Spec* s = find(tables, key);
    if (!s) {
      error = "unknown option '" + std::string(key) + "' (use help for the list)";
      return false;
    }
    Value& v = out.at(s->name);
    if (eq == std::string_view::npos) {
      if (s->kind != Kind::Flag) {
        error = "option '" + std::string(key) + "' needs a value (" + std::string(key) + "=...)";
        return false;
      }
      v.number = 1;
      v.set = true;
    } else if (!parseValue(*s, tables, key, item.substr(eq + 1), v, error)) {
      return false;
    }
    v.given = true;
    v.spelling = key;
  }
  for (const Table* t : tables) {
    for (const Spec& s : t->options) {
      if (s.kind == Kind::Mode) out.mode_ = out[s.name].text;
    }
  }
  if (!checkModes(tables, out, error)) return false;
  for (const Table* t : tables) {
    if (accepts(*t, out.mode()) && t->check && !t->check(out, error)) return false;
  }
  return true;
}

std::map<std::string, std::string> meta(Tables tables, const Values& values) {
  std::map<std::string, std::string> out;
  for (const Table* t : tables) {
    if (!accepts(*t, values.mode())) continue;
    for (const Spec& s : t->options) {
      const Value& v = values[s.name];
      if (s.meta.empty() || !v.set || s.kind == Kind::Flag) continue;
      switch (s.kind) {
        case Kind::OnOff:
          out[std::string(s.meta)] = v.number ? "on" : "off";
          break;
        case Kind::Choice:
        case Kind::Mode:
        case Kind::FilePattern:
          out[std::string(s.meta)] = v.text;
          break;
        default:
          out[std::string(s.meta)] = std::to_string(v.number);
      }
    }
  }
  return out;
}

}  // namespace dragnet::options

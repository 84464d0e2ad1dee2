// Names beyond ASCII end to end: a class written with the class-file library, whose methods
// are named with supplementary characters (U+1D518..., four bytes in UTF-8, a surrogate
// pair in the class file's modified UTF-8) and with an embedded NUL (C0 80 in the class
// file), and whose source file is named with supplementary characters too, is profiled by
// `dragnet run` in mode alloc and in mode lifetime. Every report format (text, json, html,
// collapsed, pprof), `dragnet export --sqlite` and `dragnet shell` (commands from stdin, an
// SQL query among them) must exit 0 and show each name as its exact UTF-8 bytes, the NUL as
// U+2400 (profile/text.h). The JSON, the HTML page's data, the pprof string table and the
// SQLite tables are read back, not searched as text.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../report/pprof_decode.h"
#include "classfile/class_file.h"
#include "classfile/mutf8.h"

namespace fs = std::filesystem;
namespace cf = dragnet::classfile;
using Json = nlohmann::json;

namespace {

// The names in UTF-8, written out byte by byte: what every output must hold exactly.
// "𝔘𝔫𝔦𝔠𝔬𝔡𝔢": U+1D518 U+1D52B U+1D526 U+1D520 U+1D52C U+1D521 U+1D522 (MATHEMATICAL
// FRAKTUR letters, which javac accepts in identifiers).
const std::string kFraktur =
    "\xF0\x9D\x94\x98\xF0\x9D\x94\xAB\xF0\x9D\x94\xA6\xF0\x9D\x94\xA0\xF0\x9D\x94\xAC"
    "\xF0\x9D\x94\xA1\xF0\x9D\x94\xA2";
// "nul", NUL, "name": in the class file "nul\xC0\x80name"; shown with U+2400 (E2 90 80).
const std::string kNulName("nul\0name", 8);
const std::string kNulShown = "nul\xE2\x90\x80name";
// The source file: "𝔘𝔫𝔦.java".
const std::string kSource = "\xF0\x9D\x94\x98\xF0\x9D\x94\xAB\xF0\x9D\x94\xA6.java";
const std::string kClass = "UnicodeNames";

fs::path work() {
  return fs::path(DRAGNET_BINARY_DIR) / "tests" / "unicode" / ("run-" + std::to_string(::getpid()));
}

std::string readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string shown(const std::string& utf8Name) {
  return utf8Name == kNulName ? kNulShown : utf8Name;
}

// ---- the class --------------------------------------------------------------------------

void op(cf::CodeAttr& c, cf::Op o, int32_t a = 0) {
  c.code.insns.push_back(cf::Insn{o, false, a, 0});
}
void cp(cf::CodeAttr& c, cf::Op o, cf::CpIndex i) { op(c, o, static_cast<int32_t>(cf::raw(i))); }

cf::CodeAttr& addMethod(cf::ClassFile& cls, std::string_view mutf8Name, std::string_view desc) {
  cf::Member m;
  m.access = 0x0009;  // public static
  m.name = cls.pool.addUtf8(mutf8Name);
  m.descriptor = cls.pool.addUtf8(desc);
  m.attributes.push_back(cf::Attribute{cls.pool.addUtf8("Code"), cf::CodeAttr{}});
  cls.methods.push_back(std::move(m));
  return *cls.methods.back().code();
}

// static void NAME() { FIELD = new int[length]; int x = FIELD[0]; }: an array that lives
// to the end of the run (mode lifetime: with a get), in a static field of its own.
void addAllocator(cf::ClassFile& cls, const std::string& utf8Name, const char* field,
                  int32_t length) {
  std::string name = cf::mutf8::fromUtf8(utf8Name);
  cf::Member f;
  f.access = 0x0009;
  f.name = cls.pool.addUtf8(field);
  f.descriptor = cls.pool.addUtf8("[I");
  cls.fields.push_back(std::move(f));
  cf::CodeAttr& c = addMethod(cls, name, "()V");
  op(c, cf::Op::ldc, static_cast<int32_t>(cf::raw(cls.pool.addInteger(length))));
  op(c, cf::Op::newarray, 10);  // T_INT
  op(c, cf::Op::dup);
  cp(c, cf::Op::putstatic, cls.pool.addFieldref(kClass, field, "[I"));
  op(c, cf::Op::iconst_0);
  op(c, cf::Op::iaload);
  op(c, cf::Op::pop);
  op(c, cf::Op::return_);
  c.maxStack = 3;
}

// UnicodeNames.main calls the two allocators, then allocates 16 MB that die at once, so that
// the arrays' lifetimes (their space: lifetime x size) rank them first in mode lifetime.
std::vector<uint8_t> unicodeNamesClass() {
  cf::ClassFile cls;
  cls.major = 52;
  cls.access = 0x0021;
  cls.thisClass = cls.pool.addClass(kClass);
  cls.superClass = cls.pool.addClass("java/lang/Object");
  addAllocator(cls, kFraktur, "a", 1000000);
  addAllocator(cls, kNulName, "b", 2000000);
  cf::CodeAttr& main = addMethod(cls, "main", "([Ljava/lang/String;)V");
  cp(main, cf::Op::invokestatic,
     cls.pool.addMethodref(kClass, cf::mutf8::fromUtf8(kFraktur), "()V"));
  cp(main, cf::Op::invokestatic,
     cls.pool.addMethodref(kClass, cf::mutf8::fromUtf8(kNulName), "()V"));
  op(main, cf::Op::ldc, static_cast<int32_t>(cf::raw(cls.pool.addInteger(16 << 20))));
  op(main, cf::Op::newarray, 8);  // T_BYTE
  op(main, cf::Op::pop);
  op(main, cf::Op::return_);
  main.maxStack = 1;
  main.maxLocals = 1;
  cls.attributes.push_back(
      cf::Attribute{cls.pool.addUtf8("SourceFile"),
                    cf::SourceFileAttr{cls.pool.addUtf8(cf::mutf8::fromUtf8(kSource))}});
  auto bytes = cf::writeClass(cls);
  if (!bytes) ADD_FAILURE() << bytes.error().message;
  return bytes ? std::move(bytes.value()) : std::vector<uint8_t>{};
}

// ---- running dragnet --------------------------------------------------------------------

// Runs a shell command; its exit status (-1 if it did not exit normally).
int run(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// (append, not operator+: GCC 12 reports a false -Wrestrict for the latter.)
std::string q(const fs::path& p) { return std::string("'").append(p.string()).append("'"); }

// `dragnet ARGS > out 2> err`: the exit status, with stdout in `out`.
int dragnet(const std::string& args, std::string& out, const std::string& stdinFile = "") {
  static int n = 0;
  fs::path o = work() / ("out-" + std::to_string(++n)), e = work() / ("err-" + std::to_string(n));
  std::string cmd = std::string(DRAGNET_CLI) + " " + args + " > " + q(o) + " 2> " + q(e);
  if (!stdinFile.empty()) cmd += " < " + q(stdinFile);
  int rc = run(cmd);
  out = readFile(o);
  if (rc != 0) ADD_FAILURE() << cmd << " exited " << rc << "\n" << readFile(e);
  return rc;
}

// Both profiles, recorded once for all tests.
class UnicodeNames : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::create_directories(work() / "classes");
    std::vector<uint8_t> bytes = unicodeNamesClass();
    std::ofstream(work() / "classes" / "UnicodeNames.class", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    for (const char* mode : {"alloc", "lifetime"}) {
      std::string out;
      dragnet(std::string("run --mode ") + mode + " -o " + q(profile(mode)) + " -- java -cp " +
                  q(work() / "classes") + " " + kClass,
              out);
    }
  }
  static fs::path profile(const std::string& mode) { return work() / (mode + ".dragnet"); }

  // `dragnet report` of the mode's profile in `format`; stdout, or the file of `-o`.
  static std::string report(const std::string& mode, const std::string& format) {
    std::string out;
    fs::path file = work() / (mode + "." + format);
    EXPECT_EQ(dragnet("report -f " + format + " -o " + q(file) + " " + q(profile(mode)), out), 0);
    return readFile(file);
  }
};

// No modified UTF-8 left over (a surrogate's 3-byte form starts ED A0..ED BF), no NUL byte.
void expectNoRawBytes(const std::string& s) {
  EXPECT_EQ(s.find('\0'), std::string::npos);
  for (size_t i = s.find('\xED'); i != std::string::npos; i = s.find('\xED', i + 1)) {
    ASSERT_LT(i + 1, s.size());
    EXPECT_LT(static_cast<uint8_t>(s[i + 1]), 0xA0) << "a surrogate at byte " << i;
  }
}

// "UnicodeNames.NAME(SOURCE)": the alloc reports' frame of an allocating method.
std::string frame(const std::string& name) {
  return kClass + "." + shown(name) + "(" + kSource + ")";
}

// The JSON embedded in an HTML page (report.html's profile-data element).
Json pageData(const std::string& html) {
  const std::string open = "id=\"profile-data\">";
  size_t a = html.find(open);
  size_t b = html.find("</script>", a);
  if (a == std::string::npos || b == std::string::npos) return Json();
  return Json::parse(html.substr(a + open.size(), b - a - open.size()));
}

// Every string of a JSON value, recursively.
void strings(const Json& j, std::set<std::string>& out) {
  if (j.is_string()) out.insert(j.get<std::string>());
  if (j.is_structured()) {
    for (const Json& v : j) strings(v, out);
  }
}

bool anyContains(const std::set<std::string>& all, const std::string& part) {
  for (const std::string& s : all) {
    if (s.find(part) != std::string::npos) return true;
  }
  return false;
}

// ---- alloc ------------------------------------------------------------------------------

TEST_F(UnicodeNames, AllocText) {
  std::string text = report("alloc", "text");
  expectNoRawBytes(text);
  for (const std::string& name : {kFraktur, kNulName}) {
    EXPECT_NE(text.find(frame(name)), std::string::npos) << frame(name) << "\n" << text;
  }
}

TEST_F(UnicodeNames, AllocJson) {
  Json j = Json::parse(report("alloc", "json"));
  std::set<std::string> top;
  for (const Json& row : j["sites"]) {
    if (row["type"] == "int[]") top.insert(row["frames"][0].get<std::string>());
  }
  EXPECT_TRUE(top.contains(frame(kFraktur)));
  EXPECT_TRUE(top.contains(frame(kNulName)));
}

TEST_F(UnicodeNames, AllocHtml) {
  std::string html = report("alloc", "html");
  Json data = pageData(html);
  ASSERT_TRUE(data.is_object());
  std::set<std::string> all;
  strings(data["tree"]["strings"], all);
  EXPECT_TRUE(all.contains(kClass + "." + kFraktur));
  EXPECT_TRUE(all.contains(kClass + "." + kNulShown));
  EXPECT_TRUE(all.contains(kSource));
  std::set<std::string> sites;
  for (const Json& row : data["sitesByBytes"]) sites.insert(row[0].get<std::string>());
  EXPECT_TRUE(sites.contains(frame(kFraktur)));
  EXPECT_TRUE(sites.contains(frame(kNulName)));
}

TEST_F(UnicodeNames, AllocCollapsed) {
  std::string lines = report("alloc", "collapsed");
  expectNoRawBytes(lines);
  for (const std::string& name : {kFraktur, kNulName}) {
    std::string part = std::string(";").append(frame(name)).append(";int[] ");
    EXPECT_NE(lines.find(part), std::string::npos) << lines;
  }
}

// The pprof file's string table (Profile field 6).
std::vector<std::string> pprofStrings(const std::string& gz) {
  namespace pprof = dragnet::test::pprof;
  std::vector<std::string> table;
  pprof::Message m = pprof::decode(pprof::gunzip(gz));
  for (auto [it, end] = m.equal_range(6); it != end; ++it) table.push_back(it->second.bytes);
  return table;
}

TEST_F(UnicodeNames, AllocPprof) {
  std::vector<std::string> table = pprofStrings(report("alloc", "pprof"));
  std::set<std::string> all(table.begin(), table.end());
  EXPECT_TRUE(all.contains(kClass + "." + kFraktur));
  EXPECT_TRUE(all.contains(kClass + "." + kNulShown));
  EXPECT_TRUE(all.contains(kClass + "." + kNulShown + "()V"));  // the system name
  EXPECT_TRUE(all.contains(kSource));
}

// ---- lifetime ---------------------------------------------------------------------------

TEST_F(UnicodeNames, LifetimeText) {
  std::string text = report("lifetime", "text");
  expectNoRawBytes(text);
  for (const std::string& name : {kFraktur, kNulName}) {
    EXPECT_NE(text.find(kClass + "." + shown(name) + "("), std::string::npos) << text;
  }
}

TEST_F(UnicodeNames, LifetimeJson) {
  Json j = Json::parse(report("lifetime", "json"));
  std::set<std::string> methods;
  for (const Json& m : j["methods"]) methods.insert(m["name"].get<std::string>());
  EXPECT_TRUE(anyContains(methods, kClass + "." + kFraktur + "(")) << j["methods"].dump();
  EXPECT_TRUE(anyContains(methods, kClass + "." + kNulShown + "("));
}

TEST_F(UnicodeNames, LifetimeHtml) {
  Json data = pageData(report("lifetime", "html"));
  ASSERT_TRUE(data.is_object());
  std::set<std::string> all;
  strings(data, all);
  EXPECT_TRUE(anyContains(all, kClass + "." + kFraktur));
  EXPECT_TRUE(anyContains(all, kClass + "." + kNulShown));
}

TEST_F(UnicodeNames, SqliteExport) {
  fs::path db = work() / "lifetime.db";
  std::string out;
  ASSERT_EQ(dragnet("export --sqlite " + q(db) + " " + q(profile("lifetime")), out), 0);
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(h, "SELECT method_name, source FROM methods WHERE class_name = ?",
                               -1, &s, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(s, 1, kClass.c_str(), -1, SQLITE_STATIC);
  std::set<std::string> names, sources;
  while (sqlite3_step(s) == SQLITE_ROW) {
    // With the byte counts: a NUL inside the text would show here, not cut it short.
    names.emplace(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)),
                  static_cast<size_t>(sqlite3_column_bytes(s, 0)));
    sources.emplace(reinterpret_cast<const char*>(sqlite3_column_text(s, 1)),
                    static_cast<size_t>(sqlite3_column_bytes(s, 1)));
  }
  sqlite3_finalize(s);
  sqlite3_close(h);
  // main allocates too (the 16 MB that die at once).
  EXPECT_EQ(names, (std::set<std::string>{kFraktur, kNulShown, "main"}));
  EXPECT_EQ(sources, std::set<std::string>{kSource});
}

TEST_F(UnicodeNames, Shell) {
  fs::path commands = work() / "commands.txt";
  std::ofstream(commands)
      << "stat\n"
      << "lag method\n"
      << "void method\n"
      << "method 1\n"
      << "sql SELECT '<' || method_name || '>' FROM methods WHERE class_name = '" << kClass
      << "' ORDER BY method_name\n"
      << "sql SELECT 'found ' || COUNT(*) FROM methods WHERE method_name = '" << kFraktur << "'\n"
      << "sql SELECT method_name, LENGTH(method_name) AS n FROM methods WHERE class_name = '"
      << kClass << "' ORDER BY method_name\n"
      << "exit\n";
  std::string out;
  ASSERT_EQ(dragnet("shell " + q(profile("lifetime")), out, commands.string()), 0);
  expectNoRawBytes(out);
  EXPECT_NE(out.find(kClass + "." + kFraktur + "("), std::string::npos) << out;
  EXPECT_NE(out.find(kClass + "." + kNulShown + "("), std::string::npos) << out;
  // The query's rows, in SQLite's byte order of the names: "n" < U+1D518's F0.
  size_t a = out.find("<" + kNulShown + ">"), b = out.find("<" + kFraktur + ">");
  EXPECT_NE(a, std::string::npos) << out;
  EXPECT_NE(b, std::string::npos) << out;
  EXPECT_LT(a, b);
  EXPECT_NE(out.find("found 1"), std::string::npos) << out;  // the typed name matches
  // The last table: SQLite counts the names' characters (U+2400 is one), and the columns
  // line up on a terminal: every line as many characters wide, the names padded to the
  // title's 11.
  size_t table = out.rfind("method_name");
  ASSERT_NE(table, std::string::npos);
  std::istringstream lines(out.substr(out.rfind('\n', table) + 1));
  std::vector<std::string> rows;
  for (std::string l; std::getline(lines, l) && !l.starts_with("(");) rows.push_back(l);
  auto characters = [](const std::string& l) {
    return std::count_if(l.begin(), l.end(), [](char c) { return (c & 0xC0) != 0x80; });
  };
  ASSERT_EQ(rows.size(), 5u) << out;  // titles, rule, main, nul␀name, the Fraktur name
  EXPECT_EQ(rows[3], "  " + kNulShown + std::string(5, ' ') + "8") << out;
  EXPECT_EQ(rows[4], "  " + kFraktur + std::string(6, ' ') + "7") << out;
  for (const std::string& r : rows) EXPECT_EQ(characters(r), characters(rows[0])) << r;
}

// Removes the run's files at the end unless a test failed (they show what went wrong).
class CleanUp : public ::testing::Environment {
 public:
  void TearDown() override {
    if (::testing::UnitTest::GetInstance()->Passed()) fs::remove_all(work());
  }
};
[[maybe_unused]] const auto* const kCleanUp = ::testing::AddGlobalTestEnvironment(new CleanUp);

}  // namespace

// Implementation of tests/e2e_hard/hard_cases.h (the hard-case tests' Java runner, probe
// bookkeeping and bytecode assembler).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "../../agent/newest_jdk.h"
#include "../../e2e_hard/hard_cases.h"
#include "instrument/stack_effect.h"

namespace dragnet::test::hard {

namespace fs = std::filesystem;
using cf::Op;

namespace {

const fs::path kHardDir = fs::path(DRAGNET_SOURCE_DIR) / "tests" / "e2e_hard";
const fs::path kWorkDir = fs::path(DRAGNET_BINARY_DIR) / "tests" / "hard-cases";

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

std::string readText(const fs::path& p) {
  Bytes b = readFile(p.string());
  return std::string(b.begin(), b.end());
}

int shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  if (rc == -1) return -1;
  if (WIFEXITED(rc)) return WEXITSTATUS(rc);
  return 128 + (WIFSIGNALED(rc) ? WTERMSIG(rc) : 0);
}

JavaTools findJdk(const std::vector<std::string>& homes, bool allowPath) {
  for (const std::string& h : homes) {
    fs::path bin = fs::path(h) / "bin";
    if (fs::exists(bin / "javac") && fs::exists(bin / "java")) {
      return {(bin / "javac").string(), (bin / "java").string()};
    }
  }
  if (allowPath && shell("javac -version > /dev/null 2>&1") == 0 &&
      shell("java -version > /dev/null 2>&1") == 0) {
    return {"javac", "java"};
  }
  return {};
}

// FNV-1a.
class Hash {
 public:
  void mix(std::string_view s) {
    for (unsigned char c : s) {
      h_ ^= c;
      h_ *= 1099511628211ull;
    }
    h_ ^= 0xFF;
    h_ *= 1099511628211ull;
  }
  std::string hex() const { return str(std::hex, h_); }

 private:
  uint64_t h_ = 1469598103934665603ull;
};

}  // namespace

// ---- Java tools ---------------------------------------------------------------------------

const JavaTools& jdk17() {
  static const JavaTools t =
      findJdk({"/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-17-openjdk"}, true);
  return t;
}

const JavaTools& jdk25() {
  static const JavaTools t = [] {
    JdkHome newest = newestJdk(25);
    return newest.home.empty() ? JavaTools{} : findJdk({newest.home}, false);
  }();
  return t;
}

std::vector<SourceFile> sourcesIn(const std::string& dir) {
  std::vector<SourceFile> files;
  fs::path root = kHardDir / dir;
  if (!fs::is_directory(root)) return files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".java") {
      files.push_back({fs::relative(e.path(), root).generic_string(), readText(e.path())});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return files;
}

int lineOf(const std::string& text, const std::string& marker) {
  int line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (std::string_view(text).substr(start, end - start).find(marker) != std::string::npos) {
      return line;
    }
    start = end + 1;
    ++line;
  }
  return 0;
}

int lineOf(const std::vector<SourceFile>& files, const std::string& path,
           const std::string& marker) {
  for (const SourceFile& f : files) {
    if (f.path == path) {
      int l = lineOf(f.text, marker);
      EXPECT_GT(l, 0) << "no line with " << marker << " in " << path;
      return l;
    }
  }
  ADD_FAILURE() << "no source " << path;
  return 0;
}

std::string compileJava(const JavaTools& jdk, const std::vector<SourceFile>& files,
                        const std::string& options, std::string* why) {
  if (jdk.javac.empty()) {
    *why = "javac not found";
    return "";
  }
  Hash h;
  h.mix(jdk.javac);
  h.mix(options);
  for (const SourceFile& f : files) {
    h.mix(f.path);
    h.mix(f.text);
  }
  fs::path out = kWorkDir / ("javac-" + h.hex());
  if (fs::exists(out / "ok")) return (out / "classes").string();

  // Compile into a fresh directory, then rename it into place (a concurrent process that
  // got there first wins; ours is discarded).
  fs::path tmp = out;
  tmp += str(".tmp-", ::getpid());
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp / "src");
  std::ofstream args(tmp / "sources.txt");
  for (const SourceFile& f : files) {
    fs::path p = tmp / "src" / f.path;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << f.text;
    args << '"' << p.string() << "\"\n";
  }
  args.close();
  fs::path log = tmp / "javac.log";
  std::string cmd = quote(jdk.javac) + " " + options + " -encoding UTF-8 -d " +
                    quote((tmp / "classes").string()) + " @" +
                    quote((tmp / "sources.txt").string()) + " > " + quote(log.string()) + " 2>&1";
  if (shell(cmd) != 0) {
    *why = "javac failed: " + cmd + "\n" + readText(log);
    fs::remove_all(tmp, ec);
    return "";
  }
  std::ofstream(tmp / "ok") << "ok\n";
  fs::rename(tmp, out, ec);
  if (ec) fs::remove_all(tmp, ec);
  if (!fs::exists(out / "ok")) {
    *why = "could not compile into " + out.string();
    return "";
  }
  return (out / "classes").string();
}

std::string probeRuntime(std::string* why) {
  std::vector<SourceFile> files = sourcesIn("runtime");
  fs::path bit = fs::path(DRAGNET_SOURCE_DIR) / "runtime" / "tools" / "dragnet" / "rt" / "Bit.java";
  files.push_back({"dragnet/rt/Bit.java", readText(bit)});
  if (files.size() < 2 || files.back().text.empty()) {
    *why = "probe runtime sources missing";
    return "";
  }
  return compileJava(jdk17(), files, "--release 8 -Xlint:-options -nowarn", why);
}

// ---- class files ----------------------------------------------------------------------------

std::vector<ClassBytes> readClasses(const std::string& dir) {
  std::vector<ClassBytes> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".class") {
      out.push_back({fs::relative(e.path(), dir).generic_string(), readFile(e.path().string())});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ClassBytes& a, const ClassBytes& b) { return a.path < b.path; });
  return out;
}

void writeClasses(const std::string& dir, const std::vector<ClassBytes>& classes) {
  for (const ClassBytes& c : classes) {
    fs::path p = fs::path(dir) / c.path;
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(c.bytes.data()),
            static_cast<std::streamsize>(c.bytes.size()));
  }
}

std::vector<Editable> parseAll(const std::vector<ClassBytes>& classes) {
  std::vector<Editable> out;
  out.reserve(classes.size());
  for (const ClassBytes& c : classes) {
    Editable& e = out.emplace_back();
    e.path = c.path;
    e.bytes = c.bytes;
    auto r = cf::parseClass(e.bytes);
    EXPECT_TRUE(r.ok()) << c.path << ": " << (r.ok() ? "" : r.error().toString());
    if (r.ok()) e.cls = std::move(r).value();
  }
  return out;
}

std::vector<ClassBytes> writeAll(const std::vector<Editable>& classes) {
  std::vector<ClassBytes> out;
  for (const Editable& e : classes) {
    auto w = cf::writeClass(e.cls);
    EXPECT_TRUE(w.ok()) << e.path << ": " << (w.ok() ? "" : w.error().toString());
    if (w.ok()) out.push_back({e.path, std::move(w).value()});
  }
  return out;
}

void toVersion49(cf::ClassFile& cls) {
  cls.major = 49;
  cls.minor = 0;
  for (cf::Member& m : cls.methods) {
    cf::CodeAttr* code = m.code();
    if (!code) continue;
    std::erase_if(code->attributes, [](const cf::Attribute& a) {
      return std::holds_alternative<cf::StackMapTableAttr>(a.body);
    });
  }
}

const cf::Member* findMethod(const cf::ClassFile& cls, std::string_view name,
                             std::string_view desc) {
  for (const cf::Member& m : cls.methods) {
    if (cls.memberName(m) == name && (desc.empty() || cls.memberDescriptor(m) == desc)) {
      return &m;
    }
  }
  return nullptr;
}

// ---- probes -----------------------------------------------------------------------------------

inst::Call Probes::hit(int32_t id) {
  return inst::Call{std::string(kProbe), "hit", {inst::Arg::i(id)}};
}

int32_t Probes::site(const inst::Routine& r, std::string kind, int64_t insn, int32_t id) {
  Site s;
  s.id = id >= 0 ? id : next_++;
  s.cls = std::string(r.className());
  s.method = std::string(r.name()) + std::string(r.descriptor());
  s.kind = std::move(kind);
  if (insn >= 0 && static_cast<size_t>(insn) < r.instructions().size()) {
    const inst::Instruction& in = r.instructions()[static_cast<size_t>(insn)];
    s.line = in.line;
    s.insn = in.index;
    s.offset = in.offset;
    s.op = in.op;
    for (const inst::BasicBlock& b : r.blocks()) {
      if (b.first <= in.index && in.index <= b.last) s.block = b.id;
    }
  }
  byId_[s.id] = sites_.size();
  sites_.push_back(std::move(s));
  return sites_.back().id;
}

// Policy::values for one instruction.
void Probes::addValueProbes(inst::Routine& r, const inst::Instruction& in) {
  using inst::Arg;
  auto val = [&](const char* kind, Arg first) {
    int32_t id = site(r, kind, in.index);
    bool ok = r.before(in.index, inst::Call{std::string(kProbe), "val", {first, Arg::i(id)}});
    // The object of a putfield before super() is the uninitialized `this`: refused.
    bool mayRefuse =
        first.kind == Arg::Kind::FieldObject && in.op == Op::putfield && r.name() == "<init>";
    EXPECT_TRUE(ok || mayRefuse) << r.className() << "." << r.name() << r.descriptor() << ": "
                                 << kind << " probe at " << in.offset << " did not fit";
    if (!ok) sites_.back().live = false;
  };
  if (inst::isReturn(in.op) && in.op != Op::return_) {
    std::string_view d = r.descriptor();
    char t = d[d.find(')') + 1];
    // Sub-int values are ints to the verifier; every reference is an Object.
    std::string desc = t == 'J' || t == 'F' || t == 'D' ? std::string(1, t)
                       : t == 'L' || t == '['           ? "Ljava/lang/Object;"
                                                        : "I";
    val("value", Arg::top(desc));
  } else if (in.op == Op::getfield || in.op == Op::putfield) {
    val("field-object", Arg::fieldObject());
  } else if ((in.op >= Op::iaload && in.op <= Op::saload) ||
             (in.op >= Op::iastore && in.op <= Op::sastore) || in.op == Op::arraylength) {
    val("array-object", Arg::arrayObject());
  }
}

std::vector<MethodOutcome> Probes::instrument(cf::ClassFile& cls, const Policy& p) {
  using inst::Arg;
  using inst::Call;
  std::vector<MethodOutcome> out;
  inst::ClassInstrumenter ci(cls);
  for (inst::Routine& r : ci.routines()) {
    if (!r.hasCode()) continue;
    size_t mark = sites_.size();
    auto check = [&](bool inserted) {
      EXPECT_TRUE(inserted) << r.className() << "." << r.name() << r.descriptor() << ": "
                            << sites_.back().kind << " probe did not fit";
      if (!inserted) sites_.back().live = false;
    };
    const bool ctor = r.name() == "<init>";
    if (p.entry) check(r.atEntry(hit(site(r, "entry")), inst::ConstructorEntry::AfterSuperCall));
    if (ctor && p.entryBeforeSuper) {
      check(r.atEntry(hit(site(r, "entry-before-super")), inst::ConstructorEntry::BeforeSuperCall));
    }
    for (const inst::BasicBlock& b : r.blocks()) {
      if (p.handlers && b.isHandlerEntry) {
        int32_t id = site(r, "handler", b.first);
        check(r.before(b.first, Call{std::string(kProbe), "exc", {Arg::exception(), Arg::i(id)}}));
      }
      if (p.blocks) check(r.beforeBlock(b, hit(site(r, "block", b.first))));
    }
    for (const inst::Instruction& in : r.instructions()) {
      if (p.branches && inst::isConditionalBranch(in.op)) {
        int32_t id = site(r, "branch", in.index);
        check(r.before(in.index,
                       Call{std::string(kProbe), "branch", {Arg::branchOutcome(), Arg::i(id)}}));
      }
      if (p.returns && inst::isReturn(in.op))
        check(r.before(in.index, hit(site(r, "return", in.index))));
      if (p.afterCalls && inst::isInvoke(in.op)) {
        check(r.after(in.index, hit(site(r, "after-call", in.index))));
      }
      if (p.values) addValueProbes(r, in);
    }
    if (p.exits) {
      int32_t id = site(r, "exit");
      check(r.onExceptionalExit(Call{std::string(kProbe), "exc", {Arg::exception(), Arg::i(id)}}));
    }
    if (p.extra) p.extra(r, *this);
    inst::EditOutcome o = r.commit();
    if (o.reason == "no edits") continue;
    if (!o.changed) {
      for (size_t k = mark; k < sites_.size(); ++k) sites_[k].live = false;
    }
    out.push_back({std::string(cls.name()), std::string(r.name()) + std::string(r.descriptor()),
                   std::move(o)});
  }
  return out;
}

std::vector<MethodOutcome> Probes::instrumentAll(std::vector<Editable>& classes,
                                                 const Policy& policy) {
  std::vector<MethodOutcome> all;
  for (Editable& e : classes) {
    auto o = instrument(e.cls, policy);
    all.insert(all.end(), o.begin(), o.end());
  }
  return all;
}

const Site& Probes::at(int32_t id) const {
  auto it = byId_.find(id);
  if (it == byId_.end()) {
    ADD_FAILURE() << "no site " << id;
    static const Site none;
    return none;
  }
  return sites_[it->second];
}

std::vector<const Site*> Probes::find(std::string_view kind, std::string_view cls,
                                      std::string_view method, int line) const {
  std::vector<const Site*> out;
  bool full = method.find('(') != std::string_view::npos;
  for (const Site& s : sites_) {
    if (!s.live || s.kind != kind || s.cls != cls) continue;
    std::string_view m = s.method;
    if (!full) m = m.substr(0, m.find('('));
    if (m != method || (line >= 0 && s.line != line)) continue;
    out.push_back(&s);
  }
  return out;
}

const Site& Probes::one(std::string_view kind, std::string_view cls, std::string_view method,
                        int line) const {
  auto v = find(kind, cls, method, line);
  if (v.size() != 1) {
    ADD_FAILURE() << v.size() << " live " << kind << " sites in " << cls << "." << method
                  << " at line " << line << ", expected 1";
    static const Site none;
    return none;
  }
  return *v[0];
}

std::string describeUnchanged(const std::vector<MethodOutcome>& outcomes) {
  std::string s;
  for (const MethodOutcome& o : outcomes) {
    if (!o.outcome.changed) s += o.cls + "." + o.method + ": " + o.outcome.reason + "\n";
  }
  return s;
}

const MethodOutcome* findOutcome(const std::vector<MethodOutcome>& outcomes, std::string_view cls,
                                 std::string_view method) {
  bool full = method.find('(') != std::string_view::npos;
  for (const MethodOutcome& o : outcomes) {
    std::string_view m = o.method;
    if (!full) m = m.substr(0, m.find('('));
    if (o.cls == cls && m == method) return &o;
  }
  return nullptr;
}

// ---- running ----------------------------------------------------------------------------------

int64_t RunResult::count(int32_t id) const {
  auto it = probes.find(id);
  return it == probes.end() ? 0 : it->second.count;
}
int64_t RunResult::taken(int32_t id) const {
  auto it = probes.find(id);
  return it == probes.end() ? 0 : it->second.taken;
}
std::string RunResult::exceptions(int32_t id) const {
  auto it = probes.find(id);
  std::string s;
  if (it == probes.end()) return s;
  for (const std::string& n : it->second.exceptions) s += (s.empty() ? "" : " ") + n;
  return s;
}
int64_t RunResult::sum(const std::vector<const Site*>& sites) const {
  int64_t n = 0;
  for (const Site* s : sites) n += count(s->id);
  return n;
}

ScratchDir::ScratchDir(const std::string& name) {
  path_ = (kWorkDir / str("run-", name, "-", ::getpid())).string();
  std::error_code ec;
  fs::remove_all(path_, ec);
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  // (A suite's shared directory is destroyed in TearDownTestSuite, outside any test.)
  if (::testing::Test::HasFailure() ||
      ::testing::UnitTest::GetInstance()->failed_test_count() > 0) {
    std::cerr << "hard cases: files kept in " << path_ << "\n";
    return;
  }
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ScratchDir::sub(const std::string& name) const {
  fs::path p = fs::path(path_) / name;
  fs::create_directories(p);
  return p.string();
}

RunResult runJava(const JavaTools& jdk, const std::vector<std::string>& classpath,
                  const std::string& mainClass, const ScratchDir& scratch, const std::string& tag,
                  const std::vector<std::string>& args, const RunOptions& options) {
  RunResult r;
  std::string cp;
  for (const std::string& c : classpath) cp += (cp.empty() ? "" : ":") + c;
  fs::path dir = scratch.path();
  fs::path out = dir / (tag + ".out"), err = dir / (tag + ".err"), probes = dir / (tag + ".probes");
  std::error_code ec;
  fs::remove(probes, ec);
  std::string where =
      options.bootUnverified ? " -Xbootclasspath/a:" + quote(cp) : " -Xverify:all -cp " + quote(cp);
  std::string cmd = "timeout 120 " + quote(jdk.java) + where +
                    " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto";
  for (const std::string& o : options.jvmArgs) cmd += " " + quote(o);
  cmd += " -Dhardprobe.out=" + quote(probes.string()) + " " + quote(mainClass);
  for (const std::string& a : args) cmd += " " + quote(a);
  cmd += " > " + quote(out.string()) + " 2> " + quote(err.string());
  r.exitCode = shell(cmd);
  r.out = readText(out);
  r.err = readText(err);
  std::istringstream in(readText(probes));
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    int32_t id = 0;
    ProbeCount c;
    if (!(fields >> id >> c.count >> c.taken)) continue;
    for (std::string n; fields >> n;) c.exceptions.push_back(n);
    r.probes[id] = std::move(c);
  }
  return r;
}

// ---- assembler --------------------------------------------------------------------------------

Asm& Asm::u1(int v) {
  code_.push_back(static_cast<uint8_t>(v));
  return *this;
}
Asm& Asm::u2(int v) { return u1(v >> 8).u1(v); }
Asm& Asm::u4(int64_t v) {
  return u1(static_cast<int>(v >> 24))
      .u1(static_cast<int>(v >> 16))
      .u1(static_cast<int>(v >> 8))
      .u1(static_cast<int>(v));
}
int Asm::newLabel() {
  labels_.push_back(UINT32_MAX);
  return static_cast<int>(labels_.size() - 1);
}
Asm& Asm::bind(int label) {
  labels_.at(static_cast<size_t>(label)) = pc();
  return *this;
}
Asm& Asm::jump(Op o, int label) {
  fixups_.push_back({pc(), pc() + 1, label, false});
  return op(o).u2(0);
}
Asm& Asm::jumpW(Op o, int label) {
  fixups_.push_back({pc(), pc() + 1, label, true});
  return op(o).u4(0);
}
Asm& Asm::offset4(int label, uint32_t switchPc) {
  fixups_.push_back({switchPc, pc(), label, true});
  return u4(0);
}
Bytes Asm::finish() {
  for (const Fixup& f : fixups_) {
    uint32_t target = labels_.at(static_cast<size_t>(f.label));
    EXPECT_NE(target, UINT32_MAX) << "unbound label " << f.label;
    int64_t delta = int64_t{target} - f.insnPc;
    if (f.wide) {
      for (int k = 0; k < 4; ++k) code_[f.at + k] = static_cast<uint8_t>(delta >> (24 - 8 * k));
    } else {
      EXPECT_TRUE(delta >= INT16_MIN && delta <= INT16_MAX) << "branch at " << f.insnPc;
      code_[f.at] = static_cast<uint8_t>(delta >> 8);
      code_[f.at + 1] = static_cast<uint8_t>(delta);
    }
  }
  return code_;
}

Layout layoutOf(const cf::ClassFile& cls, std::string_view method, std::string_view desc) {
  Layout l;
  const cf::Member* m = findMethod(cls, method, desc);
  if (!m || !m->code()) {
    ADD_FAILURE() << "no code for " << method << desc;
    return l;
  }
  l.insns = m->code()->code.insns;
  l.offsets = cf::computeOffsets(m->code()->code);
  return l;
}

int countOps(const cf::ClassFile& cls, std::string_view method, Op op) {
  Layout l = layoutOf(cls, method);
  return static_cast<int>(
      std::count_if(l.insns.begin(), l.insns.end(), [&](const cf::Insn& i) { return i.op == op; }));
}

}  // namespace dragnet::test::hard

namespace dragnet::test::hard {

bool sameRun(const Comparison& c, const std::string& want) {
  bool ok = true;
  auto check = [&](bool good, const std::string& what) {
    if (!good) ADD_FAILURE() << what;
    ok = ok && good;
  };
  check(c.original.exitCode == 0, "original run failed: " + c.original.err);
  check(c.original.out == want, "original output:\n" + c.original.out);
  std::string unchanged = describeUnchanged(c.outcomes);
  check(unchanged.empty(), "methods left unchanged:\n" + unchanged);
  check(c.instrumented.exitCode == 0, "instrumented run failed: " + c.instrumented.err);
  check(c.instrumented.err.empty(), "instrumented stderr: " + c.instrumented.err);
  check(c.instrumented.out == want, "instrumented output:\n" + c.instrumented.out);
  return ok;
}

Comparison instrumentAndRun(const JavaTools& jdk, const std::vector<ClassBytes>& classes,
                            const std::string& mainClass, Probes& probes, const ScratchDir& scratch,
                            const std::string& tag, const Policy& policy,
                            const std::function<void(std::vector<Editable>&)>& before,
                            const RunOptions& options) {
  Comparison c;
  std::string why;
  std::string runtime = probeRuntime(&why);
  if (runtime.empty()) {
    ADD_FAILURE() << why;
    return c;
  }
  std::vector<Editable> models = parseAll(classes);
  if (::testing::Test::HasFailure()) return c;
  if (before) {
    before(models);
    c.originalClasses = writeAll(models);
    // Parse again so that the instrumented models do not share state with the originals.
    models = parseAll(c.originalClasses);
  } else {
    c.originalClasses = classes;
  }
  std::string origDir = scratch.sub(tag + "-orig");
  writeClasses(origDir, c.originalClasses);
  c.original = runJava(jdk, {origDir, runtime}, mainClass, scratch, tag + "-orig", {}, options);

  c.outcomes = probes.instrumentAll(models, policy);
  c.written = writeAll(models);
  if (::testing::Test::HasFailure()) return c;
  std::string instDir = scratch.sub(tag + "-inst");
  writeClasses(instDir, c.written);
  c.instrumented = runJava(jdk, {instDir, runtime}, mainClass, scratch, tag + "-inst", {}, options);
  c.ok = true;
  return c;
}

cf::ClassFile parseWritten(const Comparison& c, const std::string& path) {
  for (const ClassBytes& b : c.written) {
    if (b.path == path) {
      auto r = cf::parseClass(b.bytes);
      EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().toString());
      if (r.ok()) return std::move(r).value();
      break;
    }
  }
  ADD_FAILURE() << "no written class " << path;
  return {};
}

}  // namespace dragnet::test::hard

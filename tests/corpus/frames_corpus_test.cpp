// Corpus test of frame computation, judged by the JVM itself: application jars from
// /usr/share/java are extracted, every method of every class of version >= 50 gets its
// StackMapTable thrown away and recomputed (src/instrument/frame_computer.h), and the JDK's
// verifier (tests/verify/VerifyHarness.java, run on the `java` on PATH) links every class
// of the original and of the rewritten directories. Differential, class by class: no class
// that verified originally may fail after the rewrite. A second test recomputes every
// method of every installed JDK image and compares with javac's frames (no JVM run).
//
// The class hierarchy comes from class bytes only: the extracted jars (tested and
// classpath-only ones) and the JDK image of the `java` on PATH, extracted with its own
// `jimage extract` into the build tree (shared with jdk_modules_test).
//
// Environment: DRAGNET_FRAMES_JARS (comma-separated jar paths) replaces the tested jar
// list; DRAGNET_FRAMES_KEEP keeps the work directory (build/frames-corpus-<pid>: the
// extracted and rewritten classes, the harness output and verification logs);
// DRAGNET_FRAMES_DEBUG lists the methods whose frame count changed or that had dead code.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "instrument/class_hierarchy.h"
#include "instrument/frame_computer.h"
#include "jdk_image.h"

namespace fs = std::filesystem;
namespace cf = dragnet::classfile;
using namespace dragnet::instrument;

namespace {

// The jars the brief named first (javac output, class versions 51-55), then more javac
// output and Jython, whose compiled Python modules ($py classes, generated with ASM)
// contain unreachable code.
const std::vector<std::string> kTestedJars = {
    "/usr/share/java/asm-9.4.jar",
    "/usr/share/java/bcel-6.5.0.jar",
    "/usr/share/java/lucene-core-4.10.4.jar",
    "/usr/share/java/h2-2.1.214.jar",
    "/usr/share/java/xalan2-2.7.2.jar",
    "/usr/share/java/guava-31.1-jre.jar",
    "/usr/share/java/commons-lang3-3.12.0.jar",
    "/usr/share/java/commons-compress-1.22.jar",
    "/usr/share/java/antlr4-4.7.2.jar",
    "/usr/share/java/icu4j-60.2.jar",
    "/usr/share/java/batik-all-1.16.jar",
    "/usr/share/java/fop-core-2.8.jar",
    "/usr/share/java/netty-common.jar",
    "/usr/share/java/netty-buffer.jar",
    "/usr/share/java/netty-codec-http.jar",
    "/usr/share/java/jython-2.7.3.jar",
};
// Seen by the hierarchy and the verifier, not rewritten: what the tested jars link against.
const std::vector<std::string> kClasspathJars = {
    "/usr/share/java/servlet-api.jar",
    "/usr/share/java/slf4j-api.jar",
    "/usr/share/java/xercesImpl.jar",
    "/usr/share/java/serializer.jar",
    "/usr/share/java/lucene-analyzers-common-4.10.4.jar",
    "/usr/share/java/lucene-queryparser-4.10.4.jar",
    "/usr/share/java/netty-transport.jar",
    "/usr/share/java/netty-codec.jar",
    "/usr/share/java/netty-handler.jar",
    "/usr/share/java/antlr3-runtime.jar",
    "/usr/share/java/antlr4-runtime.jar",
    "/usr/share/java/jnr-posix.jar",
    "/usr/share/java/jnr-constants.jar",
    "/usr/share/java/jnr-ffi.jar",
    "/usr/share/java/jffi.jar",
    "/usr/share/java/xmlgraphics-commons.jar",
    "/usr/share/java/commons-io.jar",
    "/usr/share/java/commons-logging.jar",
    "/usr/share/java/fop-events.jar",
    "/usr/share/java/fop-util.jar",
};

std::string quote(const std::string& s) { return "'" + s + "'"; }

bool run(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

// The JDK home of the `java` on PATH (its verifier judges; its image gives the hierarchy).
fs::path jdkHomeOnPath() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::error_code ec;
    fs::path java = fs::canonical(fs::path(dir) / "java", ec);
    if (ec) continue;
    fs::path home = java.parent_path().parent_path();
    if (fs::exists(home / "lib" / "modules") && fs::exists(home / "bin" / "jimage")) return home;
  }
  return {};
}

std::vector<uint8_t> readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

void writeFile(const fs::path& p, const std::vector<uint8_t>& b) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Class files of a jar (multi-release and other META-INF entries left out).
bool unzipClasses(const std::string& jar, const fs::path& dir) {
  fs::create_directories(dir);
  std::string cmd = "unzip -q -o " + quote(jar) + " '*.class' -x 'META-INF/*' -d ";
  cmd.append(quote(dir.string())).append(" > /dev/null 2>&1");
  return run(cmd);
}

struct Tally {
  size_t classes = 0, classesV50 = 0, unparsed = 0, methods = 0, methodsWithTable = 0,
         recomputed = 0, approximate = 0, deadInstructions = 0, oldFrames = 0, newFrames = 0;
  std::vector<std::string> errors;
  std::map<std::string, size_t> unknownClasses;
};

size_t frameCount(const cf::CodeAttr& code) {
  const auto* t = cf::findAttr<cf::StackMapTableAttr>(code.attributes);
  return t ? t->frames.size() : 0;
}

// Recomputes the frames of every method of one class and writes it to `out`.
void rewriteClass(const fs::path& in, const fs::path& out, ClassHierarchy& hierarchy, Tally& t) {
  std::vector<uint8_t> bytes = readFile(in);
  ++t.classes;
  auto parsed = cf::parseClass(bytes, {in.string()});
  if (!parsed || parsed.value().major < 50) {
    t.unparsed += parsed ? 0 : 1;
    return writeFile(out, bytes);
  }
  ++t.classesV50;
  cf::ClassFile& cls = parsed.value();
  hierarchy.define(cls);
  for (cf::Member& m : cls.methods) {
    cf::CodeAttr* code = m.code();
    if (!code) continue;
    ++t.methods;
    size_t before = frameCount(*code);
    t.oldFrames += before;
    if (before > 0) ++t.methodsWithTable;
    FrameComputation r = computeFrames(cls, m, hierarchy);
    if (!r.ok()) {
      t.errors.push_back(std::string(cls.name()) + "." + std::string(cls.memberName(m)) +
                         std::string(cls.memberDescriptor(m)) + ": " + r.errors[0]);
      continue;
    }
    ++t.recomputed;
    t.approximate += r.approximate ? 1 : 0;
    t.deadInstructions += r.deadInstructions;
    t.newFrames += r.table.frames.size();
    if ((r.deadInstructions > 0 || (before > 0 && r.table.frames.size() != before)) &&
        std::getenv("DRAGNET_FRAMES_DEBUG")) {
      std::cout << "frames " << before << " -> " << r.table.frames.size() << " dead "
                << r.deadInstructions << ": " << cls.name() << "." << cls.memberName(m)
                << cls.memberDescriptor(m) << "\n";
    }
  }
  auto written = cf::writeClass(cls);
  if (!written) {
    t.errors.push_back("write " + std::string(cls.name()) + ": " + written.error().toString());
    return writeFile(out, bytes);
  }
  writeFile(out, written.value());
}

// name -> "OK" or the failure, from one harness run. Class files of version 50 that fail
// the type checker silently fail over to the old inference verifier (HotSpot,
// NOFAILOVER_MAJOR_VERSION 51), so the run logs verification and such classes count as
// failed: our frames must pass the type checker itself.
std::map<std::string, std::string> verify(const fs::path& harness,
                                          const std::vector<fs::path>& dirs,
                                          const std::vector<fs::path>& classpath,
                                          const fs::path& output) {
  fs::path log = output;
  log += ".verification.log";
  std::string cmd = "java -Xshare:auto -Xlog:verification=info:file=" + quote(log.string()) +
                    " -cp " + quote(harness.string()) + " VerifyHarness";
  for (const fs::path& d : dirs) cmd.append(" ").append(quote(d.string()));
  cmd.append(" --");
  for (const fs::path& d : classpath) cmd.append(" ").append(quote(d.string()));
  cmd.append(" > ").append(quote(output.string())).append(" 2>&1");
  std::map<std::string, std::string> result;
  if (!run(cmd)) return result;
  std::ifstream in(output);
  for (std::string line; std::getline(in, line);) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos) result[line.substr(0, tab)] = line.substr(tab + 1);
  }
  const std::string failover = "Fail over class verification to old verifier for: ";
  std::ifstream logIn(log);
  for (std::string line; std::getline(logIn, line);) {
    size_t at = line.find(failover);
    if (at == std::string::npos) continue;
    auto it = result.find(line.substr(at + failover.size()));
    if (it != result.end() && it->second == "OK") it->second = "OK only by the old verifier";
  }
  return result;
}

// Strips every StackMapTable from the rewritten class `file` (of the jar rewritten into
// `jarDir`) and verifies that copy alone: the verifier must reject it, or the harness is not
// verifying anything.
std::string controlRun(const fs::path& harness, const fs::path& work, const std::string& file,
                       const fs::path& jarDir, const std::vector<fs::path>& classpath) {
  if (file.empty()) return "no class with frames";
  std::vector<uint8_t> bytes = readFile(file);
  auto parsed = cf::parseClass(bytes);
  if (!parsed) return "unparsable";
  for (cf::Member& m : parsed.value().methods) {
    if (cf::CodeAttr* code = m.code()) {
      std::erase_if(code->attributes, [](const cf::Attribute& a) {
        return std::holds_alternative<cf::StackMapTableAttr>(a.body);
      });
    }
  }
  auto stripped = cf::writeClass(parsed.value());
  if (!stripped) return "unwritable";
  fs::path dir = work / "control";
  writeFile(dir / fs::relative(file, jarDir), stripped.value());
  std::vector<fs::path> cp = {jarDir};
  cp.insert(cp.end(), classpath.begin(), classpath.end());
  auto outcome = verify(harness, {dir}, cp, work / "control.txt");
  return outcome.size() == 1 ? outcome.begin()->second : "no outcome";
}

std::vector<std::string> testedJars() {
  const char* env = std::getenv("DRAGNET_FRAMES_JARS");
  if (!env || !*env) return kTestedJars;
  std::vector<std::string> jars;
  std::stringstream list(env);
  for (std::string j; std::getline(list, j, ',');) jars.push_back(j);
  return jars;
}

}  // namespace

TEST(FramesCorpus, RecomputedFramesVerifyWhereverTheOriginalsDid) {
  fs::path home = jdkHomeOnPath();
  if (home.empty()) GTEST_SKIP() << "no JDK (java with lib/modules) on PATH";
  if (!run("command -v javac > /dev/null && command -v unzip > /dev/null")) {
    GTEST_SKIP() << "javac or unzip missing";
  }
  fs::path image = dragnet::testing::extractedJdkImage(home);
  ASSERT_FALSE(image.empty()) << "jimage extract failed for " << home;

  fs::path work = fs::path(DRAGNET_BINARY_DIR) / ("frames-corpus-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::path harness = work / "harness";
  fs::create_directories(harness);
  ASSERT_TRUE(run("javac -nowarn -d " + quote(harness.string()) + " " +
                  quote(std::string(DRAGNET_SOURCE_DIR) + "/tests/verify/VerifyHarness.java")));

  std::vector<fs::path> original, rewritten, classpath;
  for (const std::string& jar : testedJars()) {
    if (!fs::exists(jar)) continue;
    std::string name = fs::path(jar).stem().string();
    original.push_back(work / "original" / name);
    rewritten.push_back(work / "rewritten" / name);
    ASSERT_TRUE(unzipClasses(jar, original.back())) << jar;
  }
  if (original.empty()) GTEST_SKIP() << "none of the corpus jars is installed";
  for (const std::string& jar : kClasspathJars) {
    if (!fs::exists(jar)) continue;
    classpath.push_back(work / "classpath" / fs::path(jar).stem());
    ASSERT_TRUE(unzipClasses(jar, classpath.back())) << jar;
  }

  // Jars may hold different versions of the same class (xalan2 bundles an old BCEL), so
  // each jar is rewritten with its own hierarchy and verified by its own JVM run, with its
  // own classes first and the other jars' original classes after them.
  Tally t;
  std::map<std::string, std::string> before, after;  // "<jar>/<class>" -> outcome
  std::string control;                               // a rewritten class with frames
  size_t controlJar = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    std::vector<fs::path> others;
    for (size_t j = 0; j < original.size(); ++j) {
      if (j != i) others.push_back(original[j]);
    }
    others.insert(others.end(), classpath.begin(), classpath.end());
    std::vector<ClassSource> sources = {directorySource(original[i])};
    for (const fs::path& d : others) sources.push_back(directorySource(d));
    sources.push_back(moduleImageSource(image));
    ClassHierarchy hierarchy(chainSources(sources));
    for (const auto& e : fs::recursive_directory_iterator(original[i])) {
      if (!e.is_regular_file() || e.path().extension() != ".class") continue;
      fs::path out = rewritten[i] / fs::relative(e.path(), original[i]);
      size_t framesBefore = t.newFrames;
      rewriteClass(e.path(), out, hierarchy, t);
      if (control.empty() && t.newFrames > framesBefore) {
        control = out.string();
        controlJar = i;
      }
    }
    for (const std::string& u : hierarchy.unknownClasses()) ++t.unknownClasses[u];
    std::string jar = original[i].filename().string();
    for (auto& [n, o] : verify(harness, {original[i]}, others, work / (jar + ".original.txt"))) {
      before[jar + "/" + n] = o;
    }
    for (auto& [n, o] : verify(harness, {rewritten[i]}, others, work / (jar + ".rewritten.txt"))) {
      after[jar + "/" + n] = o;
    }
  }

  size_t okBefore = 0, okAfter = 0, broken = 0, fixed = 0;
  std::vector<std::string> regressions;
  for (const auto& [name, outcome] : before) {
    auto it = after.find(name);
    std::string now = it == after.end() ? "missing from the rewritten run" : it->second;
    okBefore += outcome == "OK";
    okAfter += now == "OK";
    if (outcome == "OK" && now != "OK") {
      ++broken;
      regressions.push_back(name + ": " + now);
    }
    fixed += outcome != "OK" && now == "OK";
  }

  std::string controlOutcome = controlRun(harness, work, control, rewritten[controlJar], original);
  std::cout << "jars:";
  for (const fs::path& d : original) std::cout << " " << d.filename().string();
  std::cout << "\nclasses " << t.classes << " (version >= 50: " << t.classesV50 << ", unparsed "
            << t.unparsed << "); methods with code " << t.methods << " (with a StackMapTable "
            << t.methodsWithTable << "), recomputed " << t.recomputed << ", errors "
            << t.errors.size() << ", approximate " << t.approximate << ", dead instructions "
            << t.deadInstructions << "; frames " << t.oldFrames << " before, " << t.newFrames
            << " after\n"
            << "verified: " << before.size() << " classes, OK before " << okBefore << ", OK after "
            << okAfter << ", broken " << broken << ", fixed " << fixed << "\n"
            << "control (" << control << " without its frames): " << controlOutcome.substr(0, 120)
            << "\n"
            << "unknown classes in the hierarchies: " << t.unknownClasses.size() << "\n";
  size_t shown = 0;
  for (const auto& [name, n] : t.unknownClasses) {
    if (shown++ < 10) std::cout << "  unknown: " << name << "\n";
  }
  for (size_t i = 0; i < t.errors.size() && i < 20; ++i)
    std::cout << "  error: " << t.errors[i] << "\n";

  EXPECT_GT(before.size(), 0u) << "the harness printed nothing";
  EXPECT_EQ(before.size(), after.size());
  EXPECT_EQ(t.errors.size(), 0u);
  for (size_t i = 0; i < regressions.size() && i < 20; ++i) ADD_FAILURE() << regressions[i];
  EXPECT_EQ(broken, 0u);
  // The harness must be able to see a broken class at all.
  EXPECT_TRUE(controlOutcome.starts_with("java.lang.VerifyError")) << controlOutcome;
  if (!HasFailure() && !std::getenv("DRAGNET_FRAMES_KEEP")) fs::remove_all(work);
}

namespace {

// d is assignable to c under the verifier's rules for reference types (interfaces accept
// every reference, arrays are Object, Cloneable and Serializable, and covariant in their
// reference components).
bool isSubtype(std::string_view d, std::string_view c, ClassHierarchy& h) {
  if (d == c || c == "java/lang/Object") return true;
  if (c.starts_with('[')) {
    if (!d.starts_with('[')) return false;
    std::string_view cc = c.substr(1), dc = d.substr(1);
    auto ref = [](std::string_view x) {
      return x.starts_with('L') ? x.substr(1, x.size() - 2) : x;  // "[.." stays as it is
    };
    bool refs = (cc[0] == 'L' || cc[0] == '[') && (dc[0] == 'L' || dc[0] == '[');
    return refs ? isSubtype(ref(dc), ref(cc), h) : cc == dc;
  }
  if (d.starts_with('[')) return c == "java/lang/Cloneable" || c == "java/io/Serializable";
  if (h.isInterface(c)) return true;
  std::string s(d);
  for (int depth = 0; depth < 100 && !s.empty(); ++depth) {
    s = h.superName(s);
    if (s == c) return true;
  }
  return false;
}

bool assignable(const cf::VType& ours, const cf::VType& theirs, const cf::ClassFile& cls,
                const cf::Code& code, ClassHierarchy& h) {
  if (theirs.kind == vtype::kTop) return true;
  if (theirs.kind == vtype::kObject) {
    if (ours.kind == vtype::kNull) return true;
    return ours.kind == vtype::kObject &&
           isSubtype(cls.pool.className(ours.cls), cls.pool.className(theirs.cls), h);
  }
  if (theirs.kind == vtype::kUninitialized) {
    return ours.kind == vtype::kUninitialized &&
           code.position(ours.newInsn) == code.position(theirs.newInsn);
  }
  return ours.kind == theirs.kind;
}

// Our frame state is at least as precise as javac's at the same instruction.
bool assignable(const FrameState& ours, const FrameState& theirs, const cf::ClassFile& cls,
                const cf::Code& code, ClassHierarchy& h) {
  if (ours.stack.size() != theirs.stack.size()) return false;
  for (size_t k = 0; k < theirs.stack.size(); ++k) {
    if (!assignable(ours.stack[k], theirs.stack[k], cls, code, h)) return false;
  }
  for (size_t k = 0; k < theirs.locals.size(); ++k) {
    cf::VType o = k < ours.locals.size() ? ours.locals[k] : vtype::top();
    if (!assignable(o, theirs.locals[k], cls, code, h)) return false;
  }
  return true;
}

}  // namespace

// Every method of every class of the JDK image on PATH gets frames without error, with the
// image itself as the hierarchy (so no guesses), and every frame lands where javac put one
// too (the verifier requires frames exactly at branch targets, handlers and after
// unconditional transfers; javac emits at least those), holding types assignable to
// javac's there (ours are the computed types, javac's the declared ones). No JVM run:
// java.* classes cannot be defined by an application loader.
// Checks every class of one JDK image (see the test below).
static void checkJdkImage(const fs::path& home) {
  SCOPED_TRACE(home.string());
  fs::path image = dragnet::testing::extractedJdkImage(home);
  ASSERT_FALSE(image.empty()) << "jimage extract failed for " << home;
  ClassHierarchy hierarchy(moduleImageSource(image));
  size_t classes = 0, methods = 0, frames = 0, approximate = 0, misplaced = 0, imprecise = 0;
  std::vector<std::string> errors;
  for (const auto& e : fs::recursive_directory_iterator(image)) {
    if (!e.is_regular_file() || e.path().extension() != ".class") continue;
    std::vector<uint8_t> bytes = readFile(e.path());
    auto parsed = cf::parseClass(bytes);
    if (!parsed || parsed.value().major < 50) continue;
    cf::ClassFile& cls = parsed.value();
    ++classes;
    for (cf::Member& m : cls.methods) {
      cf::CodeAttr* code = m.code();
      if (!code) continue;
      ++methods;
      std::map<uint32_t, FrameState> javac;  // instruction index -> javac's frame
      auto initial = initialState(cls, m);
      ASSERT_TRUE(initial);
      if (const auto* t = cf::findAttr<cf::StackMapTableAttr>(code->attributes)) {
        auto decoded = decodeFrames(*initial, *t);
        ASSERT_TRUE(decoded);
        for (DecodedFrame& d : *decoded) javac[code->code.position(d.at)] = std::move(d.state);
      }
      FrameComputation r = computeFrames(cls, m, hierarchy);
      if (!r.ok()) {
        errors.push_back(std::string(cls.name()) + "." + std::string(cls.memberName(m)) + ": " +
                         r.errors[0]);
        continue;
      }
      approximate += r.approximate;
      frames += r.table.frames.size();
      auto ours = decodeFrames(*initial, r.table);
      ASSERT_TRUE(ours);
      bool placed = true, precise = true;
      for (const DecodedFrame& d : *ours) {
        auto it = javac.find(code->code.position(d.at));
        placed = placed && it != javac.end();
        precise = precise && it != javac.end() &&
                  assignable(d.state, it->second, cls, code->code, hierarchy);
      }
      misplaced += !placed;
      imprecise += placed && !precise;
      if (placed && !precise && imprecise <= 5) {
        std::cout << "  less precise than javac: " << cls.name() << "." << cls.memberName(m)
                  << cls.memberDescriptor(m) << "\n";
      }
    }
  }
  std::cout << home.string() << ": " << classes << " classes (version >= 50), " << methods
            << " methods with code, " << frames << " frames, " << errors.size() << " errors, "
            << approximate << " approximate, " << misplaced
            << " methods with a frame where javac had none, " << imprecise
            << " methods with a frame less precise than javac's\n";
  EXPECT_GT(classes, 20000u);
  for (size_t i = 0; i < errors.size() && i < 20; ++i) ADD_FAILURE() << errors[i];
  EXPECT_EQ(errors.size(), 0u);
  EXPECT_EQ(approximate, 0u);
  EXPECT_EQ(misplaced, 0u);
  EXPECT_EQ(imprecise, 0u);
}

TEST(FramesCorpus, EveryJdkMethodGetsFramesWhereJavacPutThem) {
  std::set<fs::path> homes;
  auto consider = [&](const fs::path& home) {
    std::error_code ec;
    fs::path real = fs::canonical(home, ec);
    if (!ec && fs::exists(real / "lib" / "modules") && fs::exists(real / "bin" / "jimage")) {
      homes.insert(real);
    }
  };
  if (fs::path h = jdkHomeOnPath(); !h.empty()) consider(h);
  if (const char* jh = std::getenv("JAVA_HOME")) consider(jh);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/jvm", ec)) consider(e.path());
  if (homes.empty()) GTEST_SKIP() << "no JDK with lib/modules found";
  for (const fs::path& home : homes) checkJdkImage(home);
}

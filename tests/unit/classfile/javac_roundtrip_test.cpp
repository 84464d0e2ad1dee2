// Real javac output (tests/data/java, compiled at test time): every class round-trips
// byte-identically, every reference inside Code survives inserting instructions, and the
// stack-map frames sit where javac put them.
#include <gtest/gtest.h>

#include <set>

#include "../support/javac_fixture.h"

namespace dragnet::test {
namespace {

using cf::Op;

TEST_F(JavacTest, EveryCompiledClassRoundTrips) {
  std::string why;
  const auto& classes = javacClasses(&why);
  EXPECT_EQ(classes.size(), 21u);  // tests/data/java: 20 classes and module-info
  std::set<std::string> names;
  for (const CompiledClass& c : classes) {
    SCOPED_TRACE(c.path);
    EXPECT_TRUE(RoundTrips(c.bytes));
    auto r = cf::parseClass(c.bytes);
    ASSERT_TRUE(r.ok());
    names.insert(std::string(r.value().name()));
    // No attribute javac emits is malformed.
    for (const cf::Attribute& a : r.value().attributes) {
      if (auto* raw = std::get_if<cf::RawAttr>(&a.body)) {
        EXPECT_EQ(raw->malformed, "") << r.value().pool.utf8(a.name);
      }
    }
  }
  for (const char* n : {"module-info", "dragnet/testdata/Shape$Circle", "dragnet/testdata/Features$1",
                        "dragnet/testdata/internal/ServiceImpl"}) {
    EXPECT_EQ(names.count(n), 1u) << n;
  }
}

// Every position a Code attribute refers to, as "what -> instruction index" strings, with
// `shift` added to every index (so a snapshot before inserting n instructions at the start,
// shifted by n, must equal the snapshot after).
std::vector<std::string> references(const cf::ClassFile& cls, const cf::CodeAttr& a,
                                    uint32_t shift) {
  const cf::Code& k = a.code;
  std::vector<std::string> out;
  auto pos = [&](cf::Label l) { return k.position(l) + shift; };
  for (size_t i = 0; i < k.insns.size(); ++i) {
    const cf::Insn& in = k.insns[i];
    cf::Format f = cf::opInfo(in.op).format;
    std::string at = str(cf::opInfo(in.op).name, "@", i + shift);
    if (f == cf::Format::Branch2 || f == cf::Format::Branch4) {
      out.push_back(str(at, " -> ", pos(in.target())));
    } else if (f == cf::Format::TableSwitch || f == cf::Format::LookupSwitch) {
      const cf::Switch& sw = k.switches.at(static_cast<size_t>(in.a));
      out.push_back(str(at, " default -> ", pos(sw.defaultTarget)));
      for (size_t t = 0; t < sw.targets.size(); ++t) {
        out.push_back(str(at, " case ", t, " -> ", pos(sw.targets[t])));
      }
    }
  }
  for (const cf::ExceptionHandler& h : a.handlers) {
    out.push_back(str("handler ", pos(h.start), "..", pos(h.end), " -> ", pos(h.handler)));
  }
  for (const cf::Attribute& attr : a.attributes) {
    std::string name(cls.pool.utf8(attr.name));
    if (auto* lnt = std::get_if<cf::LineNumberTableAttr>(&attr.body)) {
      for (auto& e : lnt->lines) out.push_back(str("line ", e.line, " -> ", pos(e.start)));
    } else if (auto* lvt = std::get_if<cf::LocalVariableTableAttr>(&attr.body)) {
      for (auto& v : lvt->vars) out.push_back(str("local ", v.slot, " ", pos(v.start), "..", pos(v.end)));
    } else if (auto* lvtt = std::get_if<cf::LocalVariableTypeTableAttr>(&attr.body)) {
      for (auto& v : lvtt->vars) out.push_back(str("ltype ", v.slot, " ", pos(v.start), "..", pos(v.end)));
    } else if (auto* smt = std::get_if<cf::StackMapTableAttr>(&attr.body)) {
      for (auto& fr : smt->frames) {
        out.push_back(str("frame -> ", pos(fr.at)));
        for (auto* list : {&fr.locals, &fr.stack}) {
          for (auto& v : *list) {
            if (v.kind == 8) out.push_back(str("uninitialized -> ", pos(v.newInsn)));
          }
        }
      }
    } else if (auto* ta = std::get_if<cf::RuntimeVisibleTypeAnnotationsAttr>(&attr.body)) {
      for (auto& t : ta->annotations) {
        if (t.offset != cf::Label::None) out.push_back(str("type annotation -> ", pos(t.offset)));
        for (auto& lv : t.localVars) {
          out.push_back(str("type annotation local ", pos(lv.start), "..", pos(lv.end)));
        }
      }
    } else {
      EXPECT_TRUE(std::holds_alternative<cf::RuntimeInvisibleTypeAnnotationsAttr>(attr.body))
          << "unexpected attribute in Code: " << name;
    }
  }
  return out;
}

void insertNopsAtStart(cf::Code& k, uint32_t n) {
  k.insns.insert(k.insns.begin(), n, cf::Insn{});
  for (uint32_t& p : k.labels) p += n;
}

TEST_F(JavacTest, InsertingInstructionsKeepsEveryReference) {
  std::string why;
  size_t methods = 0;
  for (const CompiledClass& c : javacClasses(&why)) {
    for (uint32_t n : {1u, 2u, 3u}) {
      SCOPED_TRACE(str(c.path, " +", n));
      auto original = cf::parseClass(c.bytes);
      ASSERT_TRUE(original.ok());
      cf::ClassFile edited = std::move(parseOk(c.bytes));
      std::vector<std::vector<std::string>> expected;
      for (cf::Member& m : edited.methods) {
        if (cf::CodeAttr* a = m.code()) {
          expected.push_back(references(edited, *a, n));
          insertNopsAtStart(a->code, n);
          ++methods;
        }
      }
      Bytes out = writeOk(edited);
      auto again = cf::parseClass(out);
      ASSERT_TRUE(again.ok()) << again.error().toString();
      size_t i = 0;
      for (size_t mi = 0; mi < again.value().methods.size(); ++mi) {
        const cf::CodeAttr* a = again.value().methods[mi].code();
        if (!a) continue;
        SCOPED_TRACE(again.value().memberName(again.value().methods[mi]));
        EXPECT_EQ(references(again.value(), *a, 0), expected.at(i++));
        // Same instructions, after n nops.
        const cf::Code& before = original.value().methods[mi].code()->code;
        ASSERT_EQ(a->code.insns.size(), before.insns.size() + n);
        for (size_t k = 0; k < before.insns.size(); ++k) {
          EXPECT_EQ(a->code.insns[k + n].op, before.insns[k].op);
          EXPECT_EQ(a->code.insns[k + n].wide, before.insns[k].wide);
        }
      }
    }
  }
  EXPECT_GT(methods, 50u);
}

TEST_F(JavacTest, StackMapFramesSitAtJumpTargets) {
  std::string why;
  size_t frames = 0, uninitialized = 0;
  for (const CompiledClass& c : javacClasses(&why)) {
    const cf::ClassFile& k = cls(c.path.substr(0, c.path.size() - 6));
    for (const cf::Member& m : k.methods) {
      const cf::CodeAttr* a = m.code();
      if (!a) continue;
      SCOPED_TRACE(str(c.path, " ", k.memberName(m)));
      std::set<uint32_t> targets;
      for (const cf::Insn& in : a->code.insns) {
        cf::Format f = cf::opInfo(in.op).format;
        if (f == cf::Format::Branch2 || f == cf::Format::Branch4) {
          targets.insert(a->code.position(in.target()));
        } else if (f == cf::Format::TableSwitch || f == cf::Format::LookupSwitch) {
          const cf::Switch& sw = a->code.switches.at(static_cast<size_t>(in.a));
          targets.insert(a->code.position(sw.defaultTarget));
          for (cf::Label l : sw.targets) targets.insert(a->code.position(l));
        }
      }
      for (const cf::ExceptionHandler& h : a->handlers) targets.insert(a->code.position(h.handler));
      const auto* smt = cf::findAttr<cf::StackMapTableAttr>(a->attributes);
      if (!smt) {
        EXPECT_TRUE(targets.empty());
        continue;
      }
      uint32_t last = 0;
      for (size_t i = 0; i < smt->frames.size(); ++i) {
        uint32_t p = a->code.position(smt->frames[i].at);
        EXPECT_EQ(targets.count(p), 1u) << "frame at instruction " << p;
        if (i > 0) {
          EXPECT_GT(p, last);
        }
        last = p;
        ++frames;
        for (const auto* list : {&smt->frames[i].locals, &smt->frames[i].stack}) {
          for (const cf::VType& v : *list) {
            if (v.kind == 7) {
              EXPECT_EQ(k.pool.tag(v.cls), cf::Tag::Class);
            }
            if (v.kind == 8) {
              EXPECT_EQ(a->code.insns.at(a->code.position(v.newInsn)).op, Op::new_);
              ++uninitialized;
            }
          }
        }
      }
      EXPECT_EQ(targets.size(), smt->frames.size());
    }
  }
  EXPECT_GT(frames, 20u);
  EXPECT_EQ(uninitialized, 4u);  // uninit(): two full frames, each with 2 on the stack
}

TEST_F(JavacTest, UninitializedFramesFollowTheirNewAfterAnEdit) {
  const cf::ClassFile& original = cls("dragnet/testdata/Features");
  std::string why;
  Bytes bytes;
  for (const CompiledClass& c : javacClasses(&why)) {
    if (c.path == "dragnet/testdata/Features.class") bytes = c.bytes;
  }
  cf::ClassFile edited = parseOk(bytes);
  for (cf::Member& m : edited.methods) {
    if (edited.memberName(m) == "uninit") insertNopsAtStart(m.code()->code, 2);
  }
  Bytes out = writeOk(edited);
  cf::ClassFile again = parseOk(out);
  const cf::CodeAttr& a = code(again, "uninit");
  ASSERT_EQ(a.code.insns.size(), code(original, "uninit").code.insns.size() + 2);
  const auto* smt = cf::findAttr<cf::StackMapTableAttr>(a.attributes);
  ASSERT_NE(smt, nullptr);
  ASSERT_EQ(smt->frames.size(), 2u);
  EXPECT_EQ(smt->frames[0].type, 255);
  ASSERT_EQ(smt->frames[0].stack.size(), 2u);
  EXPECT_EQ(smt->frames[0].stack[0].kind, 8);
  EXPECT_EQ(a.code.position(smt->frames[0].stack[0].newInsn), 2u);  // the new, after 2 nops
  EXPECT_EQ(a.code.insns[2].op, Op::new_);
}

}  // namespace
}  // namespace dragnet::test

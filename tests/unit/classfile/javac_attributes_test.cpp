// Model facts for javac output: each attribute kind javac emits decodes to what the source
// says (names, values, and label positions that land on the right instructions).
#include <gtest/gtest.h>

#include "../support/javac_fixture.h"

namespace dragnet::test {
namespace {

using cf::Op;

const std::string kShape = "dragnet/testdata/Shape";
const std::string kFeatures = "dragnet/testdata/Features";
const std::string kAnnotated = "dragnet/testdata/Annotated";

std::vector<std::string> classNames(const cf::ClassFile& c, const std::vector<cf::CpIndex>& v) {
  std::vector<std::string> out;
  for (cf::CpIndex i : v) out.emplace_back(c.pool.className(i));
  return out;
}

// Text of an element value, for compact comparisons.
std::string show(const cf::ClassFile& c, const cf::ElementValue& v);
std::string show(const cf::ClassFile& c, const cf::Annotation& a) {
  std::string s = str("@", c.pool.utf8(a.type), "(");
  for (size_t i = 0; i < a.pairs.size(); ++i) {
    s += str(i ? ", " : "", c.pool.utf8(a.pairs[i].first), "=", show(c, a.pairs[i].second));
  }
  return s + ")";
}
std::string show(const cf::ClassFile& c, const cf::ElementValue& v) {
  switch (v.tag) {
    case 'B': case 'C': case 'I': case 'S': case 'Z':
      return str(static_cast<char>(v.tag), c.pool.integer(v.a));
    case 'J': return str("J", c.pool.longValue(v.a));
    case 'F': return str("F", c.pool.floatValue(v.a));
    case 'D': return str("D", c.pool.doubleValue(v.a));
    case 's': return str("\"", c.pool.utf8(v.a), "\"");
    case 'e': return str(c.pool.utf8(v.a), ".", c.pool.utf8(v.b));
    case 'c': return str(c.pool.utf8(v.a), ".class");
    case '@': return show(c, v.nested.at(0));
    case '[': {
      std::string s = "[";
      for (size_t i = 0; i < v.values.size(); ++i) s += str(i ? ", " : "", show(c, v.values[i]));
      return s + "]";
    }
  }
  return "?";
}

TEST_F(JavacTest, RecordComponents) {
  const cf::ClassFile& circle = cls(kShape + "$Circle");
  auto* rec = cf::findAttr<cf::RecordAttr>(circle.attributes);
  ASSERT_NE(rec, nullptr);
  ASSERT_EQ(rec->components.size(), 1u);
  EXPECT_EQ(circle.pool.utf8(rec->components[0].name), "radius");
  EXPECT_EQ(circle.pool.utf8(rec->components[0].descriptor), "D");
  EXPECT_EQ(circle.pool.className(circle.superClass), "java/lang/Record");

  const cf::ClassFile& pair = cls(kShape + "$Pair");
  auto* prec = cf::findAttr<cf::RecordAttr>(pair.attributes);
  ASSERT_NE(prec, nullptr);
  ASSERT_EQ(prec->components.size(), 2u);
  const auto& first = prec->components[0];
  const auto& second = prec->components[1];
  EXPECT_EQ(pair.pool.utf8(first.name), "first");
  EXPECT_EQ(pair.pool.utf8(first.descriptor), "Ljava/lang/Object;");
  auto* sig = cf::findAttr<cf::SignatureAttr>(first.attributes);
  ASSERT_NE(sig, nullptr);
  EXPECT_EQ(pair.pool.utf8(sig->signature), "TA;");
  auto* rva = cf::findAttr<cf::RuntimeVisibleAnnotationsAttr>(first.attributes);
  ASSERT_NE(rva, nullptr);
  ASSERT_EQ(rva->annotations.size(), 1u);
  EXPECT_EQ(pair.pool.utf8(rva->annotations[0].type), "Ldragnet/testdata/Shape$Component;");
  EXPECT_EQ(pair.pool.utf8(second.name), "second");
  auto* sig2 = cf::findAttr<cf::SignatureAttr>(second.attributes);
  ASSERT_NE(sig2, nullptr);
  EXPECT_EQ(pair.pool.utf8(sig2->signature), "Ljava/util/List<TB;>;");
  auto* csig = cf::findAttr<cf::SignatureAttr>(pair.attributes);
  ASSERT_NE(csig, nullptr);
  EXPECT_EQ(pair.pool.utf8(csig->signature),
            "<A:Ljava/lang/Object;B:Ljava/lang/Object;>Ljava/lang/Record;");
}

TEST_F(JavacTest, SealedAndNest) {
  const cf::ClassFile& shape = cls(kShape);
  auto* permitted = cf::findAttr<cf::PermittedSubclassesAttr>(shape.attributes);
  ASSERT_NE(permitted, nullptr);
  EXPECT_EQ(classNames(shape, permitted->entries),
            (std::vector<std::string>{kShape + "$Circle", kShape + "$Square"}));
  auto* members = cf::findAttr<cf::NestMembersAttr>(shape.attributes);
  ASSERT_NE(members, nullptr);
  auto names = classNames(shape, members->entries);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{kShape + "$Circle", kShape + "$Component",
                                             kShape + "$Pair", kShape + "$Square"}));
  const cf::ClassFile& square = cls(kShape + "$Square");
  auto* host = cf::findAttr<cf::NestHostAttr>(square.attributes);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(square.pool.className(host->host), kShape);
  auto* inner = cf::findAttr<cf::InnerClassesAttr>(square.attributes);
  ASSERT_NE(inner, nullptr);
  bool found = false;
  for (const auto& e : inner->classes) {
    if (square.pool.className(e.inner) != kShape + "$Square") continue;
    found = true;
    EXPECT_EQ(square.pool.className(e.outer), kShape);
    EXPECT_EQ(square.pool.utf8(e.name), "Square");
    EXPECT_EQ(e.flags & 0x0018, 0x0018);  // static final
  }
  EXPECT_TRUE(found);
  // Records get equals/hashCode/toString through ObjectMethods.bootstrap.
  const cf::ClassFile& circle = cls(kShape + "$Circle");
  auto* bsm = cf::findAttr<cf::BootstrapMethodsAttr>(circle.attributes);
  ASSERT_NE(bsm, nullptr);
  ASSERT_FALSE(bsm->methods.empty());
  cf::CpIndex ref{circle.pool[bsm->methods[0].handle].a};
  EXPECT_EQ(circle.pool.memberRef(ref).owner, "java/lang/runtime/ObjectMethods");
  EXPECT_EQ(circle.pool.memberRef(ref).name, "bootstrap");
}

TEST_F(JavacTest, AnnotationWithEveryElementKind) {
  const cf::ClassFile& c = cls(kAnnotated);
  auto* rva = cf::findAttr<cf::RuntimeVisibleAnnotationsAttr>(c.attributes);
  ASSERT_NE(rva, nullptr);
  ASSERT_EQ(rva->annotations.size(), 1u);
  EXPECT_EQ(show(c, rva->annotations[0]),
            "@Ldragnet/testdata/Everything;(s=S-3, i=I100000, j=J1099511627776, f=F1.5, d=D2.25, "
            "z=Z1, str=\"hello\", e=Ldragnet/testdata/Color;.GREEN, cls=Ljava/lang/String;.class, "
            "nested=@Ldragnet/testdata/Everything$Nested;(value=\"inner\"), ints=[I1, I2, I3], "
            "nesteds=[@Ldragnet/testdata/Everything$Nested;(), "
            "@Ldragnet/testdata/Everything$Nested;(value=\"second\")])");
  auto* ria = cf::findAttr<cf::RuntimeInvisibleAnnotationsAttr>(c.attributes);
  ASSERT_NE(ria, nullptr);
  EXPECT_EQ(show(c, ria->annotations.at(0)), "@Ldragnet/testdata/Annotated$Invisible;()");

  const cf::ClassFile& everything = cls("dragnet/testdata/Everything");
  EXPECT_EQ(everything.access & 0x2000, 0x2000);  // ACC_ANNOTATION
  auto def = [&](std::string_view m) {
    auto* d = cf::findAttr<cf::AnnotationDefaultAttr>(method(everything, m).attributes);
    return d ? show(everything, d->value) : std::string("<none>");
  };
  EXPECT_EQ(def("b"), "B1");
  EXPECT_EQ(def("c"), "C120");
  EXPECT_EQ(def("s"), "<none>");
}

TEST_F(JavacTest, TypeAnnotationOnACast) {
  const cf::ClassFile& c = cls(kAnnotated);
  const cf::CodeAttr& a = code(c, "cast");
  auto* tas = cf::findAttr<cf::RuntimeVisibleTypeAnnotationsAttr>(a.attributes);
  ASSERT_NE(tas, nullptr);
  ASSERT_EQ(tas->annotations.size(), 1u);
  const cf::TypeAnnotation& t = tas->annotations[0];
  EXPECT_EQ(t.targetType, 0x47);
  EXPECT_EQ(t.index2, 0);
  const cf::Insn& target = a.code.insns.at(a.code.position(t.offset));
  EXPECT_EQ(target.op, Op::checkcast);
  EXPECT_EQ(c.pool.className(target.cp()), "java/lang/String");
  EXPECT_EQ(show(c, t.annotation), "@Ldragnet/testdata/Annotated$TA;(value=I1)");
}

TEST_F(JavacTest, TypeAnnotationsOnALocalAndACatch) {
  const cf::ClassFile& c = cls(kAnnotated);
  const cf::CodeAttr& local = code(c, "local");
  auto* tas = cf::findAttr<cf::RuntimeVisibleTypeAnnotationsAttr>(local.attributes);
  ASSERT_NE(tas, nullptr);
  const cf::TypeAnnotation& t = tas->annotations.at(0);
  EXPECT_EQ(t.targetType, 0x40);
  ASSERT_EQ(t.localVars.size(), 1u);
  // The same range as the LocalVariableTable entry for `s`.
  auto* lvt = cf::findAttr<cf::LocalVariableTableAttr>(local.attributes);
  ASSERT_NE(lvt, nullptr);
  const cf::LocalVariableTableAttr::Entry* s = nullptr;
  for (const auto& v : lvt->vars) {
    if (c.pool.utf8(v.name) == "s") s = &v;
  }
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(t.localVars[0].index, s->slot);
  EXPECT_EQ(local.code.position(t.localVars[0].start), local.code.position(s->start));
  EXPECT_EQ(local.code.position(t.localVars[0].end), local.code.position(s->end));
  EXPECT_EQ(local.code.insns.at(local.code.position(s->start) - 1).op, Op::astore_1);

  const cf::CodeAttr& catching = code(c, "catching");
  auto* cas = cf::findAttr<cf::RuntimeVisibleTypeAnnotationsAttr>(catching.attributes);
  ASSERT_NE(cas, nullptr);
  const cf::TypeAnnotation& ct = cas->annotations.at(0);
  EXPECT_EQ(ct.targetType, 0x42);
  ASSERT_LT(ct.index, catching.handlers.size());
  EXPECT_EQ(c.pool.className(catching.handlers[ct.index].catchType), "java/lang/RuntimeException");
}

TEST_F(JavacTest, LocalVariablesAndLineNumbers) {
  const cf::ClassFile& c = cls(kFeatures);
  const cf::CodeAttr& a = code(c, "lines");
  const cf::Code& k = a.code;
  auto* lvt = cf::findAttr<cf::LocalVariableTableAttr>(a.attributes);
  ASSERT_NE(lvt, nullptr);
  ASSERT_EQ(lvt->vars.size(), 2u);
  for (const auto& v : lvt->vars) {
    std::string_view name = c.pool.utf8(v.name);
    EXPECT_EQ(c.pool.utf8(v.descriptor), "I");
    EXPECT_EQ(k.position(v.end), k.insns.size()) << name;  // live to the end
    if (name == "x") {
      EXPECT_EQ(v.slot, 0);
      EXPECT_EQ(k.position(v.start), 0u);
    } else {
      EXPECT_EQ(name, "y");
      EXPECT_EQ(v.slot, 1);
      EXPECT_EQ(k.insns.at(k.position(v.start) - 1).op, Op::istore_1);
    }
  }
  auto* lnt = cf::findAttr<cf::LineNumberTableAttr>(a.attributes);
  ASSERT_NE(lnt, nullptr);
  const std::string src = "dragnet/testdata/Features.java";
  int line1 = sourceLine(src, "@line lines.1"), line2 = sourceLine(src, "@line lines.2");
  ASSERT_GT(line1, 0);
  ASSERT_EQ(lnt->lines.size(), 2u);
  EXPECT_EQ(lnt->lines[0].line, line1);
  EXPECT_EQ(k.position(lnt->lines[0].start), 0u);
  EXPECT_EQ(lnt->lines[1].line, line2);
  EXPECT_EQ(k.insns.at(k.position(lnt->lines[1].start)).op, Op::iload_1);  // return y * 2

  // javac copies the finally block: once on the normal path (starting at the getstatic of
  // System.out) and once in the catch-any handler (starting at the handler's astore).
  const cf::CodeAttr& tf = code(c, "tryFinally");
  auto* tl = cf::findAttr<cf::LineNumberTableAttr>(tf.attributes);
  ASSERT_NE(tl, nullptr);
  std::vector<uint32_t> copies;
  for (const auto& e : tl->lines) {
    if (e.line == sourceLine(src, "@line finally")) copies.push_back(tf.code.position(e.start));
  }
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(tf.code.insns.at(copies[0]).op, Op::getstatic);
  const cf::ExceptionHandler* any = nullptr;
  for (const auto& h : tf.handlers) {
    if (h.catchType == cf::CpIndex::None) any = &h;
  }
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(copies[1], tf.code.position(any->handler));
  EXPECT_EQ(tf.code.insns.at(copies[1]).op, Op::astore_2);
}

TEST_F(JavacTest, MethodParametersAndParameterAnnotations) {
  const cf::ClassFile& c = cls(kAnnotated);
  const cf::Member& m = method(c, "params");
  auto* mp = cf::findAttr<cf::MethodParametersAttr>(m.attributes);
  ASSERT_NE(mp, nullptr);
  ASSERT_EQ(mp->parameters.size(), 2u);
  EXPECT_EQ(c.pool.utf8(mp->parameters[0].name), "first");
  EXPECT_EQ(c.pool.utf8(mp->parameters[1].name), "second");
  EXPECT_EQ(mp->parameters[0].flags, 0);
  auto* vis = cf::findAttr<cf::RuntimeVisibleParameterAnnotationsAttr>(m.attributes);
  auto* inv = cf::findAttr<cf::RuntimeInvisibleParameterAnnotationsAttr>(m.attributes);
  ASSERT_NE(vis, nullptr);
  ASSERT_NE(inv, nullptr);
  ASSERT_EQ(vis->parameters.size(), 2u);
  ASSERT_EQ(inv->parameters.size(), 2u);
  ASSERT_EQ(vis->parameters[0].size(), 1u);
  EXPECT_EQ(c.pool.utf8(vis->parameters[0][0].type), "Ldragnet/testdata/Annotated$Visible;");
  EXPECT_TRUE(vis->parameters[1].empty());
  EXPECT_TRUE(inv->parameters[0].empty());
  ASSERT_EQ(inv->parameters[1].size(), 1u);
  EXPECT_EQ(c.pool.utf8(inv->parameters[1][0].type), "Ldragnet/testdata/Annotated$Invisible;");
}

TEST_F(JavacTest, GenericSignatures) {
  const cf::ClassFile& c = cls(kFeatures);
  const cf::Member& m = method(c, "max");
  auto* sig = cf::findAttr<cf::SignatureAttr>(m.attributes);
  ASSERT_NE(sig, nullptr);
  EXPECT_EQ(c.pool.utf8(sig->signature),
            "<T::Ljava/lang/Comparable<TT;>;>(Ljava/util/List<+TT;>;)TT;");
  auto* lvtt = cf::findAttr<cf::LocalVariableTypeTableAttr>(m.code()->attributes);
  ASSERT_NE(lvtt, nullptr);
  std::map<std::string, std::string> sigs;
  for (const auto& v : lvtt->vars) sigs[std::string(c.pool.utf8(v.name))] = c.pool.utf8(v.descriptor);
  EXPECT_EQ(sigs["list"], "Ljava/util/List<+TT;>;");
  EXPECT_EQ(sigs["best"], "TT;");
  EXPECT_EQ(sigs["t"], "TT;");
  const cf::ClassFile& color = cls("dragnet/testdata/Color");
  auto* csig = cf::findAttr<cf::SignatureAttr>(color.attributes);
  ASSERT_NE(csig, nullptr);
  EXPECT_EQ(color.pool.utf8(csig->signature), "Ljava/lang/Enum<Ldragnet/testdata/Color;>;");
  EXPECT_EQ(color.access & 0x4000, 0x4000);  // ACC_ENUM
}

TEST_F(JavacTest, InvokedynamicAndBootstrapMethods) {
  const cf::ClassFile& c = cls(kFeatures);
  auto* bsm = cf::findAttr<cf::BootstrapMethodsAttr>(c.attributes);
  ASSERT_NE(bsm, nullptr);
  auto bootstrapOf = [&](std::string_view methodName) -> const cf::BootstrapMethodsAttr::Method* {
    for (const cf::Insn& in : code(c, methodName).code.insns) {
      if (in.op != Op::invokedynamic) continue;
      EXPECT_EQ(c.pool.tag(in.cp()), cf::Tag::InvokeDynamic);
      return &bsm->methods.at(c.pool[in.cp()].a);
    }
    return nullptr;
  };
  auto* lambda = bootstrapOf("lambda");
  ASSERT_NE(lambda, nullptr);
  const cf::CpEntry& handle = c.pool[lambda->handle];
  EXPECT_EQ(handle.refKind, static_cast<uint8_t>(cf::RefKind::InvokeStatic));
  EXPECT_EQ(c.pool.memberRef(cf::CpIndex{handle.a}).owner, "java/lang/invoke/LambdaMetafactory");
  EXPECT_EQ(c.pool.memberRef(cf::CpIndex{handle.a}).name, "metafactory");
  ASSERT_EQ(lambda->args.size(), 3u);
  EXPECT_EQ(c.pool.tag(lambda->args[0]), cf::Tag::MethodType);
  EXPECT_EQ(c.pool.tag(lambda->args[1]), cf::Tag::MethodHandle);
  EXPECT_EQ(c.pool.tag(lambda->args[2]), cf::Tag::MethodType);
  auto* concat = bootstrapOf("concat");
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(c.pool.memberRef(cf::CpIndex{c.pool[concat->handle].a}).name, "makeConcatWithConstants");
  ASSERT_EQ(concat->args.size(), 1u);
  EXPECT_EQ(c.pool.utf8(cf::CpIndex{c.pool[concat->args[0]].a}), "\x01\x01");
}

TEST_F(JavacTest, Switches) {
  const cf::ClassFile& c = cls(kFeatures);
  const cf::Code& s = code(c, "stringSwitch").code;
  const cf::Switch* first = nullptr;
  for (size_t i = 0; i < s.insns.size() && !first; ++i) {
    if (s.insns[i].op != Op::lookupswitch) continue;
    first = &s.switches.at(static_cast<size_t>(s.insns[i].a));
    EXPECT_EQ(s.insns.at(i - 1).op, Op::invokevirtual);
    EXPECT_EQ(c.pool.memberRef(s.insns[i - 1].cp()).name, "hashCode");
  }
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->keys, (std::vector<int32_t>{'a', 'b'}));

  const cf::Code& t = code(c, "tableSwitch").code;
  ASSERT_EQ(t.insns.at(1).op, Op::tableswitch);
  const cf::Switch& ts = t.switches.at(static_cast<size_t>(t.insns[1].a));
  EXPECT_EQ(ts.low, 10);
  ASSERT_EQ(ts.targets.size(), 4u);
  EXPECT_EQ(t.insns.at(t.position(ts.targets[0])).op, Op::iconst_5);
  for (int i = 1; i < 4; ++i) {
    const cf::Insn& in = t.insns.at(t.position(ts.targets[static_cast<size_t>(i)]));
    EXPECT_EQ(in.op, Op::bipush);
    EXPECT_EQ(in.a, 5 + 2 * i);
  }
  EXPECT_EQ(t.insns.at(t.position(ts.defaultTarget)).op, Op::iconst_m1);
}

TEST_F(JavacTest, MiscellaneousAttributesAndInstructions) {
  const cf::ClassFile& c = cls(kFeatures);
  auto* sf = cf::findAttr<cf::SourceFileAttr>(c.attributes);
  ASSERT_NE(sf, nullptr);
  EXPECT_EQ(c.pool.utf8(sf->file), "Features.java");
  auto* cv = cf::findAttr<cf::ConstantValueAttr>(field(c, "CONST").attributes);
  ASSERT_NE(cv, nullptr);
  EXPECT_EQ(c.pool.integer(cv->value), 42);
  auto* scv = cf::findAttr<cf::ConstantValueAttr>(field(c, "SCONST").attributes);
  ASSERT_NE(scv, nullptr);
  EXPECT_EQ(c.pool.tag(scv->value), cf::Tag::String);
  auto* ex = cf::findAttr<cf::ExceptionsAttr>(method(c, "throwsIt").attributes);
  ASSERT_NE(ex, nullptr);
  EXPECT_EQ(classNames(c, ex->entries), (std::vector<std::string>{"java/io/IOException"}));
  EXPECT_NE(cf::findAttr<cf::DeprecatedAttr>(method(c, "old").attributes), nullptr);
  auto* dep = cf::findAttr<cf::RuntimeVisibleAnnotationsAttr>(method(c, "old").attributes);
  ASSERT_NE(dep, nullptr);
  EXPECT_EQ(c.pool.utf8(dep->annotations.at(0).type), "Ljava/lang/Deprecated;");

  const cf::ClassFile& anon = cls(kFeatures + "$1");
  auto* em = cf::findAttr<cf::EnclosingMethodAttr>(anon.attributes);
  ASSERT_NE(em, nullptr);
  EXPECT_EQ(anon.pool.className(em->cls), kFeatures);
  auto nat = anon.pool.nameAndType(em->method);
  EXPECT_EQ(nat.first, "anon");
  EXPECT_EQ(nat.second, "()Ljava/lang/Object;");
  auto* nm = cf::findAttr<cf::NestMembersAttr>(c.attributes);
  ASSERT_NE(nm, nullptr);
  EXPECT_EQ(nm->entries.size(), 2u);

  bool wideIinc = false;
  for (const cf::Insn& in : code(c, "wideLocals").code.insns) {
    if (in.op == Op::iinc && in.wide) wideIinc = in.b == 200;
  }
  EXPECT_TRUE(wideIinc);
  const cf::Code& arrays = code(c, "arrays").code;
  bool multi = false, newarray = false;
  for (const cf::Insn& in : arrays.insns) {
    if (in.op == Op::multianewarray) multi = in.b == 2 && c.pool.className(in.cp()) == "[[I";
    if (in.op == Op::newarray) newarray = in.a == 10;  // T_INT
  }
  EXPECT_TRUE(multi);
  EXPECT_TRUE(newarray);
  int monitors = 0;
  for (const cf::Insn& in : code(c, "sync").code.insns) {
    monitors += in.op == Op::monitorenter || in.op == Op::monitorexit;
  }
  EXPECT_EQ(monitors, 3);  // enter, exit on the normal path, exit in the handler
}

TEST_F(JavacTest, ModuleInfo) {
  const cf::ClassFile& c = cls("module-info");
  EXPECT_EQ(c.access, 0x8000);
  EXPECT_EQ(c.superClass, cf::CpIndex::None);
  auto* mod = cf::findAttr<cf::ModuleAttr>(c.attributes);
  ASSERT_NE(mod, nullptr);
  auto name = [&](cf::CpIndex i) { return std::string(c.pool.utf8(cf::CpIndex{c.pool[i].a})); };
  EXPECT_EQ(name(mod->name), "dragnet.testdata");
  std::map<std::string, uint16_t> requires_;
  for (const auto& r : mod->requires_) requires_[name(r.module)] = r.flags;
  ASSERT_EQ(requires_.size(), 2u);
  EXPECT_EQ(requires_["java.base"] & 0x8000, 0x8000);  // ACC_MANDATED
  EXPECT_EQ(requires_.count("java.logging"), 1u);
  ASSERT_EQ(mod->exports.size(), 1u);
  EXPECT_EQ(name(mod->exports[0].package), "dragnet/testdata");
  EXPECT_TRUE(mod->exports[0].to.empty());
  ASSERT_EQ(mod->opens.size(), 1u);
  EXPECT_EQ(name(mod->opens[0].package), "dragnet/testdata/internal");
  ASSERT_EQ(mod->opens[0].to.size(), 1u);
  EXPECT_EQ(name(mod->opens[0].to[0]), "java.logging");
  EXPECT_EQ(classNames(c, mod->uses), (std::vector<std::string>{"dragnet/testdata/Service"}));
  ASSERT_EQ(mod->provides.size(), 1u);
  EXPECT_EQ(c.pool.className(mod->provides[0].service), "dragnet/testdata/Service");
  EXPECT_EQ(classNames(c, mod->provides[0].with),
            (std::vector<std::string>{"dragnet/testdata/internal/ServiceImpl"}));
}

}  // namespace
}  // namespace dragnet::test

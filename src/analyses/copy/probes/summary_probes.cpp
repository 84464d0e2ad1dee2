#include "analyses/copy/probes/summary_probes.h"

#include <string>
#include <vector>

#include "analyses/copy/probes/instrumenter.h"
#include "contexts/probes.h"
#include "instrument/descriptor.h"

namespace dragnet::analyses::copy {

using classfile::Op;
using flow::Shadow;
using flow::Summary;
using instrument::Patch;
using K = flow::Summary::Kind;

namespace {

const std::string kState = contexts::kStateDesc;

// The produced local of the call's result, or kNoLocal.
uint16_t result(const MethodProbes& m, uint32_t i) { return m.plan.produced[i]; }

void consumeArgs(MethodProbes& m, uint32_t i, const flow::CallArgs& a, flow::ArgMask mask) {
  Patch p = m.r.newPatch();
  for (size_t k = 0; k < a.shadow.size(); ++k) {
    if ((mask >> k & 1) != 0) useShadow(p, a.shadow[k], m);
  }
  if (!p.empty()) m.r.before(i, p);
}

// After the call: (tag(array), ELM) -> C once for each array in `mask`.
void consumeElements(MethodProbes& m, Patch& after, const flow::CallArgs& a, const std::vector<uint16_t>& l,
                     flow::ArgMask mask) {
  for (size_t k = 0; k < a.desc.size(); ++k) {
    if ((mask >> k & 1) == 0 || a.desc[k] != kObjectDesc) continue;
    loadState(after, m).load(kObjectDesc, l[k]);
    loadState(after, m).invokeStatic(kFlowClass, "elm", "(Ljava/lang/Object;" + kState + ")J");
    callRecord(after, "use");
  }
}

}  // namespace

void applySummary(MethodProbes& m, uint32_t i, const Summary& s) {
  flow::CallArgs a = flow::callArgs(m, i);
  if (!a.ok) return;
  // The callee takes no transfer; an override that does finds none.
  Patch clear = m.r.newPatch();
  loadState(clear, m).invokeStatic(kFlowClass, "call0", "(" + kState + ")V");
  m.r.before(i, clear);
  consumeArgs(m, i, a, s.consumed);
  bool needArgs = s.kind == K::ArrayCopy || s.kind == K::CopyOf || s.kind == K::LoadField ||
                  (s.kind == K::Consume && s.elements != 0);
  std::vector<uint16_t> l = needArgs ? flow::parkArgs(m, i, a) : std::vector<uint16_t>{};
  uint16_t out = result(m, i);
  Patch after = m.r.newPatch();
  switch (s.kind) {
    case K::ArrayCopy:
      if (s.rawUnits || !flow::isRefArg(s.src, a) || !flow::isRefArg(s.dst, a) || !flow::hasArg(s.length, a)) break;
      loadState(after, m).load(kObjectDesc, l[static_cast<size_t>(s.src)]);
      after.load(kObjectDesc, l[static_cast<size_t>(s.dst)])
          .load("I", l[static_cast<size_t>(s.length)]);
      after.invokeStatic(kCopyClass, "arraycopy",
                         "(" + kState + "Ljava/lang/Object;Ljava/lang/Object;I)V");
      break;
    case K::CopyOf: {
      auto site = m.sites.find(i);
      if (!flow::isRefArg(s.src, a) || site == m.sites.end()) break;
      after.add(Op::dup);
      loadState(after, m).load(kObjectDesc, l[static_cast<size_t>(s.src)]);
      if (flow::hasArg(s.srcPos, a)) {
        after.load("I", l[static_cast<size_t>(s.srcPos)]);
      } else {
        after.add(Op::iconst_0);
      }
      after.pushInt(static_cast<int32_t>(site->second));
      pushContext(after, m);
      after.invokeStatic(kCopyClass, "copyOf",
                         "(Ljava/lang/Object;" + kState + "Ljava/lang/Object;III)J");
      if (out != kNoLocal) {
        after.store("J", out);
        out = kNoLocal;
      } else {
        after.add(Op::pop2);
      }
      break;
    }
    case K::Allocate: {
      auto site = m.sites.find(i);
      if (out == kNoLocal || site == m.sites.end()) break;
      after.add(Op::dup);
      loadState(after, m).pushInt(static_cast<int32_t>(site->second));
      pushContext(after, m);
      after.invokeStatic(kFlowClass, "newArray", "(Ljava/lang/Object;" + kState + "II)J");
      after.store("J", out);
      out = kNoLocal;
      break;
    }
    case K::LoadField: {
      if (out == kNoLocal || !flow::isRefArg(s.src, a)) break;
      size_t dot = s.field.find('.'), colon = s.field.find(':');
      if (dot == std::string_view::npos || colon == std::string_view::npos) break;
      std::string_view owner = s.field.substr(0, dot);
      uint32_t f = m.ids.field(owner, s.field.substr(dot + 1, colon - dot - 1),
                               s.field.substr(colon + 1), false);
      after.load(kObjectDesc, l[static_cast<size_t>(s.src)]);
      pushTag(after, "[", m);  // the side table: the owner may be denied
      composeNode(after, f).store("J", out);
      out = kNoLocal;
      break;
    }
    case K::PassThrough:
      if (out == kNoLocal || !flow::hasArg(s.src, a)) break;
      pushShadow(after, a.shadow[static_cast<size_t>(s.src)], m).store("J", out);
      out = kNoLocal;
      break;
    case K::Consume:
      consumeElements(m, after, a, l, s.elements);
      if (out != kNoLocal && s.resultIsObject) {
        after.add(Op::dup);
        loadState(after, m).invokeStatic(kFlowClass, "nodeOf",
                                         "(Ljava/lang/Object;" + kState + ")J");
        after.store("J", out);
        out = kNoLocal;
      }
      break;
    default:  // CloneObject (the clone probe), Accessor, Opaque
      break;
  }
  if (out != kNoLocal) after.add(Op::lconst_0).store("J", out);
  if (!after.empty()) m.r.after(i, after);
}

}  // namespace dragnet::analyses::copy

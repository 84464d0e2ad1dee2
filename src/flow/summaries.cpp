#include "flow/summaries.h"

#include "instrument/descriptor.h"

namespace dragnet::flow {

namespace {

using K = Summary::Kind;

// How an entry's owner matches a call's Methodref owner.
enum class Owner : uint8_t {
  Exact,
  OrArray,  // also an array type: calls of Object's non-final methods on arrays
  Any,      // any class: final methods of java/lang/Object
};

// Masks an entry leaves to the descriptor: primitive arguments consumed, the elements of
// array arguments read. Accessors instead name their value arguments: the last `trailing`.
constexpr ArgMask kDerived = ~ArgMask{0};

struct Entry {
  std::string_view owner;
  std::string_view name;  // a prefix when it ends in '*'
  std::string_view desc;  // a prefix when it ends in '*'; empty: any
  bool instance;          // argument 0 is the receiver
  Summary s;
  Owner match = Owner::Exact;
  int8_t trailing = -1;  // Accessor: the last `trailing` arguments are its values
};

constexpr ArgMask args(std::initializer_list<int> positions) {
  ArgMask m = 0;
  for (int p : positions) m |= ArgMask{1} << p;
  return m;
}

constexpr Summary consume(ArgMask elements = kDerived, ArgMask consumed = kDerived) {
  Summary s;
  s.kind = K::Consume;
  s.consumed = consumed;
  s.elements = elements;
  return s;
}
constexpr Summary consumeMakingResult(ArgMask elements) {
  Summary s = consume(elements);
  s.resultIsObject = true;
  return s;
}
constexpr Summary opaque() { return Summary{}; }
constexpr Summary allocate() {
  Summary s;
  s.kind = K::Allocate;
  s.newObject = true;
  return s;
}
constexpr Summary passThrough(int8_t arg, ArgMask consumed = 0) {
  Summary s;
  s.kind = K::PassThrough;
  s.src = arg;
  s.consumed = consumed;
  return s;
}
constexpr Summary arrayCopy(int8_t src, int8_t srcPos, int8_t dst, int8_t dstPos, int8_t length,
                            bool raw) {
  Summary s;
  s.kind = K::ArrayCopy;
  s.src = src;
  s.srcPos = srcPos;
  s.dst = dst;
  s.dstPos = dstPos;
  s.length = length;
  s.rawUnits = raw;
  return s;
}
constexpr Summary copyOf(int8_t srcPos) {
  Summary s;
  s.kind = K::CopyOf;
  s.src = 0;
  s.srcPos = srcPos;
  s.newObject = true;
  return s;
}
constexpr Summary cloneObject() {
  Summary s;
  s.kind = K::CloneObject;
  s.src = 0;
  s.newObject = true;
  return s;
}
constexpr Summary loadField(std::string_view field) {
  Summary s;
  s.kind = K::LoadField;
  s.src = 0;
  s.field = field;
  return s;
}
// Unsafe's instance accessors (receiver, Object o, long offset, values...).
constexpr Summary unsafeAccess(ArgMask values) {
  Summary s;
  s.kind = K::Accessor;
  s.base = 1;
  s.offset = 2;
  s.consumed = values;
  return s;
}
// java.lang.reflect.Array's element accessors (Object array, int index, values...).
constexpr Summary arrayAccess(ArgMask values) {
  Summary s;
  s.kind = K::Accessor;
  s.base = 0;
  s.offset = 1;
  s.consumed = values;
  return s;
}
// VarHandle's access modes: the coordinates (an object, an array and an index, or none)
// are known only at run time; the values are the last arguments.
constexpr Summary varHandleAccess() {
  Summary s;
  s.kind = K::Accessor;
  return s;
}

constexpr bool S = false, I = true;  // static, instance

constexpr std::string_view kUnsafe = "jdk/internal/misc/Unsafe";
constexpr std::string_view kObjJ = "(Ljava/lang/Object;J*";
constexpr std::string_view kVarHandle = "java/lang/invoke/VarHandle";

// The table. Order matters where patterns overlap: the first match wins.
const Entry kEntries[] = {
    // --- Copies ---------------------------------------------------------------------------
    {"java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", S,
     arrayCopy(0, 1, 2, 3, 4, false)},
    {kUnsafe, "copyMemory0", "(Ljava/lang/Object;JLjava/lang/Object;JJ)V", I,
     arrayCopy(1, 2, 3, 4, 5, true)},
    {"java/lang/Object", "clone", "()Ljava/lang/Object;", I, cloneObject(), Owner::OrArray},
    // Every overload, intrinsic or not, so that the copy is named by its caller's call site.
    {"java/util/Arrays", "copyOf", "", S, copyOf(kNone)},
    {"java/util/Arrays", "copyOfRange", "", S, copyOf(1)},

    // --- Allocations --------------------------------------------------------------------
    {"java/lang/reflect/Array", "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;", S,
     allocate()},
    {"java/lang/reflect/Array", "newInstance", "", S, allocate()},
    {"java/lang/reflect/Array", "multiNewArray", "", S, allocate()},
    {kUnsafe, "allocateInstance", "(Ljava/lang/Class;)Ljava/lang/Object;", I, allocate()},
    {kUnsafe, "allocateUninitializedArray0", "(Ljava/lang/Class;I)Ljava/lang/Object;", I,
     allocate()},

    // --- Loads and values passed through -------------------------------------------------
    {"java/lang/ref/Reference", "get", "()Ljava/lang/Object;", I,
     loadField("java/lang/ref/Reference.referent:Ljava/lang/Object;")},
    {"java/lang/Class", "cast", "(Ljava/lang/Object;)Ljava/lang/Object;", I, passThrough(1)},
    {"java/nio/Buffer", "checkIndex", "(I)I", I, passThrough(1, args({1}))},
    {"jdk/internal/util/Preconditions", "checkIndex", "", S, passThrough(0, args({0, 1}))},

    // --- Heap accesses by offset (v1: values consumed, counted) ------------------------------
    {kUnsafe, "compareAndSet*", kObjJ, I, unsafeAccess(args({3, 4}))},
    {kUnsafe, "compareAndExchange*", kObjJ, I, unsafeAccess(args({3, 4}))},
    {kUnsafe, "weakCompareAndSet*", kObjJ, I, unsafeAccess(args({3, 4}))},
    {kUnsafe, "getAnd*", kObjJ, I, unsafeAccess(args({3}))},
    {kUnsafe, "get*", kObjJ, I, unsafeAccess(0)},
    {kUnsafe, "put*", kObjJ, I, unsafeAccess(args({3}))},
    {kUnsafe, "setMemory0", "(Ljava/lang/Object;JJB)V", I, consume(0, args({4}))},
    {"java/lang/reflect/Array", "get*", "(Ljava/lang/Object;I)*", S, arrayAccess(0)},
    {"java/lang/reflect/Array", "set*", "(Ljava/lang/Object;I*", S, arrayAccess(args({2}))},
    {kVarHandle, "compareAnd*", "", I, varHandleAccess(), Owner::Exact, 2},
    {kVarHandle, "weakCompareAndSet*", "", I, varHandleAccess(), Owner::Exact, 2},
    {kVarHandle, "getAnd*", "", I, varHandleAccess(), Owner::Exact, 1},
    {kVarHandle, "get*", "", I, varHandleAccess(), Owner::Exact, 0},
    {kVarHandle, "set*", "", I, varHandleAccess(), Owner::Exact, 1},

    // --- Computations over arrays: elements read (outputs left out) ------------------------
    {"java/lang/StringLatin1", "compareTo", "", S, consume()},
    {"java/lang/StringLatin1", "compareToUTF16", "", S, consume()},
    {"java/lang/StringLatin1", "equals", "([B[B)Z", S, consume()},
    {"java/lang/StringLatin1", "indexOf", "", S, consume()},
    {"java/lang/StringLatin1", "indexOfChar", "", S, consume()},
    // Widening to UTF-16 changes the representation: a computation, not a copy.
    {"java/lang/StringLatin1", "inflate", "([BI[BII)V", S, consume(args({0}))},
    {"java/lang/StringLatin1", "inflate", "([BI[CII)V", S, consume(args({0}))},
    {"java/lang/StringUTF16", "compareTo", "", S, consume()},
    {"java/lang/StringUTF16", "compareToLatin1", "", S, consume()},
    {"java/lang/StringUTF16", "equals", "([B[B)Z", S, consume()},
    {"java/lang/StringUTF16", "indexOf", "", S, consume()},
    {"java/lang/StringUTF16", "indexOfChar", "", S, consume()},
    {"java/lang/StringUTF16", "indexOfLatin1", "", S, consume()},
    {"java/lang/StringUTF16", "getChar", "([BI)C", S, consume()},
    {"java/lang/StringUTF16", "putChar", "([BII)V", S, consume(0)},
    {"java/lang/StringUTF16", "compress", "([BI[BII)I", S, consume(args({0}))},
    {"java/lang/StringUTF16", "compress", "([CI[BII)I", S, consume(args({0}))},
    {"java/lang/StringUTF16", "getChars", "([BII[CI)V", S, consume(args({0}))},
    {"java/lang/StringUTF16", "toBytes", "([CII)[B", S, consumeMakingResult(args({0}))},
    {"java/lang/StringCoding", "hasNegatives", "([BII)Z", S, consume()},
    {"java/lang/StringCoding", "countPositives", "([BII)I", S, consume()},
    {"java/lang/StringCoding", "implEncodeISOArray", "([BI[BII)I", S, consume(args({0}))},
    {"java/lang/StringCoding", "implEncodeAsciiArray", "([CI[BII)I", S, consume(args({0}))},
    {"sun/nio/cs/ISO_8859_1$Encoder", "implEncodeISOArray", "([CI[BII)I", S, consume(args({0}))},
    {"java/util/Arrays", "equals", "([B[B)Z", S, consume()},
    {"java/util/Arrays", "equals", "([C[C)Z", S, consume()},
    {"jdk/internal/util/ArraysSupport", "vectorizedMismatch",
     "(Ljava/lang/Object;JLjava/lang/Object;JII)I", S, consume(args({0, 2}))},
    {"jdk/internal/util/ArraysSupport", "vectorizedHashCode", "(Ljava/lang/Object;IIII)I", S,
     consume(args({0}))},
    {"java/util/zip/CRC32", "update", "(II)I", S, consume()},
    {"java/util/zip/CRC32", "updateBytes0", "(I[BII)I", S, consume()},
    {"java/util/zip/CRC32", "updateByteBuffer0", "(IJII)I", S, consume()},
    {"java/util/zip/CRC32C", "updateBytes", "(I[BII)I", S, consume()},
    {"java/util/zip/CRC32C", "updateDirectByteBuffer", "(IJII)I", S, consume()},
    {"java/util/zip/Adler32", "updateBytes", "(I[BII)I", S, consume()},
    {"java/util/zip/Adler32", "updateByteBuffer", "(IJII)I", S, consume()},
    {"java/util/Base64$Encoder", "encodeBlock", "([BII[BIZ)V", I, consume(args({1}))},
    {"java/util/Base64$Decoder", "decodeBlock", "([BII[BIZZ)I", I, consume(args({1}))},
    {"java/math/BigInteger", "implMultiplyToLen", "([II[II[I)[I", S,
     consumeMakingResult(args({0, 2}))},
    {"java/math/BigInteger", "implSquareToLen", "([II[II)[I", S, consumeMakingResult(args({0}))},
    {"java/math/BigInteger", "implMulAdd", "([I[IIII)I", S, consume()},
    {"java/math/BigInteger", "implMontgomeryMultiply", "([I[I[IIJ[I)[I", S,
     consumeMakingResult(args({0, 1, 2}))},
    {"java/math/BigInteger", "implMontgomerySquare", "([I[IIJ[I)[I", S,
     consumeMakingResult(args({0, 1}))},
    {"java/math/BigInteger", "shiftLeftImplWorker", "([I[IIII)V", S, consume(args({1}))},
    {"java/math/BigInteger", "shiftRightImplWorker", "([I[IIII)V", S, consume(args({1}))},

    // --- Cryptography: inputs read, outputs written with computed values ------------------
    {"com/sun/crypto/provider/AESCrypt", "implEncryptBlock", "([BI[BI)V", I, consume(args({1}))},
    {"com/sun/crypto/provider/AESCrypt", "implDecryptBlock", "([BI[BI)V", I, consume(args({1}))},
    {"com/sun/crypto/provider/CipherBlockChaining", "implEncrypt", "([BII[BI)I", I,
     consume(args({1}))},
    {"com/sun/crypto/provider/CipherBlockChaining", "implDecrypt", "([BII[BI)I", I,
     consume(args({1}))},
    {"com/sun/crypto/provider/CounterMode", "implCrypt", "([BII[BI)I", I, consume(args({1}))},
    {"com/sun/crypto/provider/ElectronicCodeBook", "implECBEncrypt", "([BII[BI)I", I,
     consume(args({1}))},
    {"com/sun/crypto/provider/ElectronicCodeBook", "implECBDecrypt", "([BII[BI)I", I,
     consume(args({1}))},
    {"com/sun/crypto/provider/GHASH", "processBlocks", "([BII[J[J)V", S, consume()},
    {"com/sun/crypto/provider/GaloisCounterMode", "implGCMCrypt0", "", S, consume(args({0}))},
    {"com/sun/crypto/provider/ChaCha20Cipher", "implChaCha20Block", "([I[B)I", S,
     consume(args({0}))},
    {"com/sun/crypto/provider/Poly1305", "processMultipleBlocks", "([BII[J[J)V", I, consume()},
    {"com/sun/crypto/provider/ML_KEM", "implKyberAddPoly", "([S[S[S)I", S, consume(args({1, 2}))},
    {"com/sun/crypto/provider/ML_KEM", "implKyberAddPoly", "([S[S[S[S)I", S,
     consume(args({1, 2, 3}))},
    {"com/sun/crypto/provider/ML_KEM", "implKyberNttMult", "([S[S[S[S)I", S,
     consume(args({1, 2, 3}))},
    {"com/sun/crypto/provider/ML_KEM", "implKyber12To16", "([BI[SI)I", S, consume(args({0}))},
    {"com/sun/crypto/provider/ML_KEM", "implKyber*", "", S, consume()},
    {"sun/security/provider/ML_DSA", "implDilithiumNttMult", "([I[I[I)I", S, consume(args({1, 2}))},
    {"sun/security/provider/ML_DSA", "implDilithiumDecomposePoly", "([I[I[III)I", S,
     consume(args({0}))},
    {"sun/security/provider/ML_DSA", "implDilithium*", "", S, consume()},
    {"sun/security/provider/SHA3Parallel", "doubleKeccak", "([J[J)I", S, consume()},
    {"sun/security/util/math/intpoly/IntegerPolynomial", "conditionalAssign", "(I[J[J)V", S,
     consume()},
    {"sun/security/util/math/intpoly/MontgomeryIntegerPolynomialP256", "mult", "([J[J[J)V", I,
     consume(args({1, 2}))},
    {"sun/security/provider/DigestBase", "implCompressMultiBlock0", "([BII)I", I, consume()},
    {"sun/security/provider/MD5", "implCompress0", "([BI)V", I, consume()},
    {"sun/security/provider/SHA", "implCompress0", "([BI)V", I, consume()},
    {"sun/security/provider/SHA2", "implCompress0", "([BI)V", I, consume()},
    {"sun/security/provider/SHA3", "implCompress0", "([BI)V", I, consume()},
    {"sun/security/provider/SHA5", "implCompress0", "([BI)V", I, consume()},

    // --- Computations over primitives ------------------------------------------------------
    // Math and StrictMath: every method is a function of primitives (natives included).
    {"java/lang/Math", "*", "", S, consume()},
    {"java/lang/StrictMath", "*", "", S, consume()},
    {"java/lang/Integer", "bitCount", "", S, consume()},
    {"java/lang/Integer", "numberOfLeadingZeros", "", S, consume()},
    {"java/lang/Integer", "numberOfTrailingZeros", "", S, consume()},
    {"java/lang/Integer", "reverse", "(I)I", S, consume()},
    {"java/lang/Integer", "reverseBytes", "", S, consume()},
    {"java/lang/Integer", "compress", "", S, consume()},
    {"java/lang/Integer", "expand", "", S, consume()},
    {"java/lang/Integer", "compareUnsigned", "", S, consume()},
    {"java/lang/Integer", "divideUnsigned", "", S, consume()},
    {"java/lang/Integer", "remainderUnsigned", "", S, consume()},
    {"java/lang/Long", "bitCount", "", S, consume()},
    {"java/lang/Long", "numberOfLeadingZeros", "", S, consume()},
    {"java/lang/Long", "numberOfTrailingZeros", "", S, consume()},
    {"java/lang/Long", "reverse", "(J)J", S, consume()},
    {"java/lang/Long", "reverseBytes", "", S, consume()},
    {"java/lang/Long", "compress", "", S, consume()},
    {"java/lang/Long", "expand", "", S, consume()},
    {"java/lang/Long", "compareUnsigned", "", S, consume()},
    {"java/lang/Long", "divideUnsigned", "", S, consume()},
    {"java/lang/Long", "remainderUnsigned", "", S, consume()},
    {"java/lang/Short", "reverseBytes", "", S, consume()},
    {"java/lang/Character", "reverseBytes", "", S, consume()},
    {"java/lang/Float", "floatToRawIntBits", "", S, consume()},
    {"java/lang/Float", "floatToIntBits", "", S, consume()},
    {"java/lang/Float", "intBitsToFloat", "", S, consume()},
    {"java/lang/Float", "isFinite", "(F)Z", S, consume()},
    {"java/lang/Float", "isInfinite", "(F)Z", S, consume()},
    {"java/lang/Float", "float16ToFloat", "", S, consume()},
    {"java/lang/Float", "floatToFloat16", "", S, consume()},
    {"java/lang/Double", "doubleToRawLongBits", "", S, consume()},
    {"java/lang/Double", "doubleToLongBits", "", S, consume()},
    {"java/lang/Double", "longBitsToDouble", "", S, consume()},
    {"java/lang/Double", "isFinite", "(D)Z", S, consume()},
    {"java/lang/Double", "isInfinite", "(D)Z", S, consume()},
    {"java/lang/CharacterDataLatin1", "isDigit", "(I)Z", I, consume()},
    {"java/lang/CharacterDataLatin1", "isLowerCase", "(I)Z", I, consume()},
    {"java/lang/CharacterDataLatin1", "isUpperCase", "(I)Z", I, consume()},
    {"java/lang/CharacterDataLatin1", "isWhitespace", "(I)Z", I, consume()},
    // Float16 operands arrive boxed: the boxes are the values.
    {"jdk/internal/vm/vector/Float16Math", "fma", "", S, consume(0, args({1, 2, 3}))},
    {"jdk/internal/vm/vector/Float16Math", "sqrt", "", S, consume(0, args({1}))},
    // Returns a constant chosen by a branch on its argument (and counts it).
    {"java/lang/invoke/MethodHandleImpl", "profileBoolean", "(Z[I)Z", S, consume()},
    {"java/lang/ref/Reference", "refersTo0", "(Ljava/lang/Object;)Z", I, consume(0, args({1}))},
    {"java/lang/ref/PhantomReference", "refersTo0", "(Ljava/lang/Object;)Z", I,
     consume(0, args({1}))},

    // --- Header reads, clocks, threads, the VM ---------------------------------------------
    // An object's identity hash, class and monitor live in its header, not in a value the
    // program stored: the reference is used as a base pointer, which thin slicing does not
    // count as a dependence (a getfield's base is not consumed either). Consuming it would
    // give every object whose hash or class is asked an edge to C.
    {"java/lang/Object", "hashCode", "()I", I, opaque(), Owner::OrArray},
    {"java/lang/Object", "getClass", "()Ljava/lang/Class;", I, opaque(), Owner::Any},
    {"java/lang/Object", "notify", "()V", I, opaque(), Owner::Any},
    {"java/lang/Object", "notifyAll", "()V", I, opaque(), Owner::Any},
    {"java/lang/Object", "wait", "", I, opaque(), Owner::Any},
    {"java/lang/Object", "<init>", "()V", I, opaque()},
    {"java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I", S, opaque()},
    {"java/lang/System", "nanoTime", "()J", S, opaque()},
    {"java/lang/System", "currentTimeMillis", "()J", S, opaque()},
    {"java/lang/reflect/Array", "getLength", "(Ljava/lang/Object;)I", S, opaque()},
    {"java/lang/Class", "isInstance", "(Ljava/lang/Object;)Z", I, opaque()},
    {"java/lang/Class", "isAssignableFrom", "(Ljava/lang/Class;)Z", I, opaque()},
    {"java/lang/Class", "getSuperclass", "()Ljava/lang/Class;", I, opaque()},
    {"java/lang/Class", "getModifiers", "()I", I, opaque()},
    {"java/lang/Class", "isArray", "()Z", I, opaque()},
    {"java/lang/Class", "isHidden", "()Z", I, opaque()},
    {"java/lang/Class", "isInterface", "()Z", I, opaque()},
    {"java/lang/Class", "isPrimitive", "()Z", I, opaque()},
    {"sun/instrument/InstrumentationImpl", "getObjectSize0", "(JLjava/lang/Object;)J", I, opaque()},
    {"java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", S, opaque()},
    {"java/lang/Thread", "currentCarrierThread", "()Ljava/lang/Thread;", S, opaque()},
    {"java/lang/Thread", "setCurrentThread", "(Ljava/lang/Thread;)V", I, opaque()},
    {"java/lang/Thread", "onSpinWait", "()V", S, opaque()},
    {"java/lang/Thread", "ensureMaterializedForStackWalk", "(Ljava/lang/Object;)V", S, opaque()},
    {"java/lang/Thread", "findScopedValueBindings", "()Ljava/lang/Object;", S, opaque()},
    {"java/lang/Thread", "scopedValueCache", "()[Ljava/lang/Object;", S, opaque()},
    {"java/lang/Thread", "setScopedValueCache", "([Ljava/lang/Object;)V", S, opaque()},
    {"java/lang/VirtualThread", "notifyJvmtiDisableSuspend", "(Z)V", S, opaque()},
    {"java/lang/VirtualThread", "notifyJvmti*", "", I, opaque()},
    {"jdk/internal/vm/Continuation", "enter", "(Ljdk/internal/vm/Continuation;Z)V", S, opaque()},
    {"jdk/internal/vm/Continuation", "enterSpecial", "(Ljdk/internal/vm/Continuation;ZZ)V", S,
     opaque()},
    {"jdk/internal/vm/Continuation", "doYield", "()I", S, opaque()},
    {"jdk/internal/vm/Continuation", "pin", "()V", S, opaque()},
    {"jdk/internal/vm/Continuation", "unpin", "()V", S, opaque()},
    {"java/lang/ref/Reference", "clear0", "()V", I, opaque()},
    {"java/lang/ref/PhantomReference", "clear0", "()V", I, opaque()},
    {"java/lang/invoke/MethodHandleImpl", "isCompileConstant", "(Ljava/lang/Object;)Z", S,
     opaque()},
    {"jdk/internal/reflect/Reflection", "getCallerClass", "()Ljava/lang/Class;", S, opaque()},
    {"jdk/internal/reflect/Reflection", "getClassAccessFlags", "(Ljava/lang/Class;)I", S, opaque()},
    {"jdk/jfr/internal/JVM", "counterTime", "()J", S, opaque()},
    {"jdk/jfr/internal/JVM", "getClassId", "(Ljava/lang/Class;)J", S, opaque()},
    {"jdk/jfr/internal/JVM", "getEventWriter", "", S, opaque()},
    {"jdk/jfr/internal/JVM", "commit", "(J)J", S, opaque()},
    {kUnsafe, "fullFence", "()V", I, opaque()},
    {kUnsafe, "loadFence", "()V", I, opaque()},
    {kUnsafe, "storeFence", "()V", I, opaque()},
    {kUnsafe, "storeStoreFence", "()V", I, opaque()},
    {kUnsafe, "park", "(ZJ)V", I, opaque()},
    {kUnsafe, "unpark", "(Ljava/lang/Object;)V", I, opaque()},
    {kUnsafe, "writeback0", "(J)V", I, opaque()},
    {kUnsafe, "writebackPreSync0", "()V", I, opaque()},
    {kUnsafe, "writebackPostSync0", "()V", I, opaque()},
};

// --- Intrinsics without a summary, and why ----------------------------------------------

struct Exclusion {
  std::string_view owner;
  std::string_view name;  // '*' suffix: prefix
  std::string_view desc;  // '*' suffix: prefix; empty: any
  std::string_view reason;
  std::string_view disable = {};  // the intrinsic id to keep off, if the reason needs one
  int sinceJdk = 0;
};

// HotSpot's "bytecode intrinsics" (the second part of vmIntrinsics.hpp) are not replaced by
// code of the JIT's own; C2 only treats calls of them specially, in transformations the
// flow modes switch off (src/agent/jit_changes.cpp), after which the bodies run at every
// tier and keep their probes.
constexpr std::string_view kConcat =
    "bytecode intrinsic for OptimizeStringConcat, which the flow modes switch off: the body "
    "runs at every tier";
constexpr std::string_view kBox =
    "bytecode intrinsic for EliminateAutoBox, which the flow modes switch off: the body (a "
    "box's value load or allocation) runs at every tier";
constexpr std::string_view kUnbox =
    "bytecode intrinsic: C2 inlines the body (a load of the box's value) and only recognises "
    "it when it eliminates boxes; the body runs at every tier";
constexpr std::string_view kVector =
    "Vector API intrinsic, used only with EnableVectorSupport, which the flow modes switch "
    "off: the body runs at every tier";
constexpr std::string_view kPolymorphic =
    "signature-polymorphic native: the target method runs bytecode behind hidden frames; the "
    "transfer area's selector check cuts the flow there and counts it";
constexpr std::string_view kReflection =
    "bytecode intrinsic (reflection): the body runs at every tier; the target's flow is cut "
    "and counted by the transfer area";
constexpr std::string_view kInlineOnly =
    "bytecode intrinsic: C2 only inlines it; the body runs at every tier";
constexpr std::string_view kSort =
    "the element moves are made by the Java fallback it calls, which the AVX-512 intrinsic "
    "skips: the flow modes keep the intrinsic off so that the fallback runs at every tier";

const Exclusion kExclusions[] = {
    {"java/lang/StringBuilder", "*", "", kConcat},
    {"java/lang/StringBuffer", "*", "", kConcat},
    {"java/lang/String", "<init>", "(Ljava/lang/String;)V", kConcat},
    {"java/lang/Integer", "toString", "(I)Ljava/lang/String;", kConcat},
    {"java/lang/Boolean", "valueOf", "(Z)Ljava/lang/Boolean;", kBox},
    {"java/lang/Byte", "valueOf", "(B)Ljava/lang/Byte;", kBox},
    {"java/lang/Character", "valueOf", "(C)Ljava/lang/Character;", kBox},
    {"java/lang/Short", "valueOf", "(S)Ljava/lang/Short;", kBox},
    {"java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;", kBox},
    {"java/lang/Long", "valueOf", "(J)Ljava/lang/Long;", kBox},
    {"java/lang/Float", "valueOf", "(F)Ljava/lang/Float;", kBox},
    {"java/lang/Double", "valueOf", "(D)Ljava/lang/Double;", kBox},
    {"java/lang/Boolean", "booleanValue", "()Z", kUnbox},
    {"java/lang/Byte", "byteValue", "()B", kUnbox},
    {"java/lang/Character", "charValue", "()C", kUnbox},
    {"java/lang/Short", "shortValue", "()S", kUnbox},
    {"java/lang/Integer", "intValue", "()I", kUnbox},
    {"java/lang/Long", "longValue", "()J", kUnbox},
    {"java/lang/Float", "floatValue", "()F", kUnbox},
    {"java/lang/Double", "doubleValue", "()D", kUnbox},
    {"jdk/internal/vm/vector/VectorSupport", "*", "", kVector},
    {"java/lang/invoke/MethodHandle", "*", "", kPolymorphic},
    {"java/lang/reflect/Method", "invoke", "", kReflection},
    {"java/util/stream/Streams$RangeIntSpliterator", "forEachRemaining", "", kInlineOnly},
    {"java/util/DualPivotQuicksort", "sort", "(Ljava/lang/Class;*", kSort, "_arraySort", 25},
    {"java/util/DualPivotQuicksort", "partition", "(Ljava/lang/Class;*", kSort, "_arrayPartition",
     25},
};

bool matches(std::string_view pattern, std::string_view s) {
  if (pattern.ends_with('*')) return s.starts_with(pattern.substr(0, pattern.size() - 1));
  return pattern == s;
}

bool ownerMatches(const Entry& e, std::string_view owner) {
  switch (e.match) {
    case Owner::Any:
      return true;
    case Owner::OrArray:
      return owner == e.owner || owner.starts_with('[');
    case Owner::Exact:
      return owner == e.owner;
  }
  return false;
}

bool memberMatches(std::string_view namePattern, std::string_view descPattern,
                   std::string_view name, std::string_view desc) {
  return matches(namePattern, name) && (descPattern.empty() || matches(descPattern, desc));
}

// Fills the masks an entry leaves to the descriptor; false if the descriptor is malformed.
bool derive(const Entry& e, std::string_view desc, Summary& s) {
  auto md = instrument::parseMethodDescriptor(desc);
  if (!md) return false;
  const int first = e.instance ? 1 : 0;
  const int count = first + static_cast<int>(md->params.size());
  if (count > 32) return false;  // ArgMask's width; no summarised method comes close
  if (e.trailing >= 0) {
    s.consumed = 0;
    for (int a = count - e.trailing; a < count; ++a) {
      if (a >= first) s.consumed |= ArgMask{1} << a;
    }
  }
  ArgMask primitives = 0, arrays = 0;
  for (size_t i = 0; i < md->params.size(); ++i) {
    char c = md->params[i].front();
    ArgMask bit = ArgMask{1} << (first + static_cast<int>(i));
    if (c == '[') {
      arrays |= bit;
    } else if (c != 'L') {
      primitives |= bit;
    }
  }
  if (s.consumed == kDerived) s.consumed = primitives;
  if (s.elements == kDerived) s.elements = arrays;
  return true;
}

// The entry for a call (`isStatic`: invokestatic; an entry's positions presume its kind) or,
// without one, for a body.
const Entry* findEntry(std::string_view owner, std::string_view name, std::string_view desc,
                       std::optional<bool> isStatic) {
  for (const Entry& e : kEntries) {
    if (isStatic ? (!ownerMatches(e, owner) || e.instance == *isStatic) : owner != e.owner) {
      continue;
    }
    if (memberMatches(e.name, e.desc, name, desc)) return &e;
  }
  return nullptr;
}

}  // namespace

std::optional<Summary> summaryAt(std::string_view owner, std::string_view name,
                                 std::string_view descriptor, bool isStatic) {
  const Entry* e = findEntry(owner, name, descriptor, isStatic);
  if (!e) return std::nullopt;
  Summary s = e->s;
  if (!derive(*e, descriptor, s)) return std::nullopt;
  return s;
}

bool bodyUnshadowed(std::string_view cls, std::string_view name, std::string_view descriptor,
                    bool intrinsicCandidate) {
  if (findEntry(cls, name, descriptor, std::nullopt)) return true;
  return intrinsicCandidate && exclusionReason(cls, name, descriptor).empty();
}

std::string_view exclusionReason(std::string_view cls, std::string_view name,
                                 std::string_view descriptor) {
  for (const Exclusion& x : kExclusions) {
    if (x.owner == cls && memberMatches(x.name, x.desc, name, descriptor)) return x.reason;
  }
  return {};
}

std::vector<IntrinsicToDisable> intrinsicsToDisable() {
  std::vector<IntrinsicToDisable> out;
  for (const Exclusion& x : kExclusions) {
    if (!x.disable.empty()) out.push_back({x.disable, x.sinceJdk});
  }
  return out;
}

}  // namespace dragnet::flow

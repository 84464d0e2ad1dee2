#!/usr/bin/env bash
# Usage: fuzz/make-seeds.sh OUTDIR [COUNT]
#
# Writes a seed corpus of about COUNT (default 200) small, varied class files to OUTDIR for
# fuzz/classfile_fuzzer. Sources (whichever exist):
#   - the demo jar, build/demo/demo.jar (all of its classes),
#   - the JDK module images under /usr/lib/jvm/*/lib/modules (extracted with `jimage extract`
#     into a temporary directory; JDK 17: version 61, JDK 25: version 69),
#   - the jars in /usr/share/java (versions 49-55, e.g. jython's 49.0 classes),
#   - the hand-made seeds committed in fuzz/seeds/ (e.g. 45.0 with the old Code layout).
# Selection is deterministic: for every feature (class-file version, constant-pool tag,
# attribute name) a few of the smallest classes having it, then a spread of sizes up to 6 KB.
# Nothing here is committed: regenerate the corpus whenever needed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: $0 OUTDIR [COUNT]}
count=${2:-200}
mkdir -p "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sources=()
if [[ -f "$root/build/demo/demo.jar" ]]; then
  sources+=("demo=$root/build/demo/demo.jar")
else
  echo "note: $root/build/demo/demo.jar not found (run scripts/build.sh release first)" >&2
fi
for modules in /usr/lib/jvm/*/lib/modules; do
  [[ -f "$modules" ]] || continue
  jdk=$(basename "$(dirname "$(dirname "$modules")")")
  [[ -L "/usr/lib/jvm/$jdk" ]] && continue  # java-1.17.0-openjdk-amd64 -> java-17-...
  jimage=$(dirname "$(dirname "$modules")")/bin/jimage
  [[ -x "$jimage" ]] || jimage=jimage
  mkdir -p "$tmp/$jdk"
  "$jimage" extract --dir "$tmp/$jdk" "$modules"
  sources+=("$jdk=$tmp/$jdk")
done
if [[ -d /usr/share/java ]]; then
  sources+=("share=/usr/share/java")
fi
if [[ -d "$root/fuzz/seeds" ]]; then
  sources+=("seed=$root/fuzz/seeds")
fi

python3 - "$out" "$count" "${sources[@]}" <<'EOF'
import hashlib, os, struct, sys, zipfile

out, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
MAX_SIZE = 6000

ATTRS = [b"ConstantValue", b"Code", b"StackMapTable", b"Exceptions", b"InnerClasses",
         b"EnclosingMethod", b"Synthetic", b"Signature", b"SourceFile",
         b"SourceDebugExtension", b"LineNumberTable", b"LocalVariableTable",
         b"LocalVariableTypeTable", b"Deprecated", b"RuntimeVisibleAnnotations",
         b"RuntimeInvisibleAnnotations", b"RuntimeVisibleParameterAnnotations",
         b"RuntimeInvisibleParameterAnnotations", b"RuntimeVisibleTypeAnnotations",
         b"RuntimeInvisibleTypeAnnotations", b"AnnotationDefault", b"BootstrapMethods",
         b"MethodParameters", b"Module", b"ModulePackages", b"ModuleMainClass", b"NestHost",
         b"NestMembers", b"Record", b"PermittedSubclasses"]
ATTRSET = set(ATTRS)


def features(data):
    """Version, constant-pool tags and attribute names (approximated by the Utf8 constants)."""
    if len(data) < 10 or data[:4] != b"\xca\xfe\xba\xbe":
        return None
    minor, major = struct.unpack(">HH", data[4:8])
    feats = {f"v{major}"}
    if minor:
        feats.add(f"v{major}.{minor}")
    n = struct.unpack(">H", data[8:10])[0]
    pos, i = 10, 1
    try:
        while i < n:
            tag = data[pos]
            feats.add(f"tag{tag}")
            if tag == 1:
                ln = struct.unpack(">H", data[pos + 1:pos + 3])[0]
                s = data[pos + 3:pos + 3 + ln]
                if s in ATTRSET:
                    feats.add(s.decode())
                pos += 3 + ln
            elif tag in (3, 4):
                pos += 5
            elif tag in (5, 6):
                pos += 9
                i += 1
            elif tag in (7, 8, 16, 19, 20):
                pos += 3
            elif tag == 15:
                pos += 4
            elif tag in (9, 10, 11, 12, 17, 18):
                pos += 5
            else:
                return None
            i += 1
    except IndexError:
        return None
    # Bytecode features, approximated: switch opcodes and jsr/ret appear somewhere.
    body = data[pos:]
    if b"\xaa" in body:
        feats.add("maybe-tableswitch")
    if b"\xab" in body:
        feats.add("maybe-lookupswitch")
    if major < 50 and b"\xa8" in body:
        feats.add("maybe-jsr")
    return feats


def candidates():
    for spec in sources:
        label, path = spec.split("=", 1)
        if os.path.isfile(path) and path.endswith(".jar"):
            jars = [path]
        else:
            jars = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                for f in sorted(filenames):
                    p = os.path.join(dirpath, f)
                    if f.endswith(".class") and os.path.getsize(p) <= MAX_SIZE:
                        with open(p, "rb") as fh:
                            yield label, os.path.relpath(p, path), fh.read()
                    elif f.endswith(".jar") and not os.path.islink(p):
                        jars.append(p)
        for jar in jars:
            try:
                z = zipfile.ZipFile(jar)
                infos = z.infolist()
            except (zipfile.BadZipFile, OSError):
                continue
            jl = label if len(jars) == 1 and label != "share" else os.path.basename(jar)[:-4]
            for info in infos:
                if info.filename.endswith(".class") and info.file_size <= MAX_SIZE:
                    try:
                        yield jl, info.filename, z.read(info)
                    except Exception:
                        continue


items = []  # (label, name, data, feats, digest)
seen = set()
for label, name, data in candidates():
    f = features(data)
    if f is None:
        continue
    digest = hashlib.sha1(data).hexdigest()
    if digest in seen:
        continue
    seen.add(digest)
    items.append((label, name, data, f, digest))

chosen = {}  # digest -> item


def choose(item):
    chosen.setdefault(item[4], item)


# Everything from the demo jar and the committed seeds.
for it in items:
    if it[0] in ("demo", "seed"):
        choose(it)

# Per feature, in rounds: the smallest class having it, then a mid-sized one, then one from
# another source, so that every feature is covered before any gets a third seed.
by_feat = {}
for it in items:
    for f in it[3]:
        by_feat.setdefault(f, []).append(it)
for f in by_feat:
    by_feat[f].sort(key=lambda it: (len(it[2]), it[4]))
for rnd in range(3):
    for f in sorted(by_feat):
        group = by_feat[f]
        if rnd == 0:
            pick = group[0]
        elif rnd == 1:
            pick = group[len(group) // 2]
        else:
            have = {it[0] for it in group if it[4] in chosen}
            pick = next((it for it in group if it[0] not in have), None)
        if pick is not None and len(chosen) < count:
            choose(pick)

# Fill up with a deterministic spread over sizes.
rest = sorted((it for it in items if it[4] not in chosen), key=lambda it: it[4])
step = max(1, len(rest) // max(1, count - len(chosen)))
for it in rest[::step]:
    if len(chosen) >= count:
        break
    choose(it)

total = 0
for label, name, data, _, digest in sorted(chosen.values(), key=lambda it: (it[0], it[1])):
    safe = name.replace("/", "_").replace("$", "_")[-60:]
    fn = f"{label}-{safe}" if safe.endswith(".class") else f"{label}-{safe}.class"
    with open(os.path.join(out, fn), "wb") as fh:
        fh.write(data)
    total += len(data)
print(f"{len(chosen)} seeds, {total} bytes, from {len(items)} candidate classes -> {out}")
EOF

#!/usr/bin/env python3
"""The layering of src/, checked on every include and link (docs/ARCHITECTURE.md, "The
layering check").

Reads every #include of src/**/*.{h,hpp,cpp,cc,inc} and every target_link_libraries of
src/**/CMakeLists.txt, places both ends in the unit table below and fails, with file:line
and the rule broken, when
  - a file includes (or a library links) a unit of a higher layer,
  - a unit includes a unit it must not although the layers allow it (FORBIDDEN: the agent
    core and the renderers are siblings; an analysis's probes and model are neither agent
    nor report; the command never reaches the agent but for EXCEPTIONS),
  - one analysis includes (or links) another analysis's folder,
  - a file or library lies in no unit of the table (a new folder is placed deliberately).

Usage: check_layers.py [SRC_DIR]   (default: the src/ of this checkout). Exit 0: no breach;
1: breaches (one line each on stdout); 2: usage or I/O error.
"""

import fnmatch
import os
import re
import sys

# Units, matched segment by segment against a file's folder under src/ (the longest pattern
# wins; "*" is one folder), and their layers: a unit may use its own layer and lower ones.
LAYERS = {
    "common": 0,  # embedded files
    "classfile": 0,
    "instrument": 1,
    "profile": 1,
    "tools": 2,  # BIT's example tools
    "contexts": 2,  # the calling-context base: probes, model, merge, names
    "heap_access": 2,  # heap-access planning
    "flow": 2,  # the flow engine: shadows, call transfer, object tags, summaries
    "agent": 3,  # the agent core: JNI, the modes' bases, services
    "report": 3,  # renderer machinery
    "analyses/*": 4,  # an analysis's own files outside its parts: neither agent nor report
    "analyses/*/probes": 4,
    "analyses/*/model": 4,
    "analyses/*/agent": 4,
    "analyses/*/report": 4,
    "registry": 5,  # the one place that names every analysis
    "cli": 5,
}

_SIBLINGS = "the agent core and the renderers are siblings"
_PARTS = "an analysis's agent and report parts are siblings"
_NEITHER = "an analysis's probes and model run in both the agent and the reports"
_COMMAND = "the command reaches the agent only through its options"
_TOOLS = "only the command and the registry use the BIT example tools"
# (from unit, to unit, why): uses the layers would allow but the design does not.
FORBIDDEN = [
    ("agent", "report", _SIBLINGS),
    ("report", "agent", _SIBLINGS),
    ("analyses/*/agent", "report", _PARTS),
    ("analyses/*/agent", "analyses/*/report", _PARTS),
    ("analyses/*/report", "agent", _PARTS),
    ("analyses/*/report", "analyses/*/agent", _PARTS),
    ("cli", "agent", _COMMAND),
    ("cli", "analyses/*/agent", _COMMAND),
]
FORBIDDEN += [(part, to, _NEITHER)
              for part in ("analyses/*", "analyses/*/probes", "analyses/*/model")
              for to in ("agent", "report", "analyses/*/agent", "analyses/*/report")]
FORBIDDEN += [(unit, "tools", _TOOLS) for unit in LAYERS
              if unit not in ("tools", "cli", "registry")]

# (from unit, header under src/ or "target:NAME"): exceptions to FORBIDDEN, each with its use.
EXCEPTIONS = {
    # The option table: `dragnet run`'s flags and help text (src/cli/profile_commands.cpp).
    ("cli", "agent/options.h"),
    ("cli", "target:dragnet_agent_options"),
    # What dragnet attach and Agent_OnAttach say to each other (src/cli/attach_command.cpp).
    ("cli", "agent/attach_protocol.h"),
}

# The libraries of an analysis built from files at its top (not a part's folder).
TOP_LEVEL_PARTS = ("options",)

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def _segments_match(pattern, folder):
    """Whether pattern names folder or one of its ancestors; returns the pattern's length."""
    pat, segs = pattern.split("/"), folder.split("/") if folder else []
    if len(pat) > len(segs):
        return 0
    return len(pat) if all(fnmatch.fnmatchcase(s, p) for p, s in zip(pat, segs)) else 0


def unit_of(folder):
    """The unit pattern a folder under src/ belongs to, or None."""
    best, best_len = None, 0
    for pattern in LAYERS:
        n = _segments_match(pattern, folder)
        if n > best_len:
            best, best_len = pattern, n
    return best


def analysis_of(folder):
    """The analysis a folder under src/ belongs to ("alloc"), or None."""
    segs = folder.split("/")
    return segs[1] if len(segs) >= 2 and segs[0] == "analyses" else None


def _rule_broken(src_folder, dst_folder, exception_key):
    """Why a use from src_folder of dst_folder breaks the layering, or None."""
    src_unit, dst_unit = unit_of(src_folder), unit_of(dst_folder)
    if dst_unit is None:
        return f"{dst_folder or '.'} is in no unit of the layer table"
    a, b = analysis_of(src_folder), analysis_of(dst_folder)
    if a and b and a != b:
        return f"analysis {a} may not use analysis {b} (analyses are independent)"
    if LAYERS[dst_unit] > LAYERS[src_unit]:
        return (f"{src_unit} (layer {LAYERS[src_unit]}) may not use {dst_unit} "
                f"(layer {LAYERS[dst_unit]})")
    if (src_unit, exception_key) in EXCEPTIONS:
        return None
    for frm, to, why in FORBIDDEN:
        if frm == src_unit and to == dst_unit:
            return f"{src_unit} may not use {dst_unit}: {why}"
    return None


def resolve_include(src, rel_file, kind, name):
    """The header a directive names, relative to src/, or None when it is not ours."""
    folder = os.path.dirname(rel_file)
    if kind == '"':
        beside = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(os.path.join(src, beside)):
            return beside
    top = os.path.normpath(name).split("/")[0]
    if unit_of(top) is not None or top == "analyses" or top == "..":
        return os.path.normpath(name)
    return None


def check_includes(src):
    breaches = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for fname in sorted(filenames):
            if not fname.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(dirpath, fname)
            rel = os.path.relpath(path, src)
            folder = os.path.dirname(rel)
            if unit_of(folder) is None:
                breaches.append(f"src/{rel}:1: the file is in no unit of the layer table "
                                f"(tests/layering/check_layers.py: LAYERS)")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = resolve_include(src, rel, m.group(1), m.group(2))
                    if header is None:
                        continue
                    if header.startswith(".."):
                        why = "the header is outside src/"
                    else:
                        why = _rule_broken(folder, os.path.dirname(header), header)
                    if why:
                        breaches.append(f"src/{rel}:{lineno}: includes {m.group(2)}: {why}")
    return breaches


def _cmake_commands(text):
    """(command, arguments, line) of each command call in a CMakeLists.txt."""
    text = re.sub(r"#[^\n]*", "", text)
    for m in re.finditer(r"\b([A-Za-z_]+)\s*\(([^()]*)\)", text):
        yield m.group(1).lower(), m.group(2).split(), text.count("\n", 0, m.start()) + 1


def check_links(src):
    targets = {}  # name -> folder under src/ of the unit it belongs to
    links = []  # (CMakeLists path, line, from target, to target)
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        if "CMakeLists.txt" not in filenames:
            continue
        path = os.path.join(dirpath, "CMakeLists.txt")
        folder = os.path.relpath(dirpath, src)
        folder = "" if folder == "." else folder
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for cmd, args, line in _cmake_commands(text):
            if cmd in ("add_library", "add_executable") and args:
                target_folder = folder
                analysis = analysis_of(folder)
                if analysis and folder == f"analyses/{analysis}":
                    # An analysis's libraries are named after their part: dragnet_alloc_report.
                    # Its option table (options.cpp) sits at its top: dragnet_alloc_options.
                    m = re.fullmatch(rf"dragnet_{re.escape(analysis)}_([a-z_]+)", args[0])
                    if m and m.group(1) in TOP_LEVEL_PARTS:
                        target_folder = f"{folder}/"
                    elif m:
                        target_folder = f"{folder}/{m.group(1)}"
                targets[args[0]] = (target_folder, os.path.relpath(path, src), line)
            elif cmd == "target_link_libraries" and args:
                for item in args[1:]:
                    links.append((os.path.relpath(path, src), line, args[0], item))
    breaches = []
    for name, (folder, path, line) in sorted(targets.items()):
        top = folder.endswith("/")
        folder = folder.rstrip("/")
        targets[name] = (folder, path, line)
        if unit_of(folder) is None or (analysis_of(folder) and unit_of(folder) == "analyses/*"
                                       and not top):
            breaches.append(f"src/{path}:{line}: target {name} is in no unit of the layer "
                            f"table (an analysis's libraries are dragnet_NAME_PART)")
    for path, line, frm, to in links:
        if frm not in targets or to not in targets:
            continue  # external libraries, dragnet_warnings
        why = _rule_broken(targets[frm][0], targets[to][0], f"target:{to}")
        if why:
            breaches.append(f"src/{path}:{line}: {frm} links {to}: {why}")
    return breaches


def main(argv):
    if len(argv) > 2:
        print("usage: check_layers.py [SRC_DIR]", file=sys.stderr)
        return 2
    src = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "../../src")
    src = os.path.abspath(src)
    if not os.path.isdir(src):
        print(f"check_layers: {src} is not a directory", file=sys.stderr)
        return 2
    breaches = check_includes(src) + check_links(src)
    for b in breaches:
        print(b)
    if breaches:
        print(f"check_layers: {len(breaches)} breach(es) of the layering "
              f"(tests/layering/check_layers.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

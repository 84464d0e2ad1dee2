#!/usr/bin/env python3
"""The layering check (check_layers.py) fails on a deliberately wrong include or link.

The real src/ is copied into a temporary folder; each case breaks one rule in the copy (an
include appended to one file, or one library linked), asserts that the check exits 1 naming
the file, the line and the rule, and puts the copy back. The unchanged copy must pass.
Usage: check_layers_test.py [SRC_DIR]   (default: the src/ of this checkout)
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_layers.py")
SRC = os.path.abspath(os.path.join(HERE, "../../src"))


class LayeringCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dragnet-layering-")
        cls.src = os.path.join(cls.tmp, "src")
        shutil.copytree(SRC, cls.src)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def setUp(self):
        self.saved = {}  # path -> its content before the case, None when the case made it

    def tearDown(self):
        """Puts the copy back as it was, for the next case."""
        for path, content in self.saved.items():
            if content is None:
                os.remove(path)
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)

    def run_check(self):
        p = subprocess.run([sys.executable, CHECK, self.src], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def append(self, rel, text):
        """Appends a line to src/REL (created when missing); returns its line number."""
        path = os.path.join(self.src, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lines = 0
        content = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                content = f.read()
            lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
            if content and not content.endswith("\n"):
                text = "\n" + text
        self.saved.setdefault(path, content)
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n")
        return lines + 1

    def assert_breach(self, expected):
        """The check fails with exactly one breach, the expected line."""
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        lines = out.splitlines()
        self.assertEqual(lines[0], expected, out)
        self.assertEqual(lines[1:], ["check_layers: 1 breach(es) of the layering "
                                     "(tests/layering/check_layers.py)"], out)

    def test_real_tree_passes(self):
        self.assertEqual(self.run_check(), (0, ""))

    def test_lower_layer_includes_higher(self):
        n = self.append("contexts/probes.h", '#include "agent/mode.h"')
        self.assert_breach(f"src/contexts/probes.h:{n}: includes agent/mode.h: "
                           "contexts (layer 2) may not use agent (layer 3)")

    def test_classfile_includes_instrument(self):
        n = self.append("classfile/mutf8.cpp", '#include "instrument/bit.h"')
        self.assert_breach(f"src/classfile/mutf8.cpp:{n}: includes instrument/bit.h: "
                           "classfile (layer 0) may not use instrument (layer 1)")

    def test_analysis_includes_another(self):
        n = self.append("analyses/alloc/report/sums.h",
                        '#include "analyses/lifetime/model/heap.h"')
        self.assert_breach(f"src/analyses/alloc/report/sums.h:{n}: includes "
                           "analyses/lifetime/model/heap.h: analysis alloc may not use "
                           "analysis lifetime (analyses are independent)")

    def test_agent_includes_report(self):
        n = self.append("agent/mode.h", '#include "report/text_format.h"')
        self.assert_breach(f"src/agent/mode.h:{n}: includes report/text_format.h: agent may "
                           "not use report: the agent core and the renderers are siblings")

    def test_report_includes_agent(self):
        n = self.append("report/coverage.cpp", '#include "agent/options.h"')
        self.assert_breach(f"src/report/coverage.cpp:{n}: includes agent/options.h: report may "
                           "not use agent: the agent core and the renderers are siblings")

    def test_model_includes_agent(self):
        n = self.append("analyses/lifetime/model/heap.h", '#include "agent/sampler.h"')
        self.assert_breach(f"src/analyses/lifetime/model/heap.h:{n}: includes agent/sampler.h: "
                           "analyses/*/model may not use agent: an analysis's probes and "
                           "model run in both the agent and the reports")

    def test_probes_include_own_report_part(self):
        n = self.append("analyses/lifetime/probes/instrumenter.h",
                        '#include "analyses/lifetime/report/json.h"')
        self.assert_breach(f"src/analyses/lifetime/probes/instrumenter.h:{n}: includes "
                           "analyses/lifetime/report/json.h: analyses/*/probes may not use "
                           "analyses/*/report: an analysis's probes and model run in both "
                           "the agent and the reports")

    def test_agent_part_includes_own_report_part(self):
        n = self.append("analyses/lifetime/agent/modes.h",
                        '#include "analyses/lifetime/report/report.h"')
        self.assert_breach(f"src/analyses/lifetime/agent/modes.h:{n}: includes "
                           "analyses/lifetime/report/report.h: analyses/*/agent may not use "
                           "analyses/*/report: an analysis's agent and report parts are "
                           "siblings")

    def test_cli_includes_agent_beyond_options(self):
        n = self.append("cli/report.cpp", '#include "agent/recorder.h"')
        self.assert_breach(f"src/cli/report.cpp:{n}: includes agent/recorder.h: cli may not "
                           "use agent: the command reaches the agent only through its options")

    def test_cli_includes_analysis_agent_part(self):
        n = self.append("cli/main.cpp", '#include "analyses/alloc/agent/modes.h"')
        self.assert_breach(f"src/cli/main.cpp:{n}: includes analyses/alloc/agent/modes.h: "
                           "cli may not use analyses/*/agent: the command reaches the agent "
                           "only through its options")

    def test_agent_includes_tools(self):
        n = self.append("agent/runtime_bridge.h", '#include "tools/bit_tools.h"')
        self.assert_breach(f"src/agent/runtime_bridge.h:{n}: includes tools/bit_tools.h: agent "
                           "may not use tools: only the command and the registry use the BIT "
                           "example tools")

    def test_relative_include_is_resolved(self):
        n = self.append("contexts/model.h", '#include "../agent/mode.h"')
        self.assert_breach(f"src/contexts/model.h:{n}: includes ../agent/mode.h: "
                           "contexts (layer 2) may not use agent (layer 3)")

    def test_angle_include_is_checked(self):
        n = self.append("heap_access/use_sites.h", "#include <report/json_text.h>")
        self.assert_breach(f"src/heap_access/use_sites.h:{n}: includes report/json_text.h: "
                           "heap_access (layer 2) may not use report (layer 3)")

    def test_folder_outside_the_table(self):
        self.append("newthing/thing.h", "#pragma once")
        self.assert_breach("src/newthing/thing.h:1: the file is in no unit of the layer table "
                           "(tests/layering/check_layers.py: LAYERS)")

    def test_library_links_higher_layer(self):
        n = self.append("contexts/CMakeLists.txt",
                        "target_link_libraries(dragnet_contexts PRIVATE dragnet_agent_core)")
        self.assert_breach(f"src/contexts/CMakeLists.txt:{n}: dragnet_contexts links "
                           "dragnet_agent_core: contexts (layer 2) may not use agent (layer 3)")

    def test_library_links_another_analysis(self):
        n = self.append("analyses/alloc/CMakeLists.txt",
                        "target_link_libraries(dragnet_alloc_report PRIVATE "
                        "dragnet_lifetime_model)")
        self.assert_breach(f"src/analyses/alloc/CMakeLists.txt:{n}: dragnet_alloc_report links "
                           "dragnet_lifetime_model: analysis alloc may not use analysis "
                           "lifetime (analyses are independent)")

    def test_report_library_links_agent(self):
        n = self.append("report/CMakeLists.txt",
                        "target_link_libraries(dragnet_report PUBLIC dragnet_agent_jni)")
        self.assert_breach(f"src/report/CMakeLists.txt:{n}: dragnet_report links "
                           "dragnet_agent_jni: report may not use agent: the agent core and "
                           "the renderers are siblings")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        SRC = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)

# lit configuration: shlo-opt/shlo-compile/shlo-run and the Python `filecheck` from the venv.
import os
import sys

import lit.formats

config.name = "shlo"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py"]

bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for name in ("HOME", "TMPDIR", "VK_ICD_FILENAMES"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
config.substitutions.append(("%PYTHON", sys.executable))
# Tests may spell it FileCheck like upstream MLIR: it is the Python `filecheck` here.
config.substitutions.append(("FileCheck", os.path.join(bin_dir, "filecheck")))

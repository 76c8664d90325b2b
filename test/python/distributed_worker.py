"""One rank of test_distributed's MPI jobs: `mpiexec -n N python distributed_worker.py SPEC`.

SPEC (JSON) lists runs: {"vmfb", "function" (or "functions", one per rank), "replicas",
"partitions", "inputs" (an .npz of rank r's arguments k: "r<r>_<k>" bytes, "d<r>_<k>" dtype
name, "s<r>_<k>" shape), "out"
(each rank writes the bytes of its results to OUT.<rank>.npz)}; "device" (default local-task); "timeout";
"sleep": {rank: seconds} before run number "sleep_at" (default 0).
"""
import json
import sys
import time

import ml_dtypes
import numpy as np

import shlo
from shlo.runtime import distributed


def main(path: str) -> None:
    spec = json.load(open(path))
    me = distributed.rank()
    loaded = {}
    for index, run in enumerate(spec["runs"]):
        if index == spec.get("sleep_at", 0):
            time.sleep(float(spec.get("sleep", {}).get(str(me), 0)))
        if run["vmfb"] not in loaded:
            loaded[run["vmfb"]] = shlo.load(run["vmfb"], device=spec.get("device", "local-task"))
        exe = loaded[run["vmfb"]]
        arrays = np.load(run["inputs"]) if run.get("inputs") else {}
        count = sum(f.startswith(f"r{me}_") for f in getattr(arrays, "files", []))
        args = [_array(arrays, f"{me}_{k}") for k in range(count)]
        name = run["functions"][me] if "functions" in run else run["function"]
        out = distributed.run(exe, *args, num_replicas=run["replicas"],
                              num_partitions=run["partitions"], function=name,
                              timeout=spec.get("timeout"))
        out = out if isinstance(out, tuple) else (out,)
        np.savez(f"{run['out']}.{me}.npz", *[np.frombuffer(np.ascontiguousarray(a).tobytes(),
                                                            np.uint8) for a in out])


def _array(arrays, key: str) -> np.ndarray:
    """An argument saved as bytes ("r<key>"), dtype name ("d<key>") and shape ("s<key>")."""
    name = str(arrays[f"d{key}"])
    dtype = getattr(ml_dtypes, name) if hasattr(ml_dtypes, name) else np.dtype(name)
    return arrays[f"r{key}"].view(dtype).reshape(arrays[f"s{key}"])


if __name__ == "__main__":
    main(sys.argv[1])

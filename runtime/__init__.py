"""Compile modules in-process with IREE, and run the results on CPU, Vulkan and CUDA devices."""
from .cache import CompileCache
from .compiler import compile
from .executable import Executable, load
from .parallel import run_parallel

__all__ = ["compile", "Executable", "load", "CompileCache", "run_parallel"]

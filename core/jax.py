"""`shlo.jax`: the front door for jax users (`shlo.jax.jit(f, target="vulkan")`).

A facade, so that the name is `shlo.jax` while the implementation lives in
`shlo.runtime.jax_jit` (runtime sits above core, which must not import it eagerly):
names are looked up there on first use, which keeps `import shlo.jax` as fast as
`import shlo` and working without jax (using `jit` then says to `pip install jax`).
"""
__all__ = ["jit", "JitFunction", "Compiled", "LoweringError", "JaxMissingError"]


def __getattr__(name):
    if name in __all__:
        from .runtime import jax_jit
        return getattr(jax_jit, name)
    raise AttributeError(f"module 'shlo.jax' has no attribute '{name}'")

"""Dynamic shapes: refinement to static shapes (shlo-refine-arguments, shlo-refine-shapes and
their fold/rule/type libraries), shape-dialect legalization, runtime shape checks, and the
dynamic ops IREE cannot compile."""

"""The rewrites of shlo-legalize-vulkan-ops' quirk table, by concern: bf16 values, integer
ops, values read from memory (fences, iotas), ops expanded into others."""

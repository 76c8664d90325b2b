"""Element types IREE lacks or computes wrongly, rewritten into ones it computes right:
narrow floats (bf16, f8, f6, e8m0), sub-byte and unsigned integers, quantized tensors, complex."""

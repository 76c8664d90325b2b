"""Accuracy of float maths: accurate f32/f64/complex functions from arithmetic,
accumulation width, rounding inside reducers, constant powers."""

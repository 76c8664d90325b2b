"""`from shlo import xla`: XLA's XlaBuilder client API (the package shlo.dialect.xla)."""
from shlo.dialect.xla import *  # noqa: F401,F403
from shlo.dialect.xla import __all__, __doc__  # noqa: F401

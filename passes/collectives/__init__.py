"""Collectives, infeed/outfeed and send/recv: as host calls of shlo's runtime for
multi-process programs (shlo-host-collectives), or as data movement in a one-process program."""

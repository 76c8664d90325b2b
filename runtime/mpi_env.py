"""The MPI launcher's environment, hidden while IREE opens a device.

Under `mpiexec` (or `srun`), IREE's device creation sees PMI_*/OMPI_COMM_WORLD_*/
MPIEXEC_* variables and tries to load an MPI channel provider from `libmpi.so`, which fails
("MPI runtime library not available ... creating MPI channel provider") with the pip MPI
wheels; shlo needs no IREE channel (its collectives are host calls), so the variables are
removed while the device is created and restored afterwards.
"""
from __future__ import annotations

import contextlib
import os

PREFIXES = ("PMI_", "PMIX_", "OMPI_COMM_WORLD", "MPIEXEC_")
# the launchers' variables for a rank's position among the ranks of its host: MPICH's hydra,
# Open MPI, Slurm's srun, PMIx, Cray PALS, MVAPICH
LOCAL_RANK_VARIABLES = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
                        "PMIX_LOCAL_RANK", "PALS_LOCAL_RANKID", "MV2_COMM_WORLD_LOCAL_RANK")


def launched_by_mpi() -> bool:
    """Whether this process was started by an MPI launcher (mpiexec, srun with PMI)."""
    return any(k.startswith(PREFIXES) for k in os.environ)


def local_rank() -> int | None:
    """This process's rank among the ranks on its host, as the launcher tells it (None when
    no launcher variable says)."""
    for name in LOCAL_RANK_VARIABLES:
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


@contextlib.contextmanager
def without_mpi_environment():
    """Remove the launcher's variables from os.environ for the duration (then put them back)."""
    hidden = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith(PREFIXES)}
    try:
        yield
    finally:
        os.environ.update(hidden)

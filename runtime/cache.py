"""On-disk compile cache: .vmfb files keyed by module, flags, target and compiler version.

The key is a SHA-256 of the module exactly as IREE receives it (after shlo's
pipeline), the target's name and full flag list, and the IREE compiler's
version and revision. Entries are written atomically (a temporary file renamed
into place), carry their own length and digest so a truncated or corrupt entry
is detected and rebuilt, and the least recently used entries are evicted when
the directory grows past its size limit.

    SHLO_CACHE_DIR        where entries live (default: $XDG_CACHE_HOME/shlo or ~/.cache/shlo)
    SHLO_CACHE_MAX_BYTES  size limit (default 1 GiB)
    SHLO_CACHE=0          turn the cache off
"""
from __future__ import annotations

import hashlib
import os
import tempfile

FORMAT = b"shlo-vmfb-cache-1\n"
DEFAULT_MAX_BYTES = 1 << 30
SUFFIX = ".vmfb"


class CompileCache:
    def __init__(self, directory: str, max_bytes: int = DEFAULT_MAX_BYTES):
        self.directory = directory
        self.max_bytes = max_bytes
        self.hits = self.misses = self.rebuilt = 0

    @classmethod
    def from_environment(cls) -> CompileCache | None:
        """The cache the environment asks for, or None when SHLO_CACHE=0."""
        if os.environ.get("SHLO_CACHE", "1").lower() in ("0", "false", "off", "no"):
            return None
        directory = os.environ.get("SHLO_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "shlo")
        max_bytes = int(os.environ.get("SHLO_CACHE_MAX_BYTES", DEFAULT_MAX_BYTES))
        return cls(directory, max_bytes)

    @staticmethod
    def key(module: bytes, target_name: str, flags: tuple[str, ...]) -> str:
        digest = hashlib.sha256(FORMAT)
        for part in (compiler_version().encode(), target_name.encode(),
                     "\0".join(flags).encode(), module):
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        return digest.hexdigest()

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key + SUFFIX)

    def get(self, key: str) -> bytes | None:
        """The cached .vmfb, or None (a damaged entry is removed, to be rebuilt)."""
        path = self.path(key)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.misses += 1
            return None
        payload = _unwrap(data)
        if payload is None:
            self.rebuilt += 1
            self.misses += 1
            _remove(path)
            return None
        try:
            os.utime(path)                 # recently used: evicted last
        except OSError:
            pass
        self.hits += 1
        return payload

    def put(self, key: str, vmfb: bytes) -> None:
        """Store an entry atomically, then evict the least recently used past the size limit."""
        try:
            os.makedirs(self.directory, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=SUFFIX)
            with os.fdopen(fd, "wb") as f:
                f.write(_wrap(vmfb))
            os.replace(tmp, self.path(key))
        except OSError:
            return                          # a cache that cannot be written is no cache
        self.evict()

    def evict(self) -> None:
        entries = []
        for name in os.listdir(self.directory):
            if name.endswith(SUFFIX) and not name.startswith(".tmp-"):
                try:
                    st = os.stat(os.path.join(self.directory, name))
                except OSError:
                    continue
                entries.append((st.st_mtime, st.st_size, name))
        total = sum(size for _, size, _ in entries)
        for _, size, name in sorted(entries):
            if total <= self.max_bytes:
                break
            _remove(os.path.join(self.directory, name))
            total -= size

    def size(self) -> int:
        """Bytes the entries take on disk."""
        if not os.path.isdir(self.directory):
            return 0
        return sum(os.path.getsize(os.path.join(self.directory, n))
                   for n in os.listdir(self.directory) if n.endswith(SUFFIX))


def compiler_version() -> str:
    from iree.compiler import version
    return f"{version.VERSION}@{version.REVISIONS.get('IREE', '')}"


def _wrap(payload: bytes) -> bytes:
    header = FORMAT + hashlib.sha256(payload).hexdigest().encode() + b" " + \
        str(len(payload)).encode() + b"\n"
    return header + payload


def _unwrap(data: bytes) -> bytes | None:
    if not data.startswith(FORMAT):
        return None
    line, newline, payload = data[len(FORMAT):].partition(b"\n")
    digest, _, length = line.partition(b" ")
    if not newline or not length.isdigit() or int(length) != len(payload):
        return None
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    return payload


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass

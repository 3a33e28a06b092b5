"""A process-wide cache of values by key, bounded in bytes (least recently used dropped first) and safe
across threads: one lock guards the table, one lock per key makes concurrent callers build a value once."""

from __future__ import annotations

import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Generic, TypeVar

import numpy as np

V = TypeVar("V")

_OPAQUE = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)


_LEAVES = (str, int, float, bool, bytes)


def approx_nbytes(obj: object, *, skip: tuple[type, ...] = ()) -> int:
    """Bytes an object graph holds, roughly: numpy buffers, containers and object attributes counted once each,
    strings and numbers where they are held (a string held in two places counts twice: an estimate from above);
    instances of `skip` (and classes, modules, functions) are not entered."""
    seen: set[int] = set()
    stack = [obj]
    total = 0
    size = sys.getsizeof
    while stack:
        item = stack.pop()
        if type(item) in _LEAVES:
            total += size(item)
            continue
        if id(item) in seen or isinstance(item, _OPAQUE) or (skip and isinstance(item, skip)):
            continue
        seen.add(id(item))
        total += size(item)  # an array that owns its buffer counts it here
        if isinstance(item, np.ndarray):
            if item.base is not None:  # a view: its buffer belongs to the base
                stack.append(item.base)
            continue
        try:
            children: tuple = ()
            if isinstance(item, dict):
                children = tuple(item.keys()) + tuple(item.values())
            elif isinstance(item, list | tuple | set | frozenset):
                children = tuple(item)
            elif not isinstance(item, _LEAVES):
                attributes = getattr(item, "__dict__", None)
                children = tuple(attributes.values()) if attributes is not None else ()
                children += tuple(getattr(item, name) for name in getattr(type(item), "__slots__", ())
                                  if hasattr(item, name))
        except RuntimeError:  # another thread changed the container meanwhile: its items go uncounted
            continue
        leaves = [child for child in children if type(child) in _LEAVES]
        total += sum(map(size, leaves))
        if len(leaves) < len(children):
            stack.extend(child for child in children if type(child) not in _LEAVES)
    return total


@dataclass
class _Entry(Generic[V]):
    stamp: Hashable
    value: V
    nbytes: int | None = None  # None: not measured yet (a value alone in the table is weighed against nothing)


class _KeyLock:
    """A lock per key (an object, so that the table can hold it weakly)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()


@dataclass
class CacheStats:
    hits: int = 0
    builds: int = 0
    evictions: int = 0
    waits: int = 0  # callers that found another thread building the same key and waited for it


class BytesLru(Generic[V]):
    """Values by key, each valid while its stamp is unchanged.

    `get(key, stamp, build)` returns the cached value when `stamp()` is what it was built with, else builds
    it (once, however many threads ask for the key at the same time; other keys are not held up). After a
    build, least recently used values are dropped until the total of `size(value)` is within `max_bytes()`
    (sizes measured again then: values may grow while cached; a value alone in the table is only measured
    when another comes). The newest value is kept even alone over the bound (it is in use); a bound of 0 keeps
    nothing.
    """

    def __init__(self, max_bytes: Callable[[], int], size: Callable[[V], int]) -> None:
        self._max_bytes = max_bytes
        self._size = size
        self._entries: OrderedDict[Hashable, _Entry[V]] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: weakref.WeakValueDictionary[Hashable, _KeyLock] = weakref.WeakValueDictionary()
        self.stats = CacheStats()

    def get(self, key: Hashable, stamp: Callable[[], Hashable], build: Callable[[], V]) -> V:
        with self._lock:
            key_lock = self._key_locks.get(key)
            if key_lock is None:
                key_lock = self._key_locks[key] = _KeyLock()
        if not key_lock.lock.acquire(blocking=False):
            with self._lock:
                self.stats.waits += 1
            key_lock.lock.acquire()
        try:
            current = stamp()
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None and entry.stamp == current:
                    self._entries.move_to_end(key)
                    self.stats.hits += 1
                    return entry.value
            value = build()
            self._store(key, _Entry(current, value))
            return value
        finally:
            key_lock.lock.release()

    def _store(self, key: Hashable, entry: _Entry[V]) -> None:
        limit = self._max_bytes()
        with self._lock:
            self.stats.builds += 1
            self._entries.pop(key, None)
            if limit <= 0:
                return
            self._entries[key] = entry
            if len(self._entries) == 1:
                return
        self._measure()
        with self._lock:
            total = sum(e.nbytes or 0 for e in self._entries.values())
            for k in list(self._entries):
                if total <= limit or k == key:
                    break
                total -= self._entries.pop(k).nbytes or 0
                self.stats.evictions += 1

    def _measure(self) -> None:
        """Measure every cached value again (outside the lock: measuring takes a while, values may have grown)."""
        with self._lock:
            entries = list(self._entries.items())
        sizes = {k: self._size(e.value) for k, e in entries}
        with self._lock:
            for k, nbytes in sizes.items():
                if k in self._entries:
                    self._entries[k].nbytes = nbytes

    def discard(self, drop: Callable[[Hashable], bool]) -> int:
        """Forget the values whose key `drop` accepts (e.g. of workspaces deleted since); how many."""
        with self._lock:
            gone = [k for k in self._entries if drop(k)]
            for k in gone:
                del self._entries[k]
        return len(gone)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def lru_keys(self) -> list[Hashable]:
        """Cached keys, least recently used first."""
        with self._lock:
            return list(self._entries)

    @property
    def nbytes(self) -> int:
        """The cached values' sizes, measured now."""
        self._measure()
        with self._lock:
            return sum(e.nbytes or 0 for e in self._entries.values())

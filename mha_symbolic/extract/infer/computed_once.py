"""A property computed on first reading and kept on the object: ``functools.cached_property``
without its lock (Python 3.11 takes one on every first reading, and the relation search makes
some 10^5 values per page, each read a few times)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class once(Generic[T]):
    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> once[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object, owner: type | None = None) -> T | once[T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)
        return value

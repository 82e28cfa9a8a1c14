"""Records: the tool's plain data classes, made as ``dataclasses`` makes them, at a
small part of the start-up cost.

Every command starts a fresh interpreter (the merge driver on every rebase step,
``verify`` on every CI run), and defining a class is part of that start.
``dataclasses`` compiles each generated method on its own and imports ``inspect``
on the way; here only ``__init__`` is compiled (its signature is the fields'), and
the other methods are shared functions over the fields' names, which read the
values in C (``attrgetter``). It pays more than 5 ms of a real command's start
(docs/performance.md, "Start-up tricks").

What a record does is what ``@dataclass`` and ``@dataclass(frozen=True)`` do
with the features this package uses, and nothing more: fields from the class's
own annotations (``ClassVar`` ones excluded) and its record bases, defaults and
:func:`field` (``default``, ``default_factory``, ``repr``, ``compare``), an
``__init__`` taking the fields in order, ``__repr__`` (``Name(a=1, b='x')``),
``__eq__`` between instances of the same class, and for a frozen record
``__hash__`` and assignment refused with :class:`FrozenInstanceError`; a
non-frozen record is unhashable, as a dataclass is. A method the class defines
itself is kept. :func:`replace`, :func:`fields`, :func:`asdict` and
:func:`astuple` stand in for the ``dataclasses`` functions of the same names.
Type checkers see records as dataclasses (``dataclass_transform``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform, overload

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()
"""No default (a field's ``default`` and ``default_factory`` unset)."""


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record."""


class Field:
    """One field of a record: its name, default or default factory, and whether it
    shows in ``repr`` and takes part in ``==`` and ``hash``."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(
        self,
        default: object = MISSING,
        default_factory: Callable[[], object] | _Missing = MISSING,
        repr: bool = True,
        compare: bool = True,
    ) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r})"


def field(
    *,
    default: object = MISSING,
    default_factory: Callable[[], object] | _Missing = MISSING,
    repr: bool = True,
    compare: bool = True,
) -> Any:
    """A field's options, as ``dataclasses.field`` takes them (typed ``Any``, as
    ``dataclasses.field`` is: it stands where a value of the field's type goes)."""
    return Field(default, default_factory, repr, compare)


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field, Field))
def record(
    cls: type[T] | None = None, /, *, frozen: bool = False
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a record: ``@record`` or ``@record(frozen=True)``."""

    def wrap(cls: type[T]) -> type[T]:
        return _make(cls, frozen)

    return wrap if cls is None else wrap(cls)


def _is_classvar(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _fields_of(cls: type) -> list[Field]:
    """The fields in order: the record bases' first, then the class's own."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for inherited in getattr(base, "__record_fields__", ()):
            found[inherited.name] = inherited
    own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (inspect is the cost avoided)
    for name, annotation in own.items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(default=value)
        if isinstance(spec.default, list | dict | set):
            raise ValueError(
                f"mutable default {type(spec.default)} for field {name} "
                "is not allowed: use default_factory"
            )
        spec.name = name
        found[name] = spec
        if isinstance(value, Field):  # the class keeps a plain default, as a dataclass does
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
    return list(found.values())


def _make(cls: type[T], frozen: bool) -> type[T]:
    specs = _fields_of(cls)
    seen_default = False
    for spec in specs:
        has_default = spec.default is not MISSING or spec.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        seen_default = seen_default or has_default
    names = tuple(spec.name for spec in specs)
    own = cls.__dict__
    methods: dict[str, Callable[..., object]] = {
        "__init__": _init(specs, frozen),
        "__repr__": _repr([s.name for s in specs if s.repr]),
        "__eq__": _eq(_values([s.name for s in specs if s.compare])),
    }
    for name, method in methods.items():
        if name not in own:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if own.get("__hash__") is None:
        cls.__hash__ = _hash(_values([s.name for s in specs if s.compare])) if frozen else None  # type: ignore[method-assign,assignment]
    if frozen:
        for name, method in _frozen(cls, frozenset(names)).items():
            if name in own:
                raise TypeError(
                    f"cannot overwrite attribute {name} in frozen record {cls.__name__}"
                )
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    setattr(cls, "__record_fields__", tuple(specs))  # noqa: B010 (not a typed attribute)
    setattr(cls, "__match_args__", names)  # noqa: B010
    return cls


def _init(specs: list[Field], frozen: bool) -> Callable[..., None]:
    """``__init__``, the one compiled method (its signature is the fields'): the others
    are shared functions, so a class costs one small compilation at start-up."""
    namespace: dict[str, object] = {"MISSING": MISSING, "object_setattr": object.__setattr__}
    params, body = [], []
    for spec in specs:
        value = spec.name
        if spec.default_factory is not MISSING:
            namespace[f"factory_{spec.name}"] = spec.default_factory
            params.append(f"{spec.name}=MISSING")
            value = f"factory_{spec.name}() if {spec.name} is MISSING else {spec.name}"
        elif spec.default is not MISSING:
            namespace[f"default_{spec.name}"] = spec.default
            params.append(f"{spec.name}=default_{spec.name}")
        else:
            params.append(spec.name)
        set_it = (
            f"object_setattr(self, {spec.name!r}, {value})"
            if frozen
            else f"self.{spec.name} = {value}"
        )
        body.append(f"  {set_it}")
    source = "\n".join([f"def __init__(self, {', '.join(params)}):", *(body or ["  pass"])])
    exec(source, namespace)
    return cast("Callable[..., None]", namespace["__init__"])


def _values(names: list[str]) -> Callable[[object], tuple[object, ...]]:
    """The fields' values as a tuple, read in C (``attrgetter``)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    values: Callable[[object], tuple[object, ...]] = attrgetter(*names)
    return values


def _repr(names: list[str]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(values: Callable[[object], tuple[object, ...]]) -> Callable[[object, object], bool]:
    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[object], tuple[object, ...]]) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(values(self))

    return __hash__


def _frozen(cls: type, names: frozenset[str]) -> dict[str, Callable[..., None]]:
    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return {"__setattr__": __setattr__, "__delattr__": __delattr__}


def is_record(obj: object) -> bool:
    """``obj`` is a record or a record class."""
    return hasattr(obj, "__record_fields__")


def fields(obj: Any) -> tuple[Field, ...]:
    """A record's (or record class's) fields, in order."""
    try:
        found: tuple[Field, ...] = obj.__record_fields__
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None
    return found


def replace(obj: T, /, **changes: object) -> T:
    """A new record like ``obj`` with ``changes`` to its fields."""
    for spec in fields(obj):
        if spec.name not in changes:
            changes[spec.name] = getattr(obj, spec.name)
    made: T = obj.__class__(**changes)
    return made


def astuple(obj: object) -> tuple[Any, ...]:
    """A record's field values, in order (nested records, lists, tuples and dicts
    copied as tuples and containers, as ``dataclasses.astuple`` does)."""
    return tuple(_copied(getattr(obj, spec.name), astuple) for spec in fields(obj))


def asdict(obj: object) -> dict[str, Any]:
    """A record's fields as a dict (nested records as dicts; lists, tuples and dicts
    copied; other values deep-copied, as ``dataclasses.asdict`` does)."""
    return {spec.name: _copied(getattr(obj, spec.name), asdict) for spec in fields(obj)}


def _copied(value: object, inner: Callable[[object], object]) -> object:
    if is_record(value) and not isinstance(value, type):
        return inner(value)
    if isinstance(value, list | tuple):
        return type(value)(_copied(v, inner) for v in value)
    if isinstance(value, dict):
        return type(value)((_copied(k, inner), _copied(v, inner)) for k, v in value.items())
    return copy.deepcopy(value)

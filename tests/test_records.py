"""Records behave as the standard library's dataclasses do, for the features the
package uses: checked side by side on generated classes and values."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from changelog_tool import records
from changelog_tool.records import FrozenInstanceError, field, record

NAMES = st.lists(
    st.sampled_from(["a", "b", "c", "data", "line", "name", "size", "x"]),
    min_size=0,
    max_size=5,
    unique=True,
)
# a field: (name, default kind, shown in repr, compared)
KINDS = st.sampled_from(["none", "default", "factory"])


@st.composite
def specs(draw: st.DrawFn) -> tuple[list[tuple[str, str, bool, bool]], bool]:
    names = draw(NAMES)
    kinds = sorted((draw(KINDS) for _ in names), key=lambda k: k != "none")  # no default first
    return (
        [
            (n, k, draw(st.booleans()), draw(st.booleans()))
            for n, k in zip(names, kinds, strict=True)
        ],
        draw(st.booleans()),
    )


def build(spec: list[tuple[str, str, bool, bool]], frozen: bool, *, ours: bool) -> type:
    namespace: dict[str, Any] = {"__annotations__": {n: "Any" for n, *_ in spec}}
    make_field = field if ours else dataclasses.field
    for name, kind, shown, compared in spec:
        if kind == "default":
            namespace[name] = make_field(default=len(name), repr=shown, compare=compared)
        elif kind == "factory":
            namespace[name] = make_field(default_factory=list, repr=shown, compare=compared)
        elif not (shown and compared):
            namespace[name] = make_field(repr=shown, compare=compared)
    cls = type("Thing", (), namespace)
    if ours:
        return record(frozen=frozen)(cls)
    return dataclasses.dataclass(frozen=frozen)(cls)


def hashed(value: object) -> int | str:
    try:
        return hash(value)
    except TypeError:
        return "unhashable"


VALUES = st.one_of(st.integers(-3, 3), st.text(max_size=3), st.lists(st.integers(0, 2), max_size=2))


@given(specs(), st.data())
def test_records_match_dataclasses(spec_frozen: Any, data: st.DataObject) -> None:
    spec, frozen = spec_frozen
    ours, theirs = build(spec, frozen, ours=True), build(spec, frozen, ours=False)
    required = [name for name, kind, *_ in spec if kind == "none"]
    optional = [name for name, kind, *_ in spec if kind != "none"]
    given_values = {name: data.draw(VALUES) for name in required}
    given_values.update({n: data.draw(VALUES) for n in optional if data.draw(st.booleans())})
    other_values = dict(given_values)
    if spec and data.draw(st.booleans()):
        other_values[spec[0][0]] = data.draw(VALUES)
    mine, same = ours(**given_values), theirs(**given_values)
    mine2, same2 = ours(**other_values), theirs(**other_values)

    assert repr(mine) == repr(same)
    assert (mine == mine2) == (same == same2)
    assert (mine == object()) is False and (mine != same) is True  # another class is never equal
    assert records.astuple(mine) == dataclasses.astuple(same)
    assert records.asdict(mine) == dataclasses.asdict(same)
    assert [f.name for f in records.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert ours.__match_args__ == theirs.__match_args__  # type: ignore[attr-defined]
    if spec:
        name = spec[-1][0]
        changed = {name: data.draw(VALUES)}
        assert repr(records.replace(mine, **changed)) == repr(dataclasses.replace(same, **changed))
    factory_fields = [name for name, kind, *_ in spec if kind == "factory"]
    if factory_fields:  # a default factory makes a new value for each instance
        fresh, fresh_too = (
            ours(**{n: given_values[n] for n in required}),
            ours(**{n: given_values[n] for n in required}),
        )
        assert getattr(fresh, factory_fields[0]) is not getattr(fresh_too, factory_fields[0])
    if frozen:
        assert hashed(mine) == hashed(same)  # a list field makes both unhashable
        if mine == mine2:
            assert hashed(mine) == hashed(mine2)
        for target in (mine, same):
            with pytest.raises(AttributeError) as caught:
                target.new_name = 1
            with pytest.raises(AttributeError):
                del target.new_name
        assert isinstance(caught.value, dataclasses.FrozenInstanceError)
        with pytest.raises(FrozenInstanceError):
            mine.anything = 1
    else:
        assert ours.__hash__ is None and theirs.__hash__ is None  # unhashable, as a dataclass
        mine.extra = 1  # assignment is allowed
        assert mine.extra == 1


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class Bad:
            a: int = 1
            b: int


def test_a_mutable_default_is_refused() -> None:
    with pytest.raises(ValueError, match="use default_factory"):

        @record
        class Bad:
            a: list[int] = []  # noqa: RUF012


def test_class_variables_and_own_methods_are_kept() -> None:
    @record(frozen=True)
    class Point:
        origin: ClassVar[int] = 0
        x: int
        y: int = 2

        def __repr__(self) -> str:
            return f"<{self.x},{self.y}>"

    point = Point(1)
    assert repr(point) == "<1,2>"
    assert [f.name for f in records.fields(Point)] == ["x", "y"]
    assert Point.origin == 0 and Point.y == 2
    assert {point, Point(1, 2)} == {point}


def test_a_record_exception_keeps_its_args_and_fields() -> None:
    @record(frozen=True)
    class Problem(Exception):
        code: str
        line: int

    with pytest.raises(Problem) as caught:
        raise Problem("yaml-syntax", 3)
    assert caught.value.args == ("yaml-syntax", 3)
    assert (caught.value.code, caught.value.line) == ("yaml-syntax", 3)


def test_fields_come_from_record_bases_first() -> None:
    @record
    class Base:
        a: int

    @record
    class Child(Base):
        b: str = "x"

    assert repr(Child(1)) == f"{Child.__qualname__}(a=1, b='x')"
    assert records.asdict(Child(1, "y")) == {"a": 1, "b": "y"}

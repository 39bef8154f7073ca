"""The one checked reader: each accessor's success and failure, locations, error classes."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from wartable.core.errors import DataError, MapError
from wartable.core.frozen import FrozenMap
from wartable.model.parse import Reader, found, is_number, one_of, shown

SRC = "data.toml"


def reader(data: Any, where: str = "") -> Reader:
    return Reader(data, SRC, where)


def error(read: Callable[[], object]) -> DataError:
    with pytest.raises(DataError) as info:
        read()
    assert info.value.source == SRC
    return info.value


def check_error(read: Callable[[], object], where: str, what: str) -> None:
    e = error(read)
    assert (e.where, e.what) == (where, what)
    assert str(e) == (f"{SRC}: {where}: {what}" if where else f"{SRC}: {what}")


# --- values in messages ---------------------------------------------------------------------


def test_found_names_the_kind_and_shows_the_value() -> None:
    assert found("x") == "text ('x')"
    assert found(3) == "a number (3)"
    assert found(2.5) == "a number (2.5)"
    assert found(True) == "true/false (true)"
    assert found(None) == "null"
    assert found([1, "a"]) == 'a list ([1, "a"])'
    assert found((1, 2)) == "a list ([1, 2])"  # frozen data holds tuples for lists
    assert found({"a": 1}) == 'a table ({"a": 1})'
    assert found(FrozenMap({"a": 1})).startswith("a table (")
    assert found({"a": 1}, "an object") == 'an object ({"a": 1})'


def test_shown_is_short() -> None:
    long = shown(list(range(100)))
    assert len(long) == 40 and long.endswith("...")
    assert shown("x" * 10) == "'xxxxxxxxxx'"


def test_is_number_and_one_of() -> None:
    assert is_number(1) and is_number(1.5)
    assert not is_number(True) and not is_number(math.inf) and not is_number(math.nan)
    assert not is_number("1")
    assert one_of(["a"]) == "'a'"
    assert one_of(["a", "b"]) == "'a' or 'b'"
    assert one_of(["a", "b", "c"]) == "one of 'a', 'b', 'c'"


# --- the table itself -----------------------------------------------------------------------


def test_not_a_table() -> None:
    check_error(lambda: reader([1], "game"), "game", "must be a table, not a list ([1])")
    check_error(lambda: reader("x"), "", "must be a table, not text ('x')")


def test_frozen_tables_are_tables() -> None:
    r = reader(FrozenMap({"a": (1, 2)}))
    assert r.seq("a") == (1, 2)


# --- text -----------------------------------------------------------------------------------


def test_text() -> None:
    r = reader({"name": "Moscow", "blank": " ", "n": 3})
    assert r.text("name") == "Moscow"
    assert r.text("blank") == " "
    check_error(lambda: r.text("n"), "n", "must be text, not a number (3)")
    check_error(lambda: r.text("gone"), "gone", "is missing")
    check_error(lambda: r.text("blank", nonempty=True), "blank", "must not be empty")


def test_opt_text() -> None:
    r = reader({"name": "Moscow", "null": None, "blank": "", "n": 3})
    assert r.opt_text("name") == "Moscow"
    assert r.opt_text("gone") is None
    assert r.opt_text("gone", "") == ""
    assert r.opt_text("null", "dflt") == "dflt"  # a JSON null is an absent field
    assert r.opt_text("blank", "dflt") == ""
    check_error(lambda: r.opt_text("n", ""), "n", "must be text, not a number (3)")
    check_error(lambda: r.opt_text("blank", nonempty=True), "blank", "must not be empty")


def test_null_is_not_a_value_for_a_required_field() -> None:
    check_error(lambda: reader({"name": None}).text("name"), "name", "must be text, not null")


# --- numbers and flags ----------------------------------------------------------------------


def test_integer() -> None:
    r = reader({"n": 3, "neg": -2, "f": 3.0, "b": True, "s": "x"})
    assert r.integer("n") == 3
    assert r.integer("neg") == -2
    check_error(lambda: r.integer("s"), "s", "must be a whole number, not text ('x')")
    check_error(lambda: r.integer("f"), "f", "must be a whole number, not a number (3.0)")
    check_error(lambda: r.integer("b"), "b", "must be a whole number, not true/false (true)")
    check_error(lambda: r.integer("gone"), "gone", "is missing")
    assert r.integer("n", minimum=3) == 3
    check_error(lambda: r.integer("neg", minimum=0), "neg", "must be at least 0, not -2")


def test_opt_integer() -> None:
    r = reader({"n": 3, "b": False, "neg": -1})
    assert r.opt_integer("n") == 3
    assert r.opt_integer("gone") is None
    assert r.opt_integer("gone", 7) == 7
    assert r.opt_integer("gone", 0, minimum=1) == 0  # the default is the caller's business
    check_error(
        lambda: r.opt_integer("b", 0), "b", "must be a whole number, not true/false (false)"
    )
    check_error(lambda: r.opt_integer("neg", minimum=0), "neg", "must be at least 0, not -1")


def test_number() -> None:
    r = reader({"i": 2, "f": 2.5, "b": True, "inf": math.inf, "s": "big"})
    assert r.number("i") == 2.0 and isinstance(r.number("i"), float)
    assert r.number("f") == 2.5
    check_error(lambda: r.number("s"), "s", "must be a number, not text ('big')")
    check_error(lambda: r.number("b"), "b", "must be a number, not true/false (true)")
    check_error(lambda: r.number("inf"), "inf", "must be a finite number, not inf")
    check_error(lambda: r.number("gone"), "gone", "is missing")
    assert r.opt_number("gone") is None
    assert r.opt_number("gone", 0.0) == 0.0
    assert r.opt_number("f", 0.0) == 2.5
    check_error(lambda: r.opt_number("s"), "s", "must be a number, not text ('big')")


def test_flag() -> None:
    r = reader({"yes": True, "no": False, "s": "yes", "one": 1})
    assert r.flag("yes") is True and r.flag("no") is False
    check_error(lambda: r.flag("s"), "s", "must be true or false, not text ('yes')")
    check_error(lambda: r.flag("one"), "one", "must be true or false, not a number (1)")
    check_error(lambda: r.flag("gone"), "gone", "is missing")
    assert r.opt_flag("gone") is False
    assert r.opt_flag("gone", True) is True
    assert r.opt_flag("no", True) is False
    check_error(lambda: r.opt_flag("s"), "s", "must be true or false, not text ('yes')")


def test_choice() -> None:
    r = reader({"kind": "land", "bad": "air", "n": 1})
    assert r.choice("kind", ("land", "sea")) == "land"
    check_error(
        lambda: r.choice("bad", ("land", "sea")), "bad", "must be 'land' or 'sea', not 'air'"
    )
    check_error(
        lambda: r.choice("bad", ("a", "b", "c")), "bad", "must be one of 'a', 'b', 'c', not 'air'"
    )
    check_error(lambda: r.choice("n", ("land",)), "n", "must be text, not a number (1)")
    check_error(lambda: r.choice("gone", ("land",)), "gone", "is missing")
    assert r.opt_choice("gone", ("land", "sea"), "sea") == "sea"
    assert r.opt_choice("kind", ("land", "sea"), "sea") == "land"
    check_error(lambda: r.opt_choice("bad", ("land",), "land"), "bad", "must be 'land', not 'air'")


def test_point() -> None:
    r = reader({"p": [1, 2.5], "short": [1], "text": ["a", "b"], "inf": [0, math.inf]})
    assert r.point("p") == (1.0, 2.5)
    check_error(lambda: r.point("short"), "short", "must be a point [x, y], not a list ([1])")
    check_error(lambda: r.point("text"), "text", 'must be a point [x, y], not a list (["a", "b"])')
    check_error(lambda: r.point("inf"), "inf", "must be a point [x, y], not a list ([0, Infinity])")
    check_error(lambda: r.point("gone"), "gone", "is missing")
    assert r.opt_point("gone") is None
    assert r.opt_point("p") == (1.0, 2.5)


# --- lists and tables -----------------------------------------------------------------------


def test_seq() -> None:
    r = reader({"l": [1, 2], "t": (3,), "empty": [], "s": "abc", "d": {"a": 1}})
    assert r.seq("l") == [1, 2]
    assert r.seq("t") == (3,)
    assert r.seq("empty") == []
    check_error(lambda: r.seq("s"), "s", "must be a list, not text ('abc')")
    check_error(lambda: r.seq("d"), "d", 'must be a list, not a table ({"a": 1})')
    check_error(lambda: r.seq("gone"), "gone", "is missing")
    check_error(lambda: r.seq("empty", nonempty=True), "empty", "must not be empty")
    assert r.opt_seq("gone") == ()
    assert r.opt_seq("l") == [1, 2]
    check_error(lambda: r.opt_seq("s"), "s", "must be a list, not text ('abc')")


def test_seq_of_checks_every_item() -> None:
    r = reader({"ints": [1, 2], "mixed": [1, "2"], "nums": [1, 2.5], "texts": ["a", 1]}, "unit")
    assert r.seq("ints", of="integer") == [1, 2]
    assert r.seq("nums", of="number") == [1.0, 2.5]
    check_error(
        lambda: r.seq("mixed", of="integer"),
        "unit.mixed[1]",
        "must be a whole number, not text ('2')",
    )
    check_error(
        lambda: r.opt_seq("texts", of="text"), "unit.texts[1]", "must be text, not a number (1)"
    )
    assert r.opt_seq("gone", of="text") == ()


def test_table_and_sub() -> None:
    r = reader({"vars": {"a": 1}, "s": "x", "null": None}, "scenarios[0]")
    assert r.table("vars") == {"a": 1}
    assert r.opt_table("gone") == {}
    assert r.opt_table("null") == {}
    check_error(lambda: r.table("s"), "scenarios[0].s", "must be a table, not text ('x')")
    check_error(lambda: r.table("gone"), "scenarios[0].gone", "is missing")
    sub = r.sub("vars")
    assert sub.where == "scenarios[0].vars" and sub.integer("a") == 1
    check_error(lambda: sub.text("a"), "scenarios[0].vars.a", "must be text, not a number (1)")
    check_error(lambda: r.sub("s"), "scenarios[0].s", "must be a table, not text ('x')")
    check_error(lambda: r.sub("gone"), "scenarios[0].gone", "is missing")
    assert r.opt_sub("gone") is None and r.opt_sub("null") is None
    opt = r.opt_sub("vars")
    assert opt is not None and opt.where == "scenarios[0].vars"
    check_error(lambda: r.opt_sub("s"), "scenarios[0].s", "must be a table, not text ('x')")


def test_items_locate_each_table() -> None:
    r = reader({"phases": [{"id": "a"}, {"id": 2}], "bad": [{"id": "a"}, "b"]}, "sequence")
    phases = r.items("phases")
    assert [p.where for p in phases] == ["sequence.phases[0]", "sequence.phases[1]"]
    assert phases[0].text("id") == "a"
    check_error(
        lambda: phases[1].text("id"), "sequence.phases[1].id", "must be text, not a number (2)"
    )
    check_error(lambda: r.items("bad"), "sequence.bad[1]", "must be a table, not text ('b')")
    check_error(lambda: r.items("gone"), "sequence.gone", "is missing")
    assert r.opt_items("gone") == []
    assert len(r.opt_items("phases")) == 2


def test_nested_locations_at_the_top_level() -> None:
    r = reader({"game": {"sides": [{"colour": {"x": 1}}]}})
    side = r.sub("game").items("sides")[0]
    assert side.where == "game.sides[0]"
    check_error(
        lambda: side.sub("colour").text("x"),
        "game.sides[0].colour.x",
        "must be text, not a number (1)",
    )


# --- locations, known fields, errors --------------------------------------------------------


def test_loc() -> None:
    assert reader({}).loc("a") == "a"
    assert reader({}, "x").loc("a") == "x.a"
    assert reader({}, "x").loc("a[2]") == "x.a[2]"
    assert reader({}, "x").loc("[2]") == "x[2]"
    assert reader({}, "x").loc("") == "x"


def test_at_renames_the_location() -> None:
    r = reader({"id": "finland", "value": "1"}, "modifiers[0]")
    named = r.at(f"modifiers[{r.text('id')}]")
    assert named.data is r.data
    check_error(
        lambda: named.integer("value"),
        "modifiers[finland].value",
        "must be a whole number, not text ('1')",
    )


def test_fail_and_fail_here() -> None:
    r = reader({}, "hex 0101")
    e = r.fail("terrain", "unknown terrain 'swamp'")
    assert isinstance(e, DataError)
    assert (e.where, e.what) == ("hex 0101.terrain", "unknown terrain 'swamp'")
    e = r.fail_here("duplicate hex")
    assert (e.where, e.what) == ("hex 0101", "duplicate hex")
    assert str(reader({}).fail_here("empty")) == f"{SRC}: empty"


def test_has() -> None:
    r = reader({"a": 0, "b": None, "c": False})
    assert r.has("a") and r.has("c")
    assert not r.has("b") and not r.has("gone")


def test_known() -> None:
    r = reader({"id": "x", "titel": "y"}, "procedure")
    reader({"id": "x"}).known("id", "title")
    check_error(
        lambda: r.known("id", "title", "rule"),
        "procedure.titel",
        "unknown field (did you mean 'title'?); expected one of id, title, rule",
    )
    check_error(
        lambda: reader({"zzz": 1}).known("id", "title"),
        "zzz",
        "unknown field; expected one of id, title",
    )


def test_known_reports_the_first_unknown_field_in_file_order() -> None:
    e = error(lambda: reader({"b": 1, "a": 2}).known("c"))
    assert e.where == "b"


# --- the error class ------------------------------------------------------------------------


def test_error_class_is_kept_by_every_reader_made_from_it() -> None:
    r = Reader({"hexes": [{"label": 5}], "layout": {"size": "x"}}, "m.json", error=MapError)
    with pytest.raises(MapError) as info:
        r.items("hexes")[0].text("label")
    assert info.value.where == "hexes[0].label"
    with pytest.raises(MapError):
        r.sub("layout").number("size")
    with pytest.raises(MapError):
        r.at("somewhere").text("gone")
    assert isinstance(r.fail("x", "y"), MapError)
    with pytest.raises(MapError):
        Reader([], "m.json", error=MapError)


def test_data_error_is_the_default() -> None:
    with pytest.raises(DataError) as info:
        reader({}).text("gone")
    assert type(info.value) is DataError


def test_table_word_names_tables_in_json_files() -> None:
    r = Reader({"hexes": ["0101"], "n": {"a": 1}}, "m.json", error=MapError, table_word="an object")
    with pytest.raises(MapError) as info:
        r.items("hexes")
    assert info.value.what == "must be an object, not text ('0101')"
    with pytest.raises(MapError) as info:
        r.text("n")
    assert info.value.what == 'must be text, not an object ({"a": 1})'
    with pytest.raises(MapError) as info:
        r.sub("hexes")
    assert info.value.what == 'must be an object, not a list (["0101"])'

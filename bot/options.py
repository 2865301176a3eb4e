"""A rule set's options as a lobby offers them: each field of its options model
(:class:`core.ruleset.RuleOptions`) with the values it cycles through, whatever the
rules.

- a ``bool`` field: ``False``, ``True`` (off, on);
- an enum field: its values, in the enum's order;
- an optional enum field: ``None``, then its values.

Values are the options' JSON values (an enum's string), as
:attr:`bot.models.TableSettings.options` keeps them. A field of another type is not
offered (it keeps its default). A button names a field by its :attr:`Option.key`
(the name without underscores) and a value by its index, so a lobby's buttons stay
within the codec's ``[0-9A-Za-z]`` (:mod:`bot.codec`).

>>> [(option.name, option.values) for option in options_of("classic")][:2]
[('praise', ('simple', 'pants', 'mirror', 'choose', 'one_by_one')), ('kocherga', (False, True))]
>>> options_of("yard")
()
>>> option_arg(options_of("classic")[6], "H"), parse_option_arg("classic", "otrumpsuit3")
('otrumpsuit3', ('trump_suit', 'H'))
>>> parse_option_arg("classic", "otrumpsuit9"), parse_option_arg("classic", "onothing1")
(None, None)
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from core.errors import KozelError
from core.ruleset import get_rule_set, rule_set_ids

#: What an option button's argument looks like: ``o<key><value index>``.
_ARG = re.compile(r"o([a-z]{1,30})([0-9]{1,2})")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a rule set: its field's name, the values it takes (JSON values)
    and its default."""

    name: str
    values: tuple[Any, ...]
    default: Any

    @property
    def key(self) -> str:
        """The name as a button carries it (letters only)."""
        return self.name.replace("_", "")

    def next_value(self, current: Any) -> Any:
        """The value after ``current`` (the first after the last, or after a value it
        does not take)."""
        if current not in self.values:
            return self.values[0]
        return self.values[(self.values.index(current) + 1) % len(self.values)]


def _json(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _values(annotation: Any) -> tuple[Any, ...] | None:
    """The JSON values a field of this type takes, or None for a type not offered."""
    if annotation is bool:
        return (False, True)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(_json(member) for member in annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(members) == 1 and len(typing.get_args(annotation)) == 2:
            inner = _values(members[0])
            if inner is not None and members[0] is not bool:
                return (None, *inner)
    return None


@functools.cache
def options_of(rule_set_id: str) -> tuple[Option, ...]:
    """The options a lobby offers for a rule set, in the model's order (raises
    :class:`~core.errors.KozelError` for an unknown rule set)."""
    model = type(get_rule_set(rule_set_id).options())
    defaults = model()
    out = []
    for name, field in model.model_fields.items():
        values = _values(field.annotation)
        if values is None or not name.replace("_", "").isalpha():
            continue
        out.append(Option(name, values, _json(getattr(defaults, name))))
    return tuple(out)


def next_allowed(rule_set_id: str, option: Option, options: Mapping[str, Any]) -> Any:
    """The value after the one ``options`` give ``option`` that the rule set accepts with
    the others (a value it refuses with them is skipped: ``praise`` ``one_by_one``
    without a ``trump_suit``); the current value when no other is accepted.

    >>> praise = options_of("classic")[0]
    >>> next_allowed("classic", praise, {"praise": "choose"})
    'simple'
    >>> next_allowed("classic", praise, {"praise": "choose", "trump_suit": "D"})
    'one_by_one'
    """
    value = current = current_value(option, options)
    for _ in option.values:
        value = option.next_value(value)
        try:
            with_option(rule_set_id, options, option.name, value)
        except KozelError:
            continue
        return value
    return current


@functools.cache
def presets_of(rule_set_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The rule set's presets: each name with its options as a table keeps them (the
    values that differ from the defaults), the default's first.

    >>> [name for name, _ in presets_of("classic")], presets_of("yard")
    (['003', '001'], ())
    >>> dict(presets_of("classic"))["001"]["deal_by"]
    4
    """
    rule_set = get_rule_set(rule_set_id)
    defaults = rule_set.options().to_json()
    return tuple(
        (name, {k: v for k, v in preset.to_json().items() if defaults[k] != v})
        for name, preset in rule_set.presets().items()
    )


def preset_arg(name: str) -> str:
    """The SETTING argument that sets a preset: ``s`` and its name."""
    return f"s{name}"


def parse_preset_arg(rule_set_id: str, arg: str) -> dict[str, Any] | None:
    """The options a :func:`preset_arg` sets, or None for one that names no preset of
    the rule set."""
    if not arg.startswith("s"):
        return None
    return dict(presets_of(rule_set_id)).get(arg[1:])


def preset_named(rule_set_id: str, options: Mapping[str, Any]) -> str | None:
    """The name of the preset a table's options equal, or None."""
    for name, preset in presets_of(rule_set_id):
        if preset == dict(options):
            return name
    return None


#: Option buttons on one page of a lobby's house rules (three rows of two).
PAGE_OPTIONS = 6


def option_pages(rule_set_id: str) -> tuple[str, ...]:
    """The ``lobby_page`` values of a rule set's house-rules pages: ``o``, ``o2``...
    (none for a rule set without options).

    >>> option_pages("classic"), option_pages("yard")
    (('o', 'o2', 'o3'), ())
    """
    count = -(-len(options_of(rule_set_id)) // PAGE_OPTIONS)
    return tuple("o" if page == 0 else f"o{page + 1}" for page in range(count))


def option_arg(option: Option, value: Any) -> str:
    """The SETTING argument that sets ``option`` to ``value``."""
    return f"o{option.key}{option.values.index(value)}"


def parse_option_arg(rule_set_id: str, arg: str) -> tuple[str, Any] | None:
    """The option name and value an argument of :func:`option_arg` sets, or None for
    one that names no option of the rule set (a forged or foreign button)."""
    match = _ARG.fullmatch(arg)
    if match is None:
        return None
    key, index = match.group(1), int(match.group(2))
    for option in options_of(rule_set_id):
        if option.key == key:
            return (option.name, option.values[index]) if index < len(option.values) else None
    return None


def current_value(option: Option, options: Mapping[str, Any]) -> Any:
    """The value a table's options (``TableSettings.options``) give ``option``."""
    return options.get(option.name, option.default)


def with_option(
    rule_set_id: str, options: Mapping[str, Any], name: str, value: Any
) -> dict[str, Any]:
    """The options with ``name`` set to ``value``, keeping only the values that differ
    from the defaults, validated by the rule set (raises
    :class:`~core.errors.KozelError` for options it refuses)."""
    return checked(rule_set_id, {**options, name: value})


def checked(rule_set_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options, keeping only the values that differ from the defaults, validated
    together by the rule set (raises :class:`~core.errors.KozelError` for a set it
    refuses)."""
    defaults = {option.name: option.default for option in options_of(rule_set_id)}
    out = {key: item for key, item in options.items() if defaults.get(key, object()) != item}
    get_rule_set(rule_set_id).options(out)
    return out


def accepts(rule_set_id: str, options: Mapping[str, Any]) -> bool:
    """Whether the rule set takes these options together."""
    try:
        checked(rule_set_id, options)
    except KozelError:
        return False
    return True


class OptionWordError(ValueError):
    """A ``name=value`` word that sets no option: the words (``str``), and a locale id
    with its arguments for the same in the user's language."""

    def __init__(self, text: str, msg_id: str, **fields: str) -> None:
        super().__init__(text)
        self.msg_id = msg_id
        self.fields = fields


def option_value_words(option: Option) -> str:
    """The values an option takes as ``--option`` reads them: ``on, off``, ``none``...

    >>> option_value_words(options_of("classic")[0]), option_value_words(options_of("classic")[6])
    ('simple, pants, mirror, choose, one_by_one', 'none, C, S, H, D')
    """
    return ", ".join(_word(value) for value in option.values)


def rule_set_of_preset(name: str) -> str | None:
    """The rule set that has a preset of this name, when exactly one has it."""
    found = [rule_set for rule_set in rule_set_ids() if name in dict(presets_of(rule_set))]
    return found[0] if len(found) == 1 else None


def parse_option_words(
    rule_set_id: str, words: list[str], preset: str | None = None
) -> dict[str, Any]:
    """Options from a preset's (``kozel play --preset``), then ``name=value`` words
    (``--option``, the last word of a name wins): a bool takes ``on``/``off`` (or
    true/false, yes/no, 1/0), an optional one ``none``. The rule set checks them
    together once all are read, so their order does not matter. Raise
    :class:`OptionWordError` saying what is wrong (:func:`refusal` for a set the rule
    set refuses).

    >>> parse_option_words("classic", ["lucy=reset"], preset="001")["deal_by"]
    4
    >>> parse_option_words("classic", ["praise=one_by_one", "trump_suit=H"])
    {'praise': 'one_by_one', 'trump_suit': 'H'}
    """
    known = {option.name: option for option in options_of(rule_set_id)}
    options: dict[str, Any] = {}
    if preset is not None:
        presets = dict(presets_of(rule_set_id))
        if preset not in presets:
            names = ", ".join(presets) or "none"
            raise OptionWordError(
                f"--preset {preset}: {rule_set_id} has no such preset ({names})",
                "cli-unknown-preset",
                name=preset,
                rules=rule_set_id,
                names=names,
            )
        options = dict(presets[preset])
    given: dict[str, Any] = {}
    for word in words:
        name, separator, text = word.partition("=")
        name, text = name.strip().replace("-", "_"), text.strip()
        option = known.get(name)
        if not separator or option is None:
            names = ", ".join(known) or "none"
            raise OptionWordError(
                f"{word!r}: not name=value of an option of {rule_set_id} ({names})",
                "cli-unknown-option",
                word=word,
                rules=rule_set_id,
                names=names,
            )
        given.pop(name, None)  # a name given again counts where it was given last
        given[name] = _parse_value(option, text)
    try:
        return checked(rule_set_id, {**options, **given})
    except KozelError:
        raise refusal(rule_set_id, {**options, **given}, list(given)) from None


def refusal(rule_set_id: str, options: Mapping[str, Any], given: list[str]) -> OptionWordError:
    """What is wrong with options the rule set refuses together, in one line: the
    option that asks for another (``praise=one_by_one``, the first of ``given``, the
    names the command line set, in their order, that another value of its own would
    make acceptable) and the option it needs, with the values that would do (a
    missing one: ``cli-option-needs``; one the command line set otherwise:
    ``cli-option-conflict``); when no single option would do, the words only.

    >>> refusal("classic", {"praise": "one_by_one"}, ["praise"]).fields
    {'name': 'praise', 'value': 'one_by_one', 'needed': 'trump_suit', 'values': 'C, S, H, D'}
    >>> given = {"praise": "one_by_one", "trump_suit": None}
    >>> str(refusal("classic", given, ["trump_suit", "praise"]))
    'praise=one_by_one does not go with trump_suit=none: with it trump_suit takes C, S, H, D'
    """
    offered = options_of(rule_set_id)
    current = {option.name: current_value(option, options) for option in offered}
    fixes = {
        option.name: [
            value
            for value in option.values
            if value != current[option.name]
            and accepts(rule_set_id, {**options, option.name: value})
        ]
        for option in offered
    }
    defaults = {option.name: option.default for option in offered}
    asking = [
        name
        for name in (*given, *(name for name in current if name not in given))
        if current[name] != defaults[name] and fixes[name]
    ]
    needed = [option.name for option in offered if fixes[option.name]]
    for name in asking:
        for other in needed:
            if other == name:
                continue
            value, values = _word(current[name]), ", ".join(_word(v) for v in fixes[other])
            if other in given:
                was = _word(current[other])
                return OptionWordError(
                    f"{name}={value} does not go with {other}={was}:"
                    f" with it {other} takes {values}",
                    "cli-option-conflict",
                    name=name,
                    value=value,
                    other=other,
                    current=was,
                    values=values,
                )
            return OptionWordError(
                f"{name}={value} needs {other} too, one of {values}",
                "cli-option-needs",
                name=name,
                value=value,
                needed=other,
                values=values,
            )
    words = ", ".join(f"{name}={_word(current[name])}" for name in given) or "none"
    return OptionWordError(
        f"{rule_set_id} does not take these options together: {words}",
        "cli-options-refused",
        rules=rule_set_id,
        words=words,
    )


_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")


def _parse_value(option: Option, text: str) -> Any:
    lowered = text.lower()
    for value in option.values:
        if value is True and lowered in _TRUE:
            return True
        if value is False and lowered in _FALSE:
            return False
        if value is None and lowered in ("none", "null", "-"):
            return None
        if isinstance(value, str) and lowered == value.lower():
            return value
        if isinstance(value, int) and not isinstance(value, bool) and lowered == str(value):
            return value
    words = option_value_words(option)
    raise OptionWordError(
        f"{option.name}={text}: {option.name} takes {words}",
        "cli-option-value",
        name=option.name,
        value=text,
        values=words,
    )


def _word(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)

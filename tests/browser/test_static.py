"""The web table's page as files: small, no build step, nothing inline that a strict
Content-Security-Policy refuses, nothing from another host but Telegram's optional
script, and every word it asks for in both locales. ``vendor/`` holds the one file
built elsewhere: Discord's Embedded App SDK, bundled, with its licences."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "adapters" / "web" / "static"
#: The issue's ceiling for the page before compression.
PAGE_WEIGHT = 200 * 1024
#: Inside a Discord Activity, with Discord's Embedded App SDK.
DISCORD_WEIGHT = 256 * 1024
#: The one script of another host the page may load (inside Telegram only).
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


VENDOR = STATIC / "vendor"
#: Discord's Embedded App SDK as the page loads it inside a Discord Activity only.
DISCORD_SDK = VENDOR / "discord-sdk.js"
#: The hosts the SDK names: the Discord clients whose messages it takes (its
#: postMessage origins, never loaded) and its uuid copy's error message.
SDK_HOSTS = {
    "https://discord.com",
    "https://discordapp.com",
    "https://ptb.discord.com",
    "https://ptb.discordapp.com",
    "https://canary.discord.com",
    "https://canary.discordapp.com",
    "https://staging.discord.co",
    "http://localhost:3333",
    "https://pax.discord.com",
}


def _files() -> list[Path]:
    """The page's own files (not the vendored SDK)."""
    return sorted(p for p in STATIC.rglob("*") if p.is_file() and VENDOR not in p.parents)


def test_the_page_weighs_under_200_kb() -> None:
    """The page's own files, what every browser loads (Telegram's, a link's, Discord's)."""
    sizes = {path.name: path.stat().st_size for path in _files()}
    assert {"index.html", "main.js", "table.css"} <= set(sizes)
    assert sum(sizes.values()) < PAGE_WEIGHT, sizes


def test_inside_discord_the_page_and_its_sdk_weigh_under_256_kb() -> None:
    """Inside a Discord Activity the page also loads Discord's SDK (minified, about 150
    KB of it; not its licences' text), and nowhere else."""
    sizes = {path.name: path.stat().st_size for path in _files()}
    sizes[DISCORD_SDK.name] = DISCORD_SDK.stat().st_size
    assert sum(sizes.values()) < DISCORD_WEIGHT, sizes


def test_the_vendored_sdk_is_one_module_with_its_licences_and_loads_nothing() -> None:
    assert sorted(p.name for p in VENDOR.iterdir()) == [
        "discord-sdk.LICENSES.txt",
        "discord-sdk.js",
    ]
    code = DISCORD_SDK.read_text(encoding="utf-8")
    assert code.startswith("// @discord/embedded-app-sdk ") and "export{" in code
    assert not re.search(r"\bimport\s*\(|\bimport\s*[{*\w]|\bimportScripts\b", code)
    assert "fetch(" not in code and "XMLHttpRequest" not in code and "WebSocket" not in code
    named = set(re.findall(r"https?://[A-Za-z0-9.:-]+", code))
    assert named <= SDK_HOSTS | {"https://github.com"}, named
    licences = (VENDOR / "discord-sdk.LICENSES.txt").read_text(encoding="utf-8")
    assert "==== @discord/embedded-app-sdk 2.5.0 ====" in licences


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.script_text.append(data)


def test_index_has_no_inline_script_or_style() -> None:
    parser = _Tags()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert parser.script_text == []
    scripts = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert scripts and all(attrs.get("src", "").startswith("static/") for attrs in scripts)
    assert [tag for tag, _ in parser.tags if tag == "style"] == []
    inline = [(tag, name) for tag, attrs in parser.tags for name in attrs if name == "style"]
    handlers = [
        (tag, name) for tag, attrs in parser.tags for name in attrs if name.startswith("on")
    ]
    assert inline == [] and handlers == []


@pytest.mark.parametrize("name", [p.name for p in sorted(STATIC.glob("*.js"))])
def test_scripts_use_nothing_a_strict_policy_refuses(name: str) -> None:
    code = (STATIC / name).read_text(encoding="utf-8")
    for refused in ("innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function"):
        assert refused not in code, refused
    assert not re.search(r"setAttribute\(\s*[\"']style", code)
    assert not re.search(r"setAttribute\(\s*[\"']on", code)


def test_nothing_is_loaded_from_another_host_but_telegrams_script() -> None:
    urls = {
        url
        for path in _files()
        for url in re.findall(r"(?:https?:)?//[^\s\"'`)<>]+", path.read_text(encoding="utf-8"))
        if not url.startswith("//")  # a comment of a script or a stylesheet
    }
    assert urls <= {TELEGRAM_SCRIPT, SVG_NAMESPACE}, urls


def test_every_module_import_is_a_file_of_the_folder() -> None:
    for path in STATIC.glob("*.js"):
        for module in re.findall(r"from\s+\"(\./[^\"]+)\"", path.read_text(encoding="utf-8")):
            assert (STATIC / module).is_file(), (path.name, module)


def _message_ids(locale: str) -> set[str]:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "locales" / locale).glob("*.ftl")
    )
    return set(re.findall(r"^(web-[a-z0-9-]+) =", text, flags=re.MULTILINE))


def test_every_word_the_page_asks_for_is_in_both_locales() -> None:
    asked = {
        msg_id
        for path in STATIC.glob("*.js")
        for msg_id in re.findall(r"[\"'](web-[a-z0-9-]+)[\"']", path.read_text(encoding="utf-8"))
    }
    assert len(asked) >= 10
    for locale in ("ru", "en"):
        missing = asked - _message_ids(locale)
        assert not missing, (locale, missing)

"""``bot run --web HOST:PORT --web-url URL``: the values are checked before anything starts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cli import main
from cockatrice_ext.web.address import check_public_url, parse_listen


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8080", ("127.0.0.1", 8080)),
        (":8080", ("127.0.0.1", 8080)),
        ("0.0.0.0:80", ("0.0.0.0", 80)),
        ("localhost:9000", ("localhost", 9000)),
        ("[::1]:8443", ("::1", 8443)),
    ],
)
def test_listen_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_listen(text) == expected


@pytest.mark.parametrize("text", ["", "host", "host:", "1.2.3.4:99999", "a b:80", "host:0", "[zz]:80"])
def test_bad_listen_addresses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_listen(text)


@given(st.text(max_size=80))
def test_listen_parser_only_ever_answers_or_refuses(text: str) -> None:
    try:
        host, port = parse_listen(text)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert host and not host.startswith("[") and 1 <= port <= 65535
    assert text.strip().endswith(str(port))


@given(st.text(max_size=120))
def test_public_url_checker_only_ever_answers_or_refuses(text: str) -> None:
    try:
        url = check_public_url(text)
    except ValueError:
        return
    assert url.startswith(("http://", "https://")) and not url.endswith("/")


def test_public_urls() -> None:
    assert check_public_url("https://cards.example.org/referee/") == "https://cards.example.org/referee"
    for bad in ("ftp://x", "example.org", "https://x/?a=1", "https://x/#top", "http://[::1"):
        with pytest.raises(ValueError):
            check_public_url(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--web", "nowhere"], "'nowhere' is not HOST:PORT"),
        (["--web", "127.0.0.1:70000"], "port 70000 is not between 1 and 65535"),
        (["--web-url", "https://x.org"], "--web-url needs --web HOST:PORT"),
        (["--web", "8080", "--web-url", "x.org"], "'x.org' is not an http:// or https:// address"),
    ],
)
def test_bot_run_refuses_bad_web_options_with_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["bot", "run", "ws://127.0.0.1:9/servatrice", "--user", "ref", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output

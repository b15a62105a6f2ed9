"""Right-to-left names in chat lines are isolated, so a left-to-right reader sees them in the right places."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.bot.chat import ChatScheduler, bidi_isolated
from cockatrice_ext.client.flood import FloodLimits

FSI, PDI = "\u2068", "\u2069"
ALI, SARA = "محمد", "سارة"


def test_names_next_to_each_other_are_isolated_one_by_one() -> None:
    line = f"high bid 3 by {ALI}; {SARA} to bid; gold {ALI} 10, {SARA} 10"
    ali, sara = f"{FSI}{ALI}{PDI}", f"{FSI}{SARA}{PDI}"
    assert bidi_isolated(line) == f"high bid 3 by {ali}; {sara} to bid; gold {ali} 10, {sara} 10"


def test_punctuation_around_a_name_stays_outside_and_words_with_spaces_stay_together() -> None:
    assert bidi_isolated(f"Turn order {ALI}, {SARA}.") == f"Turn order {FSI}{ALI}{PDI}, {FSI}{SARA}{PDI}."
    assert bidi_isolated(f"{ALI}_2: you have 10 gold") == f"{FSI}{ALI}_2{PDI}: you have 10 gold"
    assert bidi_isolated(f"@{SARA} !help") == f"@{FSI}{SARA}{PDI} !help"
    assert bidi_isolated("unknown card 'שלום עולם' (did you mean X?)") == (
        f"unknown card '{FSI}שלום עולם{PDI}' (did you mean X?)"
    )


_WORDS = st.lists(st.sampled_from(["bid", "3", ALI, SARA, "שלום", ";", ",", "'", "(x)", "!", "Æther", "#1"]))


@given(_WORDS, st.sampled_from([" ", "; ", ", ", " | "]))
def test_only_isolates_are_added_once_and_left_to_right_text_is_untouched(
    words: list[str], glue: str
) -> None:
    text = glue.join(words)
    isolated = bidi_isolated(text)
    assert isolated.replace(FSI, "").replace(PDI, "") == text
    assert bidi_isolated(isolated) == isolated  # a line rendered again (given back after an absence)
    assert isolated.count(FSI) == isolated.count(PDI)
    if not any(word in (ALI, SARA, "שלום") for word in words):
        assert isolated == text


def test_every_line_the_scheduler_sends_is_isolated() -> None:
    async def scenario() -> list[str]:
        sent: list[str] = []

        async def send(destination: tuple[str, object], message: str) -> None:
            sent.append(message)

        scheduler = ChatScheduler(send, lambda *_: 0.0, limits=lambda: FloodLimits(margin=0.0))
        scheduler.say(("game", 1), f"Sold: Opt to {ALI} for 3.")
        scheduler.say(("user", SARA), lambda: f"{SARA}, your pack: 1. Opt")
        await scheduler.flush(timeout=5)
        scheduler.close()
        return sent

    sent = asyncio.run(scenario())
    assert f"Sold: Opt to {FSI}{ALI}{PDI} for 3." in sent
    assert f"{FSI}{SARA}{PDI}, your pack: 1. Opt" in sent

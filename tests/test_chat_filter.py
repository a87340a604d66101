"""The operator's chat word list: what it masks, checked against a brute-force reference over
every substring; the list file's format and its refusals."""

from __future__ import annotations

import logging
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baida.server.tables.chat_filter import ChatFilter, ChatFilterError, ChatWordList


def reference_mask(words: list[str], text: str) -> str:
    """Obviously correct and slow: fold each letter of ``text`` (spaces, punctuation and marks
    left out), try every substring of the result against every folded word, mask the letters
    of every match, everything between them and the marks right after the last."""

    def fold(s: str) -> list[tuple[str, int]]:
        out = []
        for i, ch in enumerate(s):
            if ch.isspace() or unicodedata.category(ch)[0] in "PSZCM":
                continue
            out.extend((piece, i) for piece in unicodedata.normalize("NFKC", ch).casefold())
        return out

    keys = {"".join(p for p, _ in fold(w)) for w in words} - {""}
    letters = fold(text)
    hidden = set()
    for i in range(len(letters)):
        for j in range(i + 1, len(letters) + 1):
            if "".join(p for p, _ in letters[i:j]) in keys:
                last = letters[j - 1][1]
                while last + 1 < len(text) and unicodedata.category(text[last + 1]).startswith("M"):
                    last += 1
                hidden.update(range(letters[i][1], last + 1))
    return "".join("*" if i in hidden else ch for i, ch in enumerate(text))


def test_a_listed_word_is_masked_however_it_is_written() -> None:
    words = ChatFilter(["fuck", "傻逼", "bad word"])
    assert words.mask("what the fuck") == "what the ****"
    assert words.mask("FuCk") == "****"
    assert words.mask("ｆｕｃｋ!") == "****!"  # full width
    assert words.mask("f.u.c.k off") == "******* off"  # what hides it is masked with it
    assert words.mask("f u c k") == "*******"
    assert words.mask("f\u200bu\u200dck") == "******"  # zero-width characters between
    assert words.mask("f\u0336u\u0336c\u0336k\u0336") == "********"  # struck through
    assert words.mask("你真是个傻逼") == "你真是个**"
    assert words.mask("傻 - 逼") == "*****"
    assert words.mask("a badword and a BAD  WORD") == "a ******* and a *********"
    assert words.mask("fun, duck, 傻瓜") == "fun, duck, 傻瓜"  # near misses stay


def test_overlapping_and_repeated_words_are_all_masked() -> None:
    words = ChatFilter(["abc", "bcd", "b"])
    assert words.mask("xabcdx") == "x****x"
    assert words.mask("abab b") == "a*a* *"
    assert ChatFilter([]).mask("anything") == "anything"
    assert ChatFilter(["  ", "...", "#"]).words == frozenset()  # nothing a message could hold


LETTERS = st.sampled_from(list("abcAB傻逼ｆＡ ．.-*\u200b\u0336"))


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.text(LETTERS, min_size=1, max_size=4), max_size=5),
       text=st.text(LETTERS, max_size=30))
def test_the_mask_is_the_brute_force_references(words: list[str], text: str) -> None:
    masked = ChatFilter(words).mask(text)
    assert masked == reference_mask(words, text)
    assert len(masked) == len(text)


def test_the_list_file_format_and_its_refusals(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# the hall's list\n\n  傻逼  \nbad word\n# not this\n", encoding="utf-8")
    words = ChatFilter.from_file(path)
    assert words.words == frozenset({"傻逼", "badword"})
    assert words.mask("not this") == "not this"
    path.write_text("ok\n" + "x" * 41 + "\n", encoding="utf-8")
    with pytest.raises(ChatFilterError, match="line 2: a word of at most 40 characters"):
        ChatFilter.from_file(path)
    path.write_bytes("傻逼\n".encode("gbk"))
    with pytest.raises(ChatFilterError, match="is not UTF-8 text"):
        ChatFilter.from_file(path)
    with pytest.raises(ChatFilterError, match="cannot read .*missing.txt"):
        ChatFilter.from_file(tmp_path / "missing.txt")


def test_the_list_is_read_again_when_its_file_changes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The operator adds a word without a restart: the file is looked at, at most every 10
    seconds, when a message is masked; a changed file that cannot be used is logged and the
    words read before stay."""
    caplog.set_level(logging.INFO, logger="baida")
    path = tmp_path / "words.txt"
    path.write_text("idiot\n", encoding="utf-8")
    clock = [100.0]
    words = ChatWordList(path, lambda: clock[0])
    assert words.mask("idiot fool") == "***** fool"
    path.write_text("idiot\nfool\n", encoding="utf-8")
    clock[0] += 5
    assert words.mask("idiot fool") == "***** fool"  # not looked at yet
    clock[0] += 6
    assert words.mask("idiot fool") == "***** ****" and words.words == {"idiot", "fool"}
    path.write_text("fool\n" + "x" * 41 + "\n", encoding="utf-8")
    clock[0] += 11
    assert words.mask("idiot fool") == "***** ****"  # kept, and said
    refused = [r for r in caplog.records if getattr(r, "event", None) == "chat_filter_refused"]
    assert len(refused) == 1 and "line 2" in refused[0].getMessage()
    path.unlink()
    clock[0] += 11
    assert words.mask("idiot") == "*****"
    path.write_text("fool\n", encoding="utf-8")
    clock[0] += 11
    assert words.mask("idiot fool") == "idiot ****"
    assert [r.event for r in caplog.records if getattr(r, "event", "").startswith(
        "chat_filter")] == ["chat_filter", "chat_filter_refused", "chat_filter_refused",
                            "chat_filter"]

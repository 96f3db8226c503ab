"""Decoding uploaded files: encodings of the real samples, binary and mixed files refused."""

from __future__ import annotations

import pytest

from ratings.exchange import ExchangeError, decode_text, split_lines
from tests.support import shared_bytes


@pytest.mark.realfiles
def test_it_reads_the_ffg_ladder_as_iso_8859_1() -> None:
    decoded = decode_text(shared_bytes("ech_ffg_V3.txt"))
    assert decoded.encoding == "iso-8859-1"
    # Line 2 of the file, bytes 'Ren\xe9' (README: ISO-8859-1).
    assert decoded.lines()[1].startswith("AAIJ René ")


@pytest.mark.realfiles
def test_it_reads_the_aga_list_as_utf_8() -> None:
    # README says ASCII, but the file holds UTF-8 names ("Lefebvre, Loïc").
    decoded = decode_text(shared_bytes("tdlista.txt"))
    assert decoded.encoding == "utf-8"
    assert any(line.startswith("Lefebvre, Loïc\t") for line in decoded.lines())


@pytest.mark.realfiles
def test_it_reads_accented_tou_names_where_charset_normalizer_guesses_wrong() -> None:
    # charset-normalizer 3.5 says cp775 for this file; a Latin-1 decode gives the real name.
    text = decode_text(shared_bytes("cdfa-2020.tou")).text
    assert "Dréan-Guénaïzia Benjamin" in text


def test_it_splits_crlf_lf_and_cr_but_not_other_breaks() -> None:
    assert split_lines("a\r\nb\nc\rd\r\n") == ["a", "b", "c", "d"]
    assert split_lines("a\u2028b\x85c") == ["a\u2028b\x85c"]


@pytest.mark.realfiles
def test_it_counts_crlf_lines_of_the_ffg_file_like_the_readme() -> None:
    # README: 12,511 players, plus the '#Echelle' header line.
    assert len(decode_text(shared_bytes("ech_ffg_V3.txt")).lines()) == 12_512


@pytest.mark.parametrize(
    ("data", "encoding", "text"),
    [
        ("Léa Dupont\n".encode(), "utf-8", "Léa Dupont\n"),
        (b"\xef\xbb\xbfL\xc3\xa9a\n", "utf-8-sig", "Léa\n"),
        (b"L\xe9a\r\n", "iso-8859-1", "Léa\r\n"),
        (b"\x93Go\x94 \x80\n", "cp1252", "\u201cGo\u201d \u20ac\n"),
        ("\ufeffLéa\n".encode("utf-16-le"), "utf-16", "Léa\n"),
    ],
)
def test_it_detects_the_encoding(data: bytes, encoding: str, text: str) -> None:
    decoded = decode_text(data)
    assert (decoded.encoding, decoded.text) == (encoding, text)


def test_a_binary_file_is_refused_naming_the_line() -> None:
    with pytest.raises(ExchangeError) as error:
        decode_text(b"first line\nsecond\x00line\n")
    assert error.value.line == 2
    assert error.value.column == 7
    assert "not a text file" in str(error.value)


def test_utf_16_without_a_byte_order_mark_is_refused() -> None:
    with pytest.raises(ExchangeError) as error:
        decode_text("Dupont Jean\n".encode("utf-16-le"))
    assert error.value.line == 1


def test_a_utf_8_file_with_one_latin_1_line_is_refused_naming_both_lines() -> None:
    data = "Léa Dupont\n".encode() + b"Ren\xe9 Martin\n"
    with pytest.raises(ExchangeError) as error:
        decode_text(data)
    assert (error.value.line, error.value.other_line) == (2, 1)


def test_a_utf_8_file_cut_inside_a_character_is_refused() -> None:
    data = "Léa Dupont\nRené".encode()[:-1]
    with pytest.raises(ExchangeError) as error:
        decode_text(data)
    assert error.value.line == 2


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(ExchangeError, match="empty"):
        decode_text(b"  \r\n")

"""Bytes to text: encoding detection and line splitting.

Decision (docs/formats.md, "Text encodings"): a strict UTF-8 decode
first (with or without a byte-order mark), then Windows-1252, which agrees
with ISO-8859-1 on every printable character and also gives the curly quotes
and the euro sign that Windows editors put in 0x80-0x9F.  charset-normalizer
was measured on the real files national bodies and tournament software publish, and guessed cp1250, cp775
and big5 for ISO-8859-1 French names ("Léa" became "L嶧"), so it is not used:
the files national bodies publish are either UTF-8 or a Western single-byte
encoding, and a strict UTF-8 try tells them apart without guessing (a
Latin-1 "é" followed by a letter is never valid UTF-8).

Refused, with the line named: bytes that are no text (NUL and other control
characters: a binary file, or UTF-16 without a byte-order mark), and a file
that mixes valid UTF-8 sequences with invalid ones (a UTF-8 file cut in the
middle of a character, or two files of different encodings pasted together),
which a Latin-1 fallback would otherwise turn into silent mojibake.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ExchangeError

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}

# Control bytes that never occur in a text file (tab, LF, CR and form feed do).
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x19\x1b-\x1f\x7f]")
# A well-formed UTF-8 multi-byte sequence (RFC 3629, table 3-7 of Unicode).
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class DecodedText:
    """A decoded file: its text (line breaks untouched) and the encoding used."""

    text: str
    encoding: str

    def lines(self) -> list[str]:
        return split_lines(self.text)


def _line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def _column_of(data: bytes, position: int) -> int:
    return position - (data.rfind(b"\n", 0, position) + 1) + 1


def decode_text(data: bytes, *, per_line: bool = False) -> DecodedText:
    """Decode an uploaded file, or raise :class:`ExchangeError` naming the line.

    ``per_line``: for formats whose real files mix encodings (the EGD list
    egf_db of December 2018 has UTF-8 and Latin-1 lines), a file that is
    not UTF-8 as a whole is decoded line by line instead of refused: each
    line as UTF-8 when it is, else as Windows-1252/ISO-8859-1.  The
    encoding is then reported as ``"mixed"``.
    """
    if not data.removeprefix(b"\xef\xbb\xbf").strip() or data in _UTF16_BOMS:
        # Nothing but spacing, or nothing but a byte-order mark (a spreadsheet
        # saving an empty sheet as "CSV UTF-8" writes the mark alone).
        raise ExchangeError(None, "the file is empty")
    for bom, encoding in _UTF16_BOMS.items():
        if data.startswith(bom):
            try:
                return DecodedText(data[len(bom) :].decode(encoding), "utf-16")
            except UnicodeDecodeError as error:
                raise ExchangeError(None, f"the file starts as UTF-16 but is not: {error.reason}") from None
    if data.endswith(b"\x1a"):  # DOS end-of-file marker
        data = data.rstrip(b"\x1a")
    bad = _CONTROL.search(data)
    if bad is not None:
        raise ExchangeError(
            _line_of(data, bad.start()),
            f"this is not a text file (control byte 0x{bad.group()[0]:02x}); "
            "expected a text export in UTF-8 or ISO-8859-1",
            column=_column_of(data, bad.start()),
        )
    if data.startswith(_UTF8_BOM):
        body = data[len(_UTF8_BOM) :]
        try:
            return DecodedText(body.decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError as error:
            position = error.start + len(_UTF8_BOM)
            raise ExchangeError(
                _line_of(data, position),
                "the file says it is UTF-8 (byte-order mark) but this line is not",
                column=_column_of(data, position),
            ) from None
    try:
        return DecodedText(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as error:
        first_bad = error.start
    good = _UTF8_MULTIBYTE.search(data)
    if good is not None and per_line:
        return DecodedText("".join(_decode_line(line) for line in data.splitlines(keepends=True)), "mixed")
    if good is not None:
        raise ExchangeError(
            _line_of(data, first_bad),
            f"mixed encodings: line {_line_of(data, good.start())} is UTF-8 but this line is not "
            "(a file cut in the middle of a character, or two files pasted together?)",
            column=_column_of(data, first_bad),
            other_line=_line_of(data, good.start()),
        )
    return DecodedText(*_single_byte(data))


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return _single_byte(line)[0]


def _single_byte(data: bytes) -> tuple[str, str]:
    """ISO-8859-1, or Windows-1252 when bytes 0x80-0x9F (curly quotes, euro sign) are there."""
    if re.search(rb"[\x80-\x9f]", data) is None:
        return data.decode("iso-8859-1"), "iso-8859-1"
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "iso-8859-1"


def split_lines(text: str) -> list[str]:
    """Split on CRLF, LF or CR only (not on the other breaks str.splitlines knows).

    A final line break does not make an extra empty line.
    """
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines

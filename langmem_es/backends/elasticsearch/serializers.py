"""JSON for the Elasticsearch client through orjson.

Every recall and write moves vectors (384 numbers each) and dozens of documents as JSON;
orjson encodes and decodes them several times faster than the standard library. Both the
``application/json`` and the NDJSON bodies (``msearch``, ``bulk``) use it. What orjson
refuses, or would read inexactly (integers of 19 digits or more in a user's metadata, which
orjson writes only up to 64 bits and reads as floats), goes through the standard library:
nothing that round-tripped before changes.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from elasticsearch.serializer import JsonSerializer, NdjsonSerializer

__all__ = ["OrjsonJsonSerializer", "OrjsonNdjsonSerializer", "fast_serializers"]


#: an integer literal of 19 digits or more (2**63 has 19): orjson would read it as a float
_LONG_INTEGER = re.compile(rb"[\[:,]\s*-?\d{19,}\s*[,}\]]")
#: every digit as ``1``, what may stand before a number's digits (``[``, ``:``, ``,``, white
#: space, ``-``) as ``0``, anything else as ``2``: a run of 19 digits that may be a number's
#: is then one ``bytes.find`` (a recall's scores hold runs of 17-20 decimals after a point, its
#: hexadecimal ids runs after a letter) — the pattern runs only when it finds one
_DIGITS = bytes(0x31 if 0x30 <= b <= 0x39 else 0x30 if b in b"[:, \t\r\n-" else 0x32 for b in range(256))
_RUN = b"1" * 19
_NUMBER_RUN = b"0" + _RUN  # a run after what may stand before a number


def _holds_long_integer(data: bytes | bytearray) -> bool:
    """Whether ``data`` holds an integer literal of 19 digits or more.

    >>> _holds_long_integer(b'{"a": 12345678901234567890}'), _holds_long_integer(b'{"a": "12345678901234567890"}')
    (True, False)
    >>> _holds_long_integer(b'[0.00012345678901234567890]'), _holds_long_integer(b'[-12345678901234567890]')
    (False, True)
    """
    digits = data.translate(_DIGITS)
    found = digits.startswith(_RUN) or digits.find(_NUMBER_RUN) >= 0
    return found and _LONG_INTEGER.search(data) is not None


class _Orjson(JsonSerializer):
    def json_dumps(self, data: Any) -> bytes:
        try:
            return orjson.dumps(data, default=self.default, option=orjson.OPT_SERIALIZE_NUMPY)
        except orjson.JSONEncodeError:
            return super().json_dumps(data)

    def json_loads(self, data: bytes) -> Any:
        if isinstance(data, (bytes, bytearray)) and not _holds_long_integer(data):
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
        return super().json_loads(data)


class OrjsonJsonSerializer(_Orjson):
    """``application/json`` bodies through orjson (the standard library for what it refuses)."""


class OrjsonNdjsonSerializer(_Orjson, NdjsonSerializer):
    """NDJSON bodies (``msearch``, ``bulk``) through orjson, line by line."""


def fast_serializers() -> dict[str, JsonSerializer]:
    """The client's ``serializers=`` argument (compatibility-mode mimetypes follow these)."""
    return {
        OrjsonJsonSerializer.mimetype: OrjsonJsonSerializer(),
        OrjsonNdjsonSerializer.mimetype: OrjsonNdjsonSerializer(),
    }

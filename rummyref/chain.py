"""Tamper evidence: each recorded entry carries a SHA-256 over a canonical JSON of its
content and the hash of the entry before it (one chain per game)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(payload: dict[str, Any], prev_hash: str) -> str:
    text = canonical({"entry": payload, "prev": prev_hash})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

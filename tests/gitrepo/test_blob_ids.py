"""A blob's id computed while its bytes stream by is the id git gives it, in SHA-1 and
SHA-256 repositories, for small and large blobs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from changelog_tool.gitrepo.objects import blob_hasher


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
@pytest.mark.parametrize("size", [0, 7, 256 << 10, 3 << 20])
def test_the_hash_of_a_blob_is_gits_id_for_it(
    tmp_path: Path, object_format: str, size: int
) -> None:
    subprocess.run(
        ["git", "init", "-q", f"--object-format={object_format}", str(tmp_path)], check=True
    )
    data = (b"- config-keys:\n    - k\n" * (size // 20 + 1))[:size]
    expected = (
        subprocess.run(
            ["git", "hash-object", "--stdin"],
            cwd=tmp_path,
            input=data,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    hasher = blob_hasher(size, len(expected))
    for start in range(0, size, 100_000):  # fed in pieces, as a stream is
        hasher.update(data[start : start + 100_000])
    assert hasher.hexdigest() == expected

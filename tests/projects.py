"""A small project with two master files and a two-entry changelog, built with real
git, and helpers to run the installed command on it: in this process (:func:`run`, for
most tests) or in a process of its own (:func:`run_process`)."""

from __future__ import annotations

import io
import json
import locale
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

NVIDIA = "configs/nvidia-master.yaml"
AMD = "configs/amd-master.yaml"
LOG = "perf-changelog.yaml"


def key_block(key: str, image: str = "vllm/vllm-openai:v1") -> str:
    return (
        f"{key}:\n  image: {image}\n  model: some/model\n  runner: b200\n"
        f"  precision: fp4\n  framework: vllm\n  multinode: false\n  scenarios:\n"
        f"    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
        f"      - {{ tp: 8, conc-list: [4, 8] }}\n"
    )


def entry(key: str, text: str = "Change", link: str = "XXX") -> str:
    return f'- config-keys:\n    - {key}\n  description:\n    - "{text}"\n  pr-link: {link}\n'


NVIDIA_TEXT = "# NVIDIA configs\n" + key_block("a-vllm") + "\n" + key_block("b-vllm")
AMD_TEXT = "# AMD configs\n" + key_block("m-rocm", image="rocm/vllm:v1")
HISTORY = (
    entry("a-vllm", "Add a", "https://github.com/acme/bench/pull/1")
    + "\n"
    + entry("b-vllm", "Add b", "https://github.com/acme/bench/pull/2")
)


def make_project(repo):
    """main: both master files and a two-entry history; checked out: branch feature."""
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            AMD: AMD_TEXT,
            LOG: HISTORY,
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def run(
    repo, *args: str, stdin: str = "", env: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real CLI in ``repo`` (or a folder), in this process: ``cli.main(args)`` with
    the working directory set to it, ``stdin`` as its standard input and its standard
    output and error captured, answered as :func:`run_process` answers (the text a
    pipe carries, decoded as ``subprocess`` decodes it; the exit code ``main``
    returns, or that of a ``SystemExit`` raised through it). ``env``: variables set
    (or, as ``None``, unset) for the call, on top of this process's environment; the
    commands read the environment as they run, never at start.

    What only a process of its own shows (start-up and imports, ``-I`` isolation,
    signals, how the process ends, resource limits, concurrency between processes,
    the locale the interpreter starts with) needs :func:`run_process`."""
    from changelog_tool.cli import main

    root = repo if isinstance(repo, Path) else repo.root
    piped = io.BytesIO(stdin.encode(locale.getencoding())), io.BytesIO(), io.BytesIO()
    streams = [
        io.TextIOWrapper(
            data,
            # as the interpreter makes them, from the locale this process started with
            encoding=getattr(like, "encoding", None) or "utf-8",
            errors=getattr(like, "errors", None) or errors,
            newline="\n",
        )
        for data, like, errors in zip(
            piped,
            (sys.__stdin__, sys.__stdout__, sys.__stderr__),
            ("strict", "strict", "backslashreplace"),
            strict=True,
        )
    ]
    saved = sys.stdin, sys.stdout, sys.stderr
    cwd = os.getcwd()
    environment = {name: os.environ.get(name) for name in env or {}}
    try:
        _set_environment(env or {})
        os.chdir(root)
        sys.stdin, sys.stdout, sys.stderr = streams
        code = main(list(args))
    except SystemExit as exc:  # as the interpreter ends on one
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    finally:
        for stream in streams[1:]:
            stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(cwd)
        _set_environment(environment)
    out, err = (_as_read_from_a_pipe(data.getvalue()) for data in piped[1:])
    return subprocess.CompletedProcess(["changelog", *args], code, out, err)


def _set_environment(values: Mapping[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _as_read_from_a_pipe(data: bytes) -> str:
    """What ``subprocess`` in text mode makes of ``data``: decoded in the locale's
    encoding, every line end made ``\\n``."""
    text = data.decode(locale.getencoding())
    return text.replace("\r\n", "\n").replace("\r", "\n")


def run_process(
    repo, *args: str, stdin: str = "", env: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real CLI in ``repo`` (or a folder), in a process of its own started as the
    console script starts it (``-I``: neither the working directory nor ``PYTHON*``
    variables reach its imports), for what only a process shows (see :func:`run`).
    ``env`` as for :func:`run`."""
    environment = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return subprocess.run(
        [sys.executable, "-I", "-m", "changelog_tool", *args],  # as the console script: no cwd
        cwd=repo if isinstance(repo, Path) else repo.root,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )


def sound(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """``done``, after checking that it ended as every command must: exit 0, 1 or 2,
    never a traceback or an internal error, and a refusal (2) said as ``changelog:``."""
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done
    assert done.returncode in (0, 1, 2), done
    if done.returncode == 2:
        assert done.stderr.startswith("changelog: "), done
    return done


def run_checked(repo, *args: str) -> subprocess.CompletedProcess[str]:
    """:func:`run`, ended soundly (:func:`sound`)."""
    return sound(run(repo, *args))


def findings(repo, *args: str) -> list[dict]:
    """The findings of ``args`` (a command that takes ``--format json``) in ``repo``."""
    done = run_checked(repo, *args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["findings"]


def verify(repo, *args: str) -> tuple[int, dict]:
    done = run(repo, "verify", "--base", "main", "--format", "json", *args)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def codes(document: dict) -> list[str]:
    return [f["code"] for f in document["findings"]]


def line_of(text: str, needle: str, start: int = 0) -> int:
    return text.count("\n", 0, text.index(needle, start)) + 1


def with_file_size_limit(limit: int, body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``body`` (Python, with ``sys``, ``Path`` and ``writer`` imported) run in a process
    that may not write a file past ``limit`` bytes: a real disk-full-like failure
    (its writes fail with EFBIG instead of killing it)."""
    script = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from changelog_tool.ledger import writer\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, resource.RLIM_INFINITY))\n" + body
    )
    return subprocess.run(
        [sys.executable, "-c", script, *args], check=False, capture_output=True, text=True
    )

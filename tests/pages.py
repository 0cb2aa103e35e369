"""Pages that show commands with what they print (docs/getting-started.md, the README): their
steps read from the page, run in a scratch folder, and compared with what the page shows
less what changes from run to run (times, rates, a run directory's time)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TIMING_LINE = re.compile(r"^(seconds|deals_per_s|compile_s)\s")
COMPILE_NOTICE = re.compile(r"^compiling .*\(first run only\)")
RUN_TIME = re.compile(r"\d{8}-\d{6}")  # runs/NAME-YYYYMMDD-HHMMSS
RATE = re.compile(r"\([\d,.]+/s\)")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
# a difference with its interval: "+30.54 points per deal (95% interval +-4.34)", "-41.23 ± 1.88"
DIFFERENCE = re.compile(r"([-+]?\d+\.\d+)(?: points per deal \(95% interval \+-| ± )(\d+\.\d+)")
TRAINED_HERE = re.compile(r"^cardsim train |checkpoint=runs/")


@dataclass
class Step:
    kind: str                      # "file", "command" or "python"
    text: str                      # the file's content, the command line or the script
    expected: list[str] = field(default_factory=list)
    name: str = ""                 # the file's name

    @property
    def id(self) -> str:
        if self.kind == "python":
            return "python: " + next(line for line in self.text.splitlines()
                                     if line and not line.startswith(("import", "from")))
        return self.text if self.kind == "command" else f"file {self.name}"


def fenced_blocks(text: str) -> list[tuple[str, list[str]]]:
    """The page's fenced blocks in order: (info string, lines)."""
    blocks, info, body = [], None, []
    for line in text.splitlines():
        if info is None and line.startswith("```"):
            info, body = line[3:].strip(), []
        elif info is not None and line.startswith("```"):
            blocks.append((info, body))
            info = None
        elif info is not None:
            body.append(line)
    return blocks


def page_steps(text: str) -> list[Step]:
    """The files, commands and scripts the page shows, with what they print."""
    blocks = fenced_blocks(text)
    steps = []
    for i, (info, body) in enumerate(blocks):
        if not body:
            continue
        if info == "yaml" and re.fullmatch(r"# [\w.-]+\.ya?ml", body[0]):
            steps.append(Step("file", "\n".join(body[1:]) + "\n", name=body[0][2:]))
        elif info == "" and body[0].startswith("$ "):
            steps.append(Step("command", body[0][2:], body[1:]))
        elif info == "python" and i + 1 < len(blocks) and blocks[i + 1][0] == "" \
                and blocks[i + 1][1] and not blocks[i + 1][1][0].startswith("$ "):
            steps.append(Step("python", "\n".join(body) + "\n", blocks[i + 1][1]))
    return steps

def without_times(lines: list[str]) -> list[str]:
    """``lines`` with what a run's times and its run directory's time change taken out."""
    out, timed_column = [], False
    for line in lines:
        line = line.rstrip()
        if TIMING_LINE.match(line) or COMPILE_NOTICE.match(line):
            continue
        if not line:
            timed_column = False
        elif line.endswith("µs/decision"):  # a table's header: its last column is a time
            timed_column = True
        elif timed_column and not line.startswith("µs/decision:"):
            line = re.sub(r"\s+\S+$", " <µs>", line)
        line = RATE.sub("(<rate>/s)", RUN_TIME.sub("<time>", line))
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def shape(line: str) -> str:
    """A line with its numbers masked and its spaces collapsed (columns move with the widths
    of the numbers)."""
    return " ".join(NUMBER.sub("<n>", line).split())


def command_line(command: str, cwd: Path) -> list[str]:
    """The argument list of a page command: ``cardsim`` as this interpreter's
    ``-m experiments.cli``; a run directory the page names (its time is the page's run's)
    replaced by the newest one of that name here."""
    args = shlex.split(command)
    assert args[0] == "cardsim", f"the page's commands are cardsim commands, got {command!r}"

    def this_run(match):
        path = match.group(0)
        if (cwd / path).exists():
            return path
        prefix = RUN_TIME.sub("", path)
        found = sorted(cwd.glob(prefix + "*"))
        assert found, f"{path}: no run {prefix}* here (the page's training command failed?)"
        return str(found[-1].relative_to(cwd))

    args = [re.sub(r"runs/[\w.-]+-\d{8}-\d{6}", this_run, a) for a in args]
    return [sys.executable, "-m", "experiments.cli", *args[1:]]


def run(argv: list[str], cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{argv} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout

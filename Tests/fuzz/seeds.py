#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus from the actions in docs/features.md (docs/fuzzing.md).

    Tests/fuzz/seeds.py docs/features.md OUTPUT_DIR [FIXTURES_DIR]

For each feature (a `## name` section with an action table) it writes one seed per action
example, one that sends them all with time advanced between them, one per answer example of the
feature's requests, and one per state example (a ```json block in the section) restored as a
snapshot, in the script form Tests/fuzz/fuzz_store.c reads. Examples abbreviated with … are
left out, except a todo id, which is completed from the section's state example. The answers in
FIXTURES_DIR (Tests/fixtures/matchscores) are matchscores seeds too.
"""
import json
import re
import sys
from pathlib import Path

FEATURES = ["counter", "todos", "dice", "matchscores"]
# A counter journal (tca_store_journal), lines joined by "|" for the harness's Y line.
JOURNAL = "|".join([
    '{"tcaJournal":1,"feature":"counter","clock":"manual","seed":7,"version":0,'
    '"state":{"count":0,"isNumberFactLoading":false}}',
    '{"send":{"incrementButtonTapped":{}},"version":1}',
    '{"send":{"numberFactButtonTapped":{}},"version":2}',
    '{"request":{"id":1,"name":"numberFact.fetch","kind":"oneShot","payload":1}}',
    '{"respond":1,"value":"1 is a number.","version":3}',
    '{"advance":500,"version":3}',
])
CODE = re.compile(r"`([^`]+)`")
UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")


def examples(markdown):
    """{feature: ([action JSON], [answer JSON], [state JSON])} from the feature sections."""
    found = {}
    section = None
    block = None
    for line in markdown.splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            section = name if name in FEATURES else None
            if section:
                found[section] = ([], [], [])
            continue
        if section and line.startswith("```"):
            if block is None and line.strip() == "```json":
                block = []
            elif block is not None:
                compact = compacted("\n".join(block).replace("[…]", "[]"))
                if compact:
                    found[section][2].append(compact)
                block = None
            continue
        if block is not None:
            block.append(line)
            continue
        if section is None or not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) < 3:
            continue
        actions, answers, _ = found[section]
        # An action row: `| what | example | effect |`; a request row's last cell is its answer.
        if not cells[0].startswith("`"):
            actions += [c for c in CODE.findall(cells[1]) if c[:1] in ('"', "{", "[")]
        else:
            answers += [c for c in CODE.findall(cells[-1]) if usable(c)]
    return found


def compacted(text):
    """A JSON block in compact form, or None if it is not JSON."""
    try:
        return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return None


def completed(text, ids):
    """An example with an abbreviated todo id (`D6F1…7240`) written out."""
    for full in ids:
        text = text.replace(full[:4] + "…" + full[-4:], full)
    return text


def usable(text):
    """A complete JSON example (not one abbreviated with …)."""
    return "…" not in text and text[:1] in ('"', "{", "[") and "\n" not in text


def main():
    markdown = Path(sys.argv[1]).read_text(encoding="utf-8")
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0

    def seed(name, feature, lines, recording=False):
        nonlocal count
        # NB: the first byte's value mod 4 is the feature; "4".."7" make recording stores.
        text = str(FEATURES.index(feature) + (4 if recording else 0)) + "\n"
        text += "\n".join(lines) + "\n"
        (out / f"{feature}-{name}").write_bytes(text.encode("utf-8"))
        count += 1

    found = examples(markdown)
    ids = set(UUID.findall(markdown))
    for feature, (actions, answers, states) in found.items():
        actions = [completed(a, ids) for a in actions]
        actions = [a for a in actions if usable(a)]
        for i, state in enumerate(states):
            seed(f"state{i}", feature, ["N" + state] + ["S" + a for a in actions])
        for i, action in enumerate(actions):
            seed(f"action{i}", feature, ["S" + action, "A1000", "G"])
        script = []
        for action in actions:
            script += ["S" + action, "A350"]
        seed("all", feature, script)
        # The reads, patches, pull mode, journal and replay, on a recording store.
        reads = ["D1", "B", "V", "Q", "D", "G", "L1"]
        seed("recorded", feature, reads + script + reads + ["T", "J", "D9"], recording=True)
        if actions:
            seed("canonical", feature, ["K" + a for a in actions])
        for i, answer in enumerate(answers):
            seed(f"answer{i}", feature, ["S" + a for a in actions] + ["R0" + answer, "P"])
    if "counter" in found:
        seed("journal", "counter", ["Y" + JOURNAL])
    if "dice" in found:
        # NB: ":" (58) is dice with its requests failed inside their callback (fuzz_replay.c): a
        # first turn run by a poll, which the journal does not keep, asks for the history and
        # is failed; the replay answers that request too (the fuzzer found it did not).
        (out / "dice-polled-first-turn").write_bytes(b":\nP\n")
        count += 1
    if len(sys.argv) > 3 and "matchscores" in found:
        for i, fixture in enumerate(sorted(Path(sys.argv[3]).glob("*.json"))):
            answer = compacted(fixture.read_text(encoding="utf-8"))
            for j, list_name in enumerate(["teamList", "gameList", "playerList"]):
                opened = ['S{"%s":"onAppear"}' % list_name]
                seed(f"fixture{i}-{j}", "matchscores", opened + ["R0" + answer, "P", "G"])
    if count == 0:
        sys.exit("no action examples found in " + sys.argv[1])
    print(f"{count} seeds in {out}")


if __name__ == "__main__":
    main()

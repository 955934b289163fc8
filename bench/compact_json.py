#!/usr/bin/env python3
"""Rewrite JSON result files compactly before committing them under bench/results/.

Every call to the GPU machine carries the tracked tree within 64 MiB, so results stay lean. The CLI
and GoogleTest write indented JSON; this rewrites each file given with no whitespace, checking that
it loads to the same value first. Usage: python3 bench/compact_json.py FILE.json [FILE.json ...]
"""
import json
import sys


def compact(path):
    with open(path) as f:
        raw = f.read()
    doc = json.loads(raw)
    out = json.dumps(doc, separators=(",", ":")) + "\n"
    if json.loads(out) != doc:
        raise SystemExit("compact_json: %s would not load the same; left as it is" % path)
    if len(out) < len(raw):
        with open(path, "w") as f:
            f.write(out)
    return len(raw), min(len(out), len(raw))


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    for path in argv:
        before, after = compact(path)
        print("%s: %d -> %d bytes" % (path, before, after))


if __name__ == "__main__":
    main(sys.argv[1:])

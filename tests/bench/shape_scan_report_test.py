#!/usr/bin/env python3
"""The auto / tuned gap report of bench/shape_scan.py: computed from records, read from a committed scan,
and refused with one line on stderr for a file that is not a scan's JSON."""
import os
import subprocess
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import shape_scan  # noqa: E402

SCAN = os.path.join(ROOT, "bench", "results", "h200_2026-12-02c_random_scan_seed28.json")


def record(kernel, rows, cols, pct, plan, batch=1):
    return {"dtype": "f32", "rows": rows, "cols": cols, "batch": batch, "ld_in": cols, "ld_out": rows,
            "kernel": kernel, "pct_of_copy": pct, "plan": plan + " block=(256,1) grid=(1,1,1)"}


class GapReport(unittest.TestCase):
    def test_gaps_from_records(self):
        records = [record("auto", 100, 200, 80.0, "skinny<vec4B>"), record("tuned", 100, 200, 88.0, "tiled_vec<64x32>"),
                   record("auto", 300, 3, 95.0, "skinny<vec4B>"), record("tuned", 300, 3, 96.0, "skinny<vec4B>"),
                   record("auto", 7, 7, 50.0, "small_batch<9 matrices>", batch=1000)]
        pairs = shape_scan.tuned_gaps(records)
        self.assertEqual([p[0] for p in pairs], ["f32 100x200", "f32 300x3"], "the auto-only case is left out")
        lines = shape_scan.report_gaps(records, "two")
        self.assertEqual(lines[0], "two: 2 cases, auto median 0.875 of memcpy, 0 under 0.8; tuned / auto median "
                                   "1.055, over 1.04 on 1")
        self.assertEqual(len(lines), 2, "only the 10% gap is listed, not the 1% one")
        self.assertIn("1.100  f32 100x200", lines[1])
        self.assertTrue(lines[1].endswith("skinny<vec4B> | tiled_vec<64x32>"), lines[1])

    def test_no_pairs(self):
        self.assertEqual(shape_scan.report_gaps([record("auto", 5, 5, 90.0, "gather")], "solo"),
                         ["solo: no case ran both auto and tuned"])

    def test_committed_scan(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "shape_scan.py"), "--report", SCAN],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        first = out.stdout.splitlines()[0]
        self.assertIn("160 cases", first)
        self.assertIn("over 1.04 on 0", first)

    def test_not_a_scan(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "shape_scan.py"), "--report",
                              os.path.join(ROOT, "README.md")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertEqual(len(out.stderr.strip().splitlines()), 1, out.stderr)
        self.assertEqual(out.stdout, "")


if __name__ == "__main__":
    unittest.main()

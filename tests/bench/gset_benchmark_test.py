#!/usr/bin/python3
"""The logic of gset_benchmark.py that needs no server: the G-set table, the file names it accepts, the
reduction of a run's improvements to the best cut within a budget, and MQLib's output line."""
import bz2
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gset_benchmark as gb  # noqa: E402


class GsetTable(unittest.TestCase):
    def test_the_71_graphs_with_their_classes(self):
        self.assertEqual(len(gb.GSET), 71)
        numbers = sorted(int(name[1:]) for name in gb.GSET)
        self.assertEqual(numbers, list(range(1, 68)) + [70, 72, 77, 81])
        for name, (nodes, edges, topology, weights, bkv) in gb.GSET.items():
            self.assertIn(topology, (gb.R, gb.P, gb.T), name)
            self.assertIn(weights, ("1", "±1"), name)
            # A toroidal grid has degree 4; a cut of weight-1 edges cuts at most every edge.
            if topology == gb.T:
                self.assertEqual(edges, 2 * nodes, name)
            if weights == "1":
                self.assertLessEqual(bkv, edges, name)
        self.assertEqual(gb.GSET["G1"][:2], (800, 19176))
        self.assertEqual(gb.GSET["G22"][:2], (2000, 19990))
        self.assertEqual(gb.GSET["G81"], (20000, 40000, gb.T, "±1", 14030))

    def test_generated_shapes_name_their_class(self):
        for spec in gb.SHAPES.values():
            self.assertIn(spec.split(":")[0], gb.SHAPE_CLASS)


class FileNames(unittest.TestCase):
    def test_common_names_and_compressed_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("G1", "g2.txt", "G03.rud", "gset_4.mc", "G5.txt.bz2", "G6-notes.txt", "README"):
                with open(os.path.join(d, name), "wb") as f:
                    data = b"# a comment\n3 1\n1 2 1\n"
                    f.write(bz2.compress(data) if name.endswith(".bz2") else data)
            found = gb.gset_files(d)
            self.assertEqual(sorted(found), ["G1", "G2", "G3", "G4", "G5"])
            self.assertEqual(gb.header_counts(gb.read_text(found["G5"])), (3, 1))


class Timelines(unittest.TestCase):
    def test_best_within_a_budget_and_first_time_at_the_target(self):
        timeline = [(0.5, 100), (3.0, 110), (12.0, 115)]
        self.assertIsNone(gb.best_within(timeline, 0.1))
        self.assertEqual(gb.best_within(timeline, 10), 110)
        self.assertEqual(gb.best_within(timeline, 60), 115)
        self.assertEqual(gb.first_reaching(timeline, 110), 3.0)
        self.assertIsNone(gb.first_reaching(timeline, 116))

    def test_mqlib_line(self):
        best, history = gb.parse_mqlib('10,BURER2002,"/tmp/G11.txt",554,10.00002,[0:4e-06;524:0.0073;554:0.257]\n')
        self.assertEqual(best, 554)
        self.assertEqual(history, [(0.0073, 524), (0.257, 554)])
        with self.assertRaises(ValueError):
            gb.parse_mqlib("Error reading instance file\n")


if __name__ == "__main__":
    unittest.main()

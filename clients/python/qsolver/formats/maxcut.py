"""The rudy / G-set Max-Cut format (core/families/maxcut/maxcut_text.cc) <-> qs.v1.MaxCutPuzzle: "N E" (nodes
and edges), then E lines "i j w" (1-based nodes, any weight); '#' starts a comment line."""
from .._proto import puzzles_pb2
from ._common import INT32, INT64, error
from ._fields import content_lines, exact_number, expect_fields, field_error, int_field, line_error, number_field


def parse_maxcut(text):
    lines = content_lines(text, ["#"])
    if not lines:
        raise line_error("maxcut", 1, "expected 'N E'")
    expect_fields("maxcut", lines[0], 2, "N E")
    n = int_field("maxcut", lines[0], 0, "N", 1, INT32[1])
    edges = int_field("maxcut", lines[0], 1, "E", 0, INT64[1])
    if len(lines) - 1 != edges:
        raise line_error("maxcut", lines[0].number,
                         f"announces {edges} edges, the file has {len(lines) - 1} edge lines")
    spec = puzzles_pb2.PuzzleSpec()
    graph = spec.maxcut
    graph.num_nodes = n
    for line in lines[1:]:
        expect_fields("maxcut", line, 3, "i j w")
        i = int_field("maxcut", line, 0, "i", 1, n)
        j = int_field("maxcut", line, 1, "j", 1, n)
        if i == j:
            raise field_error("maxcut", line, 1, "j", f"a loop on node {i} cuts nothing")
        graph.u.append(i - 1)
        graph.v.append(j - 1)
        graph.w.append(number_field("maxcut", line, 2, "w"))
    return spec


def format_maxcut(puzzle):
    """The graph in the rudy format, weights as the shortest decimal that reads back exactly."""
    if puzzle.WhichOneof("puzzle") != "maxcut":
        raise error("maxcut: the puzzle is not a graph")
    graph = puzzle.maxcut
    if not len(graph.u) == len(graph.v) == len(graph.w):
        raise error("maxcut: u, v and w differ in length")
    edges = "".join(f"{u + 1} {v + 1} {exact_number(w)}\n" for u, v, w in zip(graph.u, graph.v, graph.w))
    return f"{graph.num_nodes} {len(graph.u)}\n{edges}"

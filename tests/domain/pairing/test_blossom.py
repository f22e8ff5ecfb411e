"""The Swiss engine's matching is networkx's: the same matching on the same graph, ties and all."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from director.domain.pairing.blossom import max_weight_matching


def random_graph(rng: random.Random) -> list[tuple[int | str, int | str, int]]:
    """Edges with weights from a small range (so many matchings tie), a "bye" vertex now
    and then, as the Swiss engine's graphs have."""
    n = rng.randint(1, 20)
    nodes: list[int | str] = [*range(n), *(["bye"] if rng.random() < 0.3 else [])]
    density = rng.choice((0.2, 0.5, 1.0))
    top = rng.choice((1, 3, 10, 10**30))  # 10**30: the engine's lexicographic weights are huge
    return [
        (a, b, rng.randint(1, top))
        for i, a in enumerate(nodes)
        for b in nodes[i + 1 :]
        if rng.random() < density
    ]


def as_set(mate: dict[int | str, int | str]) -> set[frozenset[int | str]]:
    return {frozenset(pair) for pair in mate.items()}


@pytest.mark.parametrize("seed", range(3))
def test_the_same_matching_as_networkx_on_random_graphs_full_of_ties(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        edges = random_graph(rng)
        nodes = sorted({v for e in edges for v in e[:2]}, key=str)
        rng.shuffle(nodes)
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from(edges)
        adjacency: dict[int | str, dict[int | str, int]] = {v: {} for v in nodes}
        for a, b, w in edges:
            adjacency[a][b] = adjacency[b][a] = w
        expected = nx.max_weight_matching(graph, maxcardinality=True)
        assert as_set(max_weight_matching(adjacency)) == {frozenset(e) for e in expected}


def test_no_vertices_and_no_edges() -> None:
    assert max_weight_matching({}) == {}
    assert max_weight_matching({1: {}, 2: {}}) == {}

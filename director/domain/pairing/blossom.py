"""Maximum-weight matching of maximum cardinality: Edmonds' blossom algorithm, primal-dual.

This is networkx 3.6.1's ``max_weight_matching(G, maxcardinality=True)``
(``networkx/algorithms/matching.py``, Copyright (c) 2004-2025 NetworkX Developers, BSD-3-Clause;
the licence is in ``resources/notices``) step for step, on a plain adjacency dict of integer
weights, for the Swiss engine (``swiss_matching``). It visits vertices and neighbours in the
same order as networkx does on the graph built with the same nodes and edges in the same
order, so it finds the same matching, ties included (``tests/domain/pairing/test_blossom.py``
compares the two on random graphs full of ties). What it leaves out, to be fast on a 1,000-team
round: importing networkx (0.1 s), building its graph, its edge-attribute look-ups, the float
weights (weights here are integers: all arithmetic exact) and the final self-check of the dual
solution, which the tests do instead.

Terms (Galil, "Efficient Algorithms for Finding Maximum Matching in Graphs", ACM Computing
Surveys 1986): a blossom is an odd cycle shrunk to one vertex; S and T label the vertices and
blossoms met on alternating paths from free vertices; dual variables are kept doubled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import repeat
from typing import Any

Adjacency = Mapping[Any, Mapping[Any, int]]  # vertex -> neighbour -> edge weight


class _NoNode:
    """A value that is no vertex."""


NO_NODE = _NoNode()


class _Blossom:
    """A non-trivial blossom: its sub-blossoms from the base round the cycle, and the edges
    between them (``edges[i]`` joins ``childs[i]`` to ``childs[i + 1]``)."""

    __slots__ = ["childs", "edges", "mybestedges"]

    def __init__(self) -> None:
        self.childs: list[Any] = []
        self.edges: list[tuple[Any, Any]] = []
        self.mybestedges: list[tuple[Any, Any]] | None = None

    def leaves(self) -> Iterator[Any]:
        stack = [*self.childs]
        while stack:
            t = stack.pop()
            if isinstance(t, _Blossom):
                stack.extend(t.childs)
            else:
                yield t


def max_weight_matching(adjacency: Adjacency) -> dict[Any, Any]:
    """Each matched vertex's mate in a maximum-weight matching among those of maximum size.

    ``adjacency`` holds every edge both ways with the same weight, in the order networkx's
    ``Graph`` would keep them (nodes as added, each one's neighbours as its edges were added).
    """
    adj = adjacency
    gnodes = list(adj)
    if not gnodes:
        return {}
    maxweight = max((w for v, nbrs in adj.items() for u, w in nbrs.items() if u != v), default=0)
    maxweight = max(0, maxweight)
    mate: dict[Any, Any] = {}
    label: dict[Any, Any] = {}
    labeledge: dict[Any, Any] = {}
    inblossom: dict[Any, Any] = dict(zip(gnodes, gnodes, strict=True))
    blossomparent: dict[Any, Any] = dict(zip(gnodes, repeat(None)))
    blossombase: dict[Any, Any] = dict(zip(gnodes, gnodes, strict=True))
    bestedge: dict[Any, Any] = {}
    dualvar: dict[Any, int] = dict(zip(gnodes, repeat(maxweight)))
    blossomdual: dict[Any, int] = {}
    allowedge: dict[tuple[Any, Any], bool] = {}
    queue: list[Any] = []

    def slack(v: Any, w: Any) -> int:
        """Twice the slack of edge v-w (not inside a blossom)."""
        return dualvar[v] + dualvar[w] - 2 * adj[v][w]

    def assign_label(w: Any, t: int, v: Any) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        if v is not None:
            labeledge[w] = labeledge[b] = (v, w)
        else:
            labeledge[w] = labeledge[b] = None
        bestedge[w] = bestedge[b] = None
        if t == 1:
            if isinstance(b, _Blossom):
                queue.extend(b.leaves())
            else:
                queue.append(b)
        elif t == 2:
            base = blossombase[b]
            assign_label(mate[base], 1, base)

    def scan_blossom(v: Any, w: Any) -> Any:
        """The base of the new blossom through v and w, or NO_NODE for an augmenting path."""
        path = []
        base: Any = NO_NODE
        while v is not NO_NODE:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labeledge[b] is None:
                v = NO_NODE
            else:
                v = labeledge[b][0]
                b = inblossom[v]
                v = labeledge[b][0]
            if w is not NO_NODE:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: Any, v: Any, w: Any) -> None:
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = _Blossom()
        blossombase[b] = base
        blossomparent[b] = None
        blossomparent[bb] = b
        b.childs = path = []
        b.edges = edgs = [(v, w)]
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            edgs.append(labeledge[bv])
            v = labeledge[bv][0]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        edgs.reverse()
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            edgs.append((labeledge[bw][1], labeledge[bw][0]))
            w = labeledge[bw][0]
            bw = inblossom[w]
        label[b] = 1
        labeledge[b] = labeledge[bb]
        blossomdual[b] = 0
        for v in b.leaves():
            if label[inblossom[v]] == 2:
                queue.append(v)
            inblossom[v] = b
        bestedgeto: dict[Any, tuple[Any, Any]] = {}
        for bv in path:
            if isinstance(bv, _Blossom):
                if bv.mybestedges is not None:
                    nblist = bv.mybestedges
                    bv.mybestedges = None
                else:
                    nblist = [(v, w) for v in bv.leaves() for w in adj[v] if v != w]
            else:
                nblist = [(bv, w) for w in adj[bv] if bv != w]
            for k in nblist:
                (i, j) = k
                if inblossom[j] == b:
                    i, j = j, i
                bj = inblossom[j]
                if (
                    bj != b
                    and label.get(bj) == 1
                    and ((bj not in bestedgeto) or slack(i, j) < slack(*bestedgeto[bj]))
                ):
                    bestedgeto[bj] = k
            bestedge[bv] = None
        b.mybestedges = list(bestedgeto.values())
        mybestedge = None
        mybestslack = 0
        bestedge[b] = None
        for k in b.mybestedges:
            kslack = slack(*k)
            if mybestedge is None or kslack < mybestslack:
                mybestedge = k
                mybestslack = kslack
        bestedge[b] = mybestedge

    def expand_blossom(b: _Blossom, endstage: bool) -> None:
        def recurse(b: _Blossom, endstage: bool) -> Iterator[_Blossom]:
            for s in b.childs:
                blossomparent[s] = None
                if isinstance(s, _Blossom):
                    if endstage and blossomdual[s] == 0:
                        yield s
                    else:
                        for v in s.leaves():
                            inblossom[v] = s
                else:
                    inblossom[s] = s
            if (not endstage) and label.get(b) == 2:
                entrychild = inblossom[labeledge[b][1]]
                j = b.childs.index(entrychild)
                if j & 1:
                    j -= len(b.childs)
                    jstep = 1
                else:
                    jstep = -1
                v, w = labeledge[b]
                while j != 0:
                    if jstep == 1:
                        p, q = b.edges[j]
                    else:
                        q, p = b.edges[j - 1]
                    label[w] = None
                    label[q] = None
                    assign_label(w, 2, v)
                    allowedge[(p, q)] = allowedge[(q, p)] = True
                    j += jstep
                    if jstep == 1:
                        v, w = b.edges[j]
                    else:
                        w, v = b.edges[j - 1]
                    allowedge[(v, w)] = allowedge[(w, v)] = True
                    j += jstep
                bw = b.childs[j]
                label[w] = label[bw] = 2
                labeledge[w] = labeledge[bw] = (v, w)
                bestedge[bw] = None
                j += jstep
                while b.childs[j] != entrychild:
                    bv = b.childs[j]
                    if label.get(bv) == 1:
                        j += jstep
                        continue
                    if isinstance(bv, _Blossom):
                        for v in bv.leaves():
                            if label.get(v):
                                break
                    else:
                        v = bv
                    if label.get(v):
                        label[v] = None
                        label[mate[blossombase[bv]]] = None
                        assign_label(v, 2, labeledge[v][0])
                    j += jstep
            label.pop(b, None)
            labeledge.pop(b, None)
            bestedge.pop(b, None)
            del blossomparent[b]
            del blossombase[b]
            del blossomdual[b]

        stack = [recurse(b, endstage)]  # a trampoline: nested blossoms without recursion
        while stack:
            top = stack[-1]
            for s in top:
                stack.append(recurse(s, endstage))
                break
            else:
                stack.pop()

    def augment_blossom(b: _Blossom, v: Any) -> None:
        def recurse(b: _Blossom, v: Any) -> Iterator[tuple[_Blossom, Any]]:
            t = v
            while blossomparent[t] != b:
                t = blossomparent[t]
            if isinstance(t, _Blossom):
                yield (t, v)
            i = j = b.childs.index(t)
            if i & 1:
                j -= len(b.childs)
                jstep = 1
            else:
                jstep = -1
            while j != 0:
                j += jstep
                t = b.childs[j]
                if jstep == 1:
                    w, x = b.edges[j]
                else:
                    x, w = b.edges[j - 1]
                if isinstance(t, _Blossom):
                    yield (t, w)
                j += jstep
                t = b.childs[j]
                if isinstance(t, _Blossom):
                    yield (t, x)
                mate[w] = x
                mate[x] = w
            b.childs = b.childs[i:] + b.childs[:i]
            b.edges = b.edges[i:] + b.edges[:i]
            blossombase[b] = blossombase[b.childs[0]]

        stack = [recurse(b, v)]
        while stack:
            top = stack[-1]
            for args in top:
                stack.append(recurse(*args))
                break
            else:
                stack.pop()

    def augment_matching(v: Any, w: Any) -> None:
        for start, end in ((v, w), (w, v)):
            s, j = start, end
            while 1:
                bs = inblossom[s]
                if isinstance(bs, _Blossom):
                    augment_blossom(bs, s)
                mate[s] = j
                if labeledge[bs] is None:
                    break
                t = labeledge[bs][0]
                bt = inblossom[t]
                s, j = labeledge[bt]
                if isinstance(bt, _Blossom):
                    augment_blossom(bt, j)
                mate[j] = s

    while 1:  # each stage augments the matching by one edge
        label.clear()
        labeledge.clear()
        bestedge.clear()
        for b in blossomdual:
            b.mybestedges = None
        allowedge.clear()
        queue[:] = []
        for v in gnodes:
            if (v not in mate) and label.get(inblossom[v]) is None:
                assign_label(v, 1, None)
        augmented = 0
        while 1:  # each substage looks for an augmenting path, else adjusts the duals
            while queue and not augmented:
                v = queue.pop()
                for w in adj[v]:
                    if w == v:
                        continue
                    bv = inblossom[v]
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    if (v, w) not in allowedge:
                        kslack = slack(v, w)
                        if kslack <= 0:
                            allowedge[(v, w)] = allowedge[(w, v)] = True
                    if (v, w) in allowedge:
                        if label.get(bw) is None:
                            assign_label(w, 2, v)
                        elif label.get(bw) == 1:
                            base = scan_blossom(v, w)
                            if base is not NO_NODE:
                                add_blossom(base, v, w)
                            else:
                                augment_matching(v, w)
                                augmented = 1
                                break
                        elif label.get(w) is None:
                            label[w] = 2
                            labeledge[w] = (v, w)
                    elif label.get(bw) == 1:
                        if bestedge.get(bv) is None or kslack < slack(*bestedge[bv]):
                            bestedge[bv] = (v, w)
                    elif label.get(w) is None and (
                        bestedge.get(w) is None or kslack < slack(*bestedge[w])
                    ):
                        bestedge[w] = (v, w)
            if augmented:
                break

            deltatype = -1
            delta: int = 0
            deltaedge: Any = None
            deltablossom: Any = None
            for v in gnodes:  # delta2: least slack from an S-vertex to a free vertex
                if label.get(inblossom[v]) is None and bestedge.get(v) is not None:
                    d = slack(*bestedge[v])
                    if deltatype == -1 or d < delta:
                        delta = d
                        deltatype = 2
                        deltaedge = bestedge[v]
            for b, parent in blossomparent.items():  # delta3: half the least S-S slack
                if parent is None and label.get(b) == 1 and bestedge.get(b) is not None:
                    d = slack(*bestedge[b]) // 2
                    if deltatype == -1 or d < delta:
                        delta = d
                        deltatype = 3
                        deltaedge = bestedge[b]
            for b, dual in blossomdual.items():  # delta4: the least dual of a T-blossom
                if (
                    blossomparent[b] is None
                    and label.get(b) == 2
                    and (deltatype == -1 or dual < delta)
                ):
                    delta = dual
                    deltatype = 4
                    deltablossom = b
            if deltatype == -1:  # no further improvement: a maximum-cardinality optimum
                deltatype = 1
                delta = max(0, min(dualvar.values()))
            for v in gnodes:
                if label.get(inblossom[v]) == 1:
                    dualvar[v] -= delta
                elif label.get(inblossom[v]) == 2:
                    dualvar[v] += delta
            for b in blossomdual:
                if blossomparent[b] is None:
                    if label.get(b) == 1:
                        blossomdual[b] += delta
                    elif label.get(b) == 2:
                        blossomdual[b] -= delta
            if deltatype == 1:
                break
            if deltatype in (2, 3):
                (v, w) = deltaedge
                allowedge[(v, w)] = allowedge[(w, v)] = True
                queue.append(v)
            elif deltatype == 4:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in list(blossomdual.keys()):  # end of a stage: expand S-blossoms of zero dual
            if b not in blossomdual:
                continue
            if blossomparent[b] is None and label.get(b) == 1 and blossomdual[b] == 0:
                expand_blossom(b, True)
    return mate

#!/usr/bin/env python3
"""Writes a small generated road network for Valhalla tests: a grid of named streets.

Usage: make_grid.py OUT_DIR
Writes OUT_DIR/grid.osm.pbf (for valhalla_build_tiles) and OUT_DIR/grid.json, which tells
the tests where every node and street is, so the Swift side never duplicates the geometry.

The grid: SIZE x SIZE nodes, SPACING metres apart, south-west corner at ORIGIN. Rows run
west-east ("Row N Street"), columns south-north ("Column N Avenue"). Row 0 and column 0 are
primary roads, the rest residential. Row SIZE-1 is one-way eastbound. "Island Lane", a short
street ISLAND_OFFSET metres east of the grid and joined to nothing, gives the engines a
place no route can reach.
"""
import json
import math
import os
import sys

import osmium

ORIGIN = (37.5, 127.0)  # lat, lon
SIZE = 6
SPACING = 200.0  # metres
EARTH_RADIUS = 6_371_008.8
ISLAND_OFFSET = 1000.0  # metres east of the grid's east edge


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    dlat = math.degrees(SPACING / EARTH_RADIUS)
    dlon = math.degrees(SPACING / (EARTH_RADIUS * math.cos(math.radians(ORIGIN[0]))))

    def node_id(r: int, c: int) -> int:
        return 1 + r * SIZE + c

    nodes = {}
    for r in range(SIZE):
        for c in range(SIZE):
            nodes[(r, c)] = (round(ORIGIN[0] + r * dlat, 7), round(ORIGIN[1] + c * dlon, 7))

    streets = []
    pbf = os.path.join(out, "grid.osm.pbf")
    if os.path.exists(pbf):
        os.remove(pbf)
    writer = osmium.SimpleWriter(pbf)
    try:
        for (r, c), (lat, lon) in sorted(nodes.items(), key=lambda kv: node_id(*kv[0])):
            writer.add_node(osmium.osm.mutable.Node(id=node_id(r, c), location=(lon, lat), version=1))
        for r in range(SIZE):
            tags = {"highway": "primary" if r == 0 else "residential", "name": f"Row {r} Street"}
            if r == SIZE - 1:
                tags["oneway"] = "yes"
            refs = [node_id(r, c) for c in range(SIZE)]
            writer.add_way(osmium.osm.mutable.Way(id=100 + r, nodes=refs, tags=tags, version=1))
            streets.append({"name": tags["name"], "oneway": r == SIZE - 1,
                            "points": [list(nodes[(r, c)]) for c in range(SIZE)]})
        for c in range(SIZE):
            tags = {"highway": "primary" if c == 0 else "residential", "name": f"Column {c} Avenue"}
            refs = [node_id(r, c) for r in range(SIZE)]
            writer.add_way(osmium.osm.mutable.Way(id=200 + c, nodes=refs, tags=tags, version=1))
            streets.append({"name": tags["name"], "oneway": False,
                            "points": [list(nodes[(r, c)]) for r in range(SIZE)]})
        island_lon = round(ORIGIN[1] + (SIZE - 1) * dlon + ISLAND_OFFSET / SPACING * dlon, 7)
        island = [(round(ORIGIN[0] + 2 * dlat, 7), island_lon), (round(ORIGIN[0] + 3 * dlat, 7), island_lon)]
        for i, (lat, lon) in enumerate(island):
            writer.add_node(osmium.osm.mutable.Node(id=1000 + i, location=(lon, lat), version=1))
        writer.add_way(osmium.osm.mutable.Way(
            id=300, nodes=[1000, 1001], tags={"highway": "residential", "name": "Island Lane"}, version=1))
    finally:
        writer.close()

    grid = {
        "origin": list(ORIGIN), "size": SIZE, "spacing_m": SPACING,
        "nodes": [[list(nodes[(r, c)]) for c in range(SIZE)] for r in range(SIZE)],
        "streets": streets,
        "island": [list(p) for p in island],
    }
    with open(os.path.join(out, "grid.json"), "w") as f:
        json.dump(grid, f, indent=1)


if __name__ == "__main__":
    main()

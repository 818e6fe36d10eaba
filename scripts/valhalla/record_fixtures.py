#!/usr/bin/env python3
"""Records real Valhalla answers as test fixtures.

Usage: record_fixtures.py PORT OUT_DIR   (a service started by start.sh on 127.0.0.1:PORT)
Each fixture is OUT_DIR/NAME.json: the request that was sent, the HTTP status and the body
exactly as the engine answered it (as text), and which Valhalla answered.
"""
import json
import os
import sys
import urllib.error
import urllib.request
from importlib import metadata

ORIGIN = {"lat": 37.5, "lon": 127.0}          # the grid's south-west node
NORTH_EAST = {"lat": 37.5089932, "lon": 127.0113357}  # node (row 5, column 5)
ISLAND = {"lat": 37.5045, "lon": 127.0226714}  # on Island Lane, joined to nothing
FAR_AWAY = {"lat": 38.5, "lon": 128.0}        # about 140 km from any road of the grid

CASES = {
    "route_auto": ("POST", "/route", {"locations": [ORIGIN, NORTH_EAST], "costing": "auto"}),
    "route_pedestrian": ("POST", "/route", {"locations": [ORIGIN, NORTH_EAST], "costing": "pedestrian"}),
    "error_171_no_suitable_edges": ("POST", "/route", {"locations": [ORIGIN, FAR_AWAY], "costing": "auto"}),
    "error_125_unknown_costing": ("POST", "/route", {"locations": [ORIGIN, NORTH_EAST], "costing": "hovercraft"}),
    "error_442_unreachable_island": ("POST", "/route", {"locations": [ORIGIN, ISLAND], "costing": "auto"}),
    "error_100_unparseable_request": ("POST", "/route", "this is not json"),
    "error_120_one_location": ("POST", "/route", {"locations": [ORIGIN], "costing": "auto"}),
    "error_130_bad_location": ("POST", "/route", {"locations": [{"lat": "north", "lon": 127.0}, NORTH_EAST], "costing": "auto"}),
    "error_106_unknown_endpoint": ("GET", "/no-such-action", None),
}


def main() -> None:
    port, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    try:
        version = "pyvalhalla-weekly " + metadata.version("pyvalhalla-weekly")
    except metadata.PackageNotFoundError:
        version = "pyvalhalla " + metadata.version("pyvalhalla")
    for name, (method, path, body) in CASES.items():
        data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
        try:
            with urllib.request.urlopen(request) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        fixture = {
            "recorded_from": version + " over scripts/valhalla/make_grid.py",
            "request": {"method": method, "path": path, "body": body},
            "status": status,
            "body": text,
        }
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(fixture, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(name, status)


if __name__ == "__main__":
    main()

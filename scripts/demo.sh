#!/usr/bin/env bash
# The main job on a built-in default, needing no receiver.
set -euo pipefail
echo "dashpilot demo: nothing to replay yet"

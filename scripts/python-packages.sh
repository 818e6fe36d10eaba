# Sourced by the routing engines' start scripts for their --check (which the tests'
# preconditions ask): check_python_packages PYTHON HINT MODULE... exits 0 when PYTHON
# imports every MODULE or has pip to install them from PyPI (which the scripts then do),
# else 1 with one line on stderr: what is missing and HINT.
check_python_packages() {
  local python=$1 hint=$2
  shift 2
  local modules
  modules=$(IFS=,; echo "$*")
  if "$python" -c "import $modules" 2>/dev/null || "$python" -m pip --version >/dev/null 2>&1; then exit 0; fi
  echo "needs the Python modules $modules for $python, or pip to install them from PyPI: $hint" >&2
  exit 1
}

# Sourced by every end-to-end test (tests/e2e/*.sh): the binary under test, the source tree,
# the Python with jsonschema (Debian's, not a pyenv one), a scratch folder removed on exit, and a
# failure counter.
B=${GPUSONAR:?set GPUSONAR to the gpusonar binary}
SRC=${GS_SOURCE_DIR:?set GS_SOURCE_DIR to the source tree}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

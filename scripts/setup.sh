#!/usr/bin/env bash
# Installs, idempotently, the Debian packages gpusonar needs: `scripts/setup.sh` what building and
# running need (`make run`, `make install`), `scripts/setup.sh --test` those and what the test suite
# adds (`make test`, CI). Run as root on Debian 12 (or through sudo). CUDA is found, never
# installed: see README.md.
set -euo pipefail

usage() { echo "usage: scripts/setup.sh [--test]" >&2; exit 2; }
with_tests=0
case "${1:-}" in
  "") ;;
  --test) with_tests=1 ;;
  -h|--help) echo "usage: scripts/setup.sh [--test]   (--test adds what the test suite needs)"; exit 0 ;;
  *) usage ;;
esac

# Building and running: the compiler and CMake, jansson (result documents), gnuplot (`plot`).
# cmocka's headers are found when CMake configures, so every build tree needs them.
packages=(cmake make gcc libc6-dev pkg-config libjansson-dev libcmocka-dev gnuplot-nox python3)

if [ "$with_tests" -eq 1 ]; then
  packages+=(python3-jsonschema)             # tests/e2e: documents against the schemas
  packages+=(groff-base)                     # tests/e2e/install.sh renders the man page
  packages+=(clang libclang-rt-14-dev)       # tests/fuzz: libFuzzer's and the sanitizers' runtimes
  packages+=(slurm-wlm slurm-client munge)   # tests/e2e/slurm_fleet.sh: a one-machine Slurm cluster
  packages+=(chromium)                       # tests/e2e/html_browser.sh: pages in a headless browser
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup: missing packages (${missing[*]}) and not root; run 'sudo scripts/setup.sh${1:+ $1}'" >&2
    exit 2
  fi
else
  SUDO=
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs, idempotently, every Debian package gpusonar's build and tests need.
# Run as root on Debian 12 (or through sudo). CUDA is found, never installed: see README.md.
set -euo pipefail

packages=(cmake make gcc libc6-dev pkg-config libjansson-dev libcmocka-dev gnuplot-nox
          python3 python3-jsonschema groff-base)
# tests/e2e/html_browser.sh loads `gpusonar html` pages in a headless browser.
packages+=(chromium)

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
    echo "setup: missing packages (${missing[*]}) and not root; run 'sudo scripts/setup.sh'" >&2
    exit 2
  fi
else
  SUDO=
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

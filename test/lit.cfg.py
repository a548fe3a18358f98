import os
import shutil
import lit.formats

config.name = "rngdc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rngd_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.rngd_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# rngd-qwen3 caches the stages it compiles: under the build tree for the tests, shared by them
# (a key per shape, target and compiler build keeps entries apart), not in the user's cache.
config.environment["RNGD_CACHE_DIR"] = os.path.join(config.rngd_obj_root, "test", "stage-cache")
config.substitutions.append(("%src_root", config.rngd_src_root))
config.substitutions.append(("%obj_root", config.rngd_obj_root))
config.substitutions.append(("%kernels", os.path.join(config.rngd_src_root, "kernels")))
config.substitutions.append(("%schedules", os.path.join(config.rngd_src_root, "schedules")))
config.substitutions.append(("%python", "python3"))
# numpy for the multi-token oracle (test/e2e/prefill_oracle.py): Debian's python3-numpy, for
# Debian's python3 (scripts/install-deps.sh); the `python3` on PATH may be another one.
import subprocess
for candidate in ("/usr/bin/python3", "python3"):
    try:
        if subprocess.run([candidate, "-c", "import numpy"], capture_output=True).returncode == 0:
            config.substitutions.append(("%numpy_python", candidate))
            config.available_features.add("numpy")
            break
    except OSError:
        pass

# OpenAI's npm client (scripts/install-deps.sh installs it beside the tokenizer): the server
# tests drive `rngd-qwen3 serve` with it (test/serve).
npm_dir = os.path.join(config.rngd_src_root, "third_party", "npm")
config.substitutions.append(("%npm_dir", npm_dir))
if os.path.isdir(os.path.join(npm_dir, "node_modules", "openai")):
    config.available_features.add("openai-client")

# Open MPI's launcher (scripts/install-deps.sh): the tensor-parallel tests (test/multichip) run
# `mpirun -np N`. CI runs as root and on 2 cores: allow both.
if shutil.which("mpirun"):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", "mpirun --allow-run-as-root --oversubscribe"))

# The sanitizer build (RNGD_SANITIZE, make sanitize): AddressSanitizer reserves terabytes of
# address space, so tests that bound memory with `ulimit -v` say `UNSUPPORTED: asan`.
# The serving soak's request count: the sanitizer build simulates several times slower.
config.substitutions.append(("%soak_requests",
                             "48" if getattr(config, "rngd_sanitize", False) else "300"))
if getattr(config, "rngd_sanitize", False):
    config.available_features.add("asan")

# Headless Chromium (Debian's `chromium`, installed by scripts/install-deps.sh) renders the
# schedule viewer's pages in test/tools/schedule-view-chromium.test.
import shutil
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(
        ("%chromium", chromium + " --headless --no-sandbox --disable-gpu"))

# The host's bf16 pair dot product (AVX512-BF16 with AVX512VL, hostHasBf16PairDot in
# runtime/sim/ContractionEngine.cpp): where it is, the e2e tests expect the simulator to take
# it by default (test/e2e/both-paths.py runs them on both contraction paths).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set(cpuinfo.read().split())
    if {"avx512_bf16", "avx512vl"} <= cpu_flags:
        config.available_features.add("bf16-pair-dot")
except OSError:
    pass

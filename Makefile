# The README's two commands: `make run` (the main job) and `make test` (all tests).
# Both install dependencies and build first.
BUILD_DIR ?= build
LIT := /usr/lib/llvm-19/build/utils/lit/lit.py

.PHONY: all deps configure build test run bench sanitize-build sanitize fuzz clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLVM_EXTERNAL_LIT=$(LIT)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure

run: build
	@bash scripts/run-kernels.sh $(BUILD_DIR)

bench: build
	@python3 scripts/bench.py $(BUILD_DIR)

# The whole ctest suite again with AddressSanitizer + UndefinedBehaviorSanitizer (clang-19,
# RNGD_SANITIZE) in build-asan; CI runs it after `make test`. docs/reliability.md.
ASAN_DIR ?= build-asan
sanitize-build: deps
	@test -f $(ASAN_DIR)/build.ninja || CC=clang-19 CXX=clang++-19 cmake -S . -B $(ASAN_DIR) -G Ninja \
	  -DCMAKE_BUILD_TYPE=Release -DRNGD_SANITIZE=ON -DLLVM_EXTERNAL_LIT=$(LIT)
	cmake --build $(ASAN_DIR)

sanitize: sanitize-build
	cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allow_user_poisoning=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure

# libFuzzer targets (clang-19, ASan+UBSan) in build-fuzz, FUZZ_SECONDS each (default 60);
# fails on any finding. docs/reliability.md.
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash test/fuzz/run.sh

clean:
	rm -rf $(BUILD_DIR)

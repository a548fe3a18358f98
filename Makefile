# The README's two commands: `make run` (the main job) and `make test` (all tests).
# Both install dependencies and build first.
BUILD_DIR ?= build
LIT := /usr/lib/llvm-19/build/utils/lit/lit.py

.PHONY: all deps configure build test run bench fuzz clean

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

# libFuzzer targets (clang-19, ASan+UBSan) in build-fuzz, FUZZ_SECONDS each (default 60);
# fails on any finding. docs/reliability.md.
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash test/fuzz/run.sh

clean:
	rm -rf $(BUILD_DIR)

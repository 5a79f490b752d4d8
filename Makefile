# Thin wrapper over CMake. `make demo` and `make test` install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build demo test test-sanitize test-sanitize-quick bench install clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/npuvp run add

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300

# Every test under ASan + UBSan, in a build directory of its own (issue 29).
SANITIZE_BUILD ?= build-sanitize
test-sanitize: deps
	@cmake -S . -B $(SANITIZE_BUILD) -DNPUVP_SANITIZE=ON -DNPUVP_BENCH=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j $(JOBS) --timeout 900

# The fast subset: only the unit-test binary, built and run under ASan + UBSan.
test-sanitize-quick: deps
	@cmake -S . -B $(SANITIZE_BUILD) -DNPUVP_SANITIZE=ON -DNPUVP_BENCH=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target npuvp_unit_tests
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j $(JOBS) --timeout 900 -R '^unit\.'

bench:
	@scripts/install-deps.sh --with-bench
	@cmake -S . -B $(BUILD) -DNPUVP_BENCH=ON $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target npuvp_bench
	$(BUILD)/bench/npuvp_bench

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD)

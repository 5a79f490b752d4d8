# Thin wrapper over CMake. `make demo` and `make test` install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build demo test bench install clean

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

bench:
	@scripts/install-deps.sh --with-bench
	@cmake -S . -B $(BUILD) -DNPUVP_BENCH=ON $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target npuvp_bench
	$(BUILD)/bench/npuvp_bench

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD)

# Thin wrapper over CMake. `make demo` and `make test` install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build demo test test-sanitize test-sanitize-ci test-sanitize-quick bench install clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/npuvp run add

# Every test (CI runs this: .ci/run), then the ASan + UBSan subset (test-sanitize-ci), which fits
# CI's 25 minutes since the test sources build in unity batches (docs/performance.md, "Where
# CI time goes"). SANITIZE=0 leaves the sanitizer subset out.
SANITIZE ?= 1
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300
ifneq ($(SANITIZE),0)
	@$(MAKE) --no-print-directory test-sanitize-ci
endif

# Every test under ASan + UBSan, in a build directory of its own (issue 29). -O1 with line
# tables only (-g1): the reports' file:line need no more, and it compiles much faster.
SANITIZE_BUILD ?= build-sanitize
SANITIZE_CONFIGURE = cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_ARGS) -DNPUVP_SANITIZE=ON -DNPUVP_BENCH=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
# UBSan stops at its first report (by default it prints and goes on, and the test passes).
# LeakSanitizer is on: a leak fails its test (docs/errors.md, "Sanitizer builds": the Python
# tests turn it off for python3 itself, which leaks at exit).
SANITIZE_CTEST = cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ctest --output-on-failure -j $(JOBS) --timeout 900
# The subset `make test` (CI) runs, chosen to fit its time budget (docs/performance.md, "Where
# CI time goes"): the command-line tests, every sample kernel on every platform among them (the
# whole simulator under the sanitizers for the cost of building the library and the CLI), less
# the two that take minutes under ASan (the parameter fuzz, 1024 cores). The unit tests are
# not in it: their 48 files cost as much CPU to compile under ASan as half the plain build.
SANITIZE_CI_TARGETS = npuvp npuvp_sample_jpeg
SANITIZE_CI_TESTS = ^platforms\.(cli|mncore2)\.
SANITIZE_CI_EXCLUDE = no_parameter_value_crashes_or_hangs|1024_ai_cores_run_in_bounded_memory

test-sanitize: deps
	@$(SANITIZE_CONFIGURE)
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	$(SANITIZE_CTEST)

test-sanitize-ci: deps
	@$(SANITIZE_CONFIGURE)
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target $(SANITIZE_CI_TARGETS)
	$(SANITIZE_CTEST) -R '$(SANITIZE_CI_TESTS)' -E '$(SANITIZE_CI_EXCLUDE)'

# The fast subset: only the unit-test binary, built and run under ASan + UBSan.
test-sanitize-quick: deps
	@$(SANITIZE_CONFIGURE)
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target npuvp_unit_tests
	$(SANITIZE_CTEST) -R '^unit\.'

bench:
	@scripts/install-deps.sh --with-bench
	@cmake -S . -B $(BUILD) -DNPUVP_BENCH=ON $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target npuvp_bench
	$(BUILD)/bench/npuvp_bench

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD)

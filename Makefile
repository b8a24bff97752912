# techo's front door. Each target does one thing and says what it did.
#   make test   install missing Debian packages, build optimised, run every test
#   make demo   install missing packages, build, render the demo journal, print the PNG paths
#   make bench  build optimised and print the benchmark figures
#   make build  build the optimised techo binary (.build/release/techo)
#   make serve  build, then open the demo journal in the live editor (PORT=7373; Ctrl+C stops)
SWIFT ?= swift
# Everything builds optimised (pixel loops in debug builds are 10-50x slower), and with one set
# of flags, so test, demo and bench share one build instead of recompiling for each other.
FLAGS ?= -c release -Xswiftc -enable-testing
.PHONY: deps build test demo bench clean lint serve

deps:
	@bash scripts/setup-deps.sh

build: deps
	$(SWIFT) build $(FLAGS) --product techo
	@echo "make build: built $$($(SWIFT) build $(FLAGS) --show-bin-path)/techo"

test: deps
	$(SWIFT) build $(FLAGS) --build-tests
	$(SWIFT) test $(FLAGS) --skip-build --disable-xctest
	@echo "make test: all tests ran"

demo: deps
	$(SWIFT) build $(FLAGS) --product techo
	$(SWIFT) build $(FLAGS) --product techo-assets
	@bash scripts/demo.sh "$$($(SWIFT) build $(FLAGS) --show-bin-path)"

PORT ?= 7373
serve: deps
	$(SWIFT) build $(FLAGS) --product techo
	$(SWIFT) build $(FLAGS) --product techo-assets
	@bash scripts/serve.sh "$$($(SWIFT) build $(FLAGS) --show-bin-path)" $(PORT)

# The bench also installs rsvg-convert (librsvg2-bin), to compare the reference page against it.
bench: deps
	@bash scripts/setup-deps.sh "librsvg2-bin:/usr/bin/rsvg-convert"
	$(SWIFT) build $(FLAGS) --product techo
	$(SWIFT) build $(FLAGS) --product techo-assets
	$(SWIFT) build $(FLAGS) --product techo-bench
	"$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-bench"

clean:
	rm -rf .build out bench-out

# The format the code keeps (.swift-format: ordered imports, no force try, 4-space indent).
lint:
	swift format lint --strict --recursive Sources Tests Package.swift
	@echo "make lint: no findings"
# Hostile-input checks (docs/fuzzing.md).
#   make fuzz   run every fuzz target, one after another, for FUZZ_SECONDS each (default 600)
#   make asan   build and test in debug under AddressSanitizer (SANITIZE_FILTER picks the tests)
#   make tsan   the same under ThreadSanitizer
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 1
FUZZ_TARGETS ?= json svg png jpeg text
FUZZ_OUT ?= fuzz-out
# Pixel-heavy suites (raster, render) take many minutes in a debug build under a sanitizer, so
# the default runs the others; SANITIZE_FILTER= (empty) runs everything.
SANITIZE_FILTER ?= TechoGeometryTests|TechoModelTests|TechoCodecsTests|TechoTextTests|TechoCommandsTests
.PHONY: fuzz asan tsan

fuzz: deps
	$(SWIFT) build $(FLAGS) --product techo-fuzz
	@mkdir -p $(FUZZ_OUT)
	@bin="$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-fuzz"; status=0; \
	for t in $(FUZZ_TARGETS); do \
	  "$$bin" $$t --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) --crashes $(FUZZ_OUT) --verbose \
	    --corpus Tests/TechoCodecsTests/Fixtures --corpus Tests/TechoModelTests/Fixtures --corpus Resources/demo \
	    || status=1; \
	done; \
	if [ $$status -ne 0 ]; then echo "make fuzz: a target failed; its input is in $(FUZZ_OUT)/"; exit 1; fi
	@echo "make fuzz: every target ran $(FUZZ_SECONDS) s with no crash"

asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/sanitizers/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan --disable-xctest $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
	@echo "make asan: the tests passed under AddressSanitizer"

tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan --disable-xctest $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
	@echo "make tsan: the tests passed under ThreadSanitizer"

# techo's front door. Each target does one thing and says what it did.
#   make test   install missing Debian packages, build optimised, run every test
#   make demo   install missing packages, build, render the demo journal, print the PNG paths
#   make bench  build optimised and print the benchmark figures
#   make build  build the optimised techo binary (.build/release/techo)
SWIFT ?= swift
# Tests run optimised: pixel loops in debug builds are 10-50x slower.
TEST_FLAGS ?= -c release -Xswiftc -enable-testing
.PHONY: deps build test demo bench clean

deps:
	@bash scripts/setup-deps.sh

build: deps
	$(SWIFT) build -c release --product techo
	@echo "make build: built $$($(SWIFT) build -c release --show-bin-path)/techo"

test: deps
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	$(SWIFT) test $(TEST_FLAGS) --skip-build --disable-xctest
	@echo "make test: all tests ran"

demo: build
	@bash scripts/demo.sh "$$($(SWIFT) build -c release --show-bin-path)/techo"

bench: deps
	$(SWIFT) build -c release --product techo-bench --product techo
	"$$($(SWIFT) build -c release --show-bin-path)/techo-bench"

clean:
	rm -rf .build out bench-out

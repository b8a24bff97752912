# techo's front door. Each target does one thing and says what it did.
#   make test   install missing Debian packages, build optimised, run every test
#   make demo   install missing packages, build, render the demo journal, print the PNG paths
#   make bench  build optimised and print the benchmark figures
#   make build  build the optimised techo binary (.build/release/techo)
SWIFT ?= swift
# Everything builds optimised (pixel loops in debug builds are 10-50x slower), and with one set
# of flags, so test, demo and bench share one build instead of recompiling for each other.
FLAGS ?= -c release -Xswiftc -enable-testing
.PHONY: deps build test demo bench clean lint

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

bench: deps
	$(SWIFT) build $(FLAGS) --product techo
	$(SWIFT) build $(FLAGS) --product techo-bench
	"$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-bench"

clean:
	rm -rf .build out bench-out

# The format the code keeps (.swift-format: ordered imports, no force try, 4-space indent).
lint:
	swift format lint --strict --recursive Sources Tests Package.swift
	@echo "make lint: no findings"

# techo's front door. Each target does one thing and says what it did.
#   make test   install missing Debian packages, build optimised, run every test
#   make demo   install missing packages, build, render the demo journal, print the PNG paths
#   make bench  build optimised and print the benchmark figures (the renderer's, then the editor's in Chromium)
#   make build  build the optimised techo binary (.build/release/techo)
#   make serve  build, then open the demo journal in the live editor (PORT=7373; Ctrl+C stops)
#   make load   build, then measure techo serve under hostile and heavy load (techo-load)
#   make install  build optimised, install it as $(DESTDIR)$(PREFIX)/bin/techo (PREFIX=/usr/local)
#   make references  remake the test references that outside tools made (cairo, libpng, djpeg, hb-view)
SWIFT ?= swift
# Everything builds optimised (pixel loops in debug builds are 10-50x slower), and with one set
# of flags, so test, demo and bench share one build instead of recompiling for each other.
FLAGS ?= -c release -Xswiftc -enable-testing
.PHONY: deps build test demo bench clean lint serve install load references

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

# The binary carries the editor and the templates, so it is the only file installed
# (docs/decisions/install.md); DESTDIR stages the install under another root.
PREFIX ?= /usr/local
DESTDIR ?=
install: deps
	$(SWIFT) build $(FLAGS) --product techo
	@DESTDIR="$(DESTDIR)" bash scripts/install.sh "$$($(SWIFT) build $(FLAGS) --show-bin-path)" "$(PREFIX)"

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
	$(SWIFT) build $(FLAGS) --build-tests
	@bash scripts/editor-figures.sh

# 296 connections without the token beside a client with it, then 50 clients rendering and
# editing for 30 s (CLIENTS, LOAD_SECONDS): medians and p95, peak memory, nothing lost, techo check.
CLIENTS ?= 50
LOAD_SECONDS ?= 30
load: deps
	$(SWIFT) build $(FLAGS) --product techo
	$(SWIFT) build $(FLAGS) --product techo-load
	"$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-load" lockout --techo "$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo"
	"$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-load" mixed --techo "$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo" --clients $(CLIENTS) --seconds $(LOAD_SECONDS)
	@echo "make load: both scenarios ran"

# The tests' independent references, remade from the committed inputs by the tools that made
# them, one script per family in scripts/references/ (each fixture README says which): the
# cairo scenes, the PNG references (libpng and a plain-Python decoder, which must agree), the
# JPEG corpus (djpeg, cjpeg, exiftool) and the ink widths (hb-view, pango-view). With Debian
# 12's tools the files come out byte for byte as committed; git status shows any that did not.
REFERENCE_DIRS = Tests/TechoRasterTests/Fixtures/primitives Tests/TechoCodecsTests/Fixtures/pngsuite \
  Tests/TechoCodecsTests/Fixtures/libpng Tests/TechoCodecsTests/Fixtures/jpeg Tests/TechoTextTests/References/widths
references:
	@bash scripts/setup-deps.sh "python3-cairo:/usr/lib/python3/dist-packages/cairo/__init__.py" \
	  "python3-pil:/usr/lib/python3/dist-packages/PIL/Image.py" "libjpeg-turbo-progs:/usr/bin/djpeg" \
	  "libimage-exiftool-perl:/usr/bin/exiftool" "libharfbuzz-bin:/usr/bin/hb-view" "pango1.0-tools:/usr/bin/pango-view"
	/usr/bin/python3 scripts/references/cairo-scenes.py
	/usr/bin/python3 scripts/references/png-references.py
	/usr/bin/python3 scripts/references/jpeg-references.py
	bash scripts/references/text-widths.sh
	@changed="$$(git status --short -- $(REFERENCE_DIRS))"; \
	  echo "make references: remade every family; files that differ from the last commit: $${changed:-none}"

clean:
	rm -rf .build out bench-out

# The format the code keeps (.swift-format: ordered imports, no force try, 4-space indent).
lint:
	swift format lint --strict --recursive Sources Tests Package.swift Plugins
	@echo "make lint: no findings"
# Hostile-input checks (docs/fuzzing.md).
#   make fuzz   every target under libFuzzer (coverage-guided, AddressSanitizer), one after
#               another, FUZZ_SECONDS each (default 1800); corpus and findings in fuzz-out/
#   make asan   build and test in debug under AddressSanitizer (SANITIZE_FILTER picks the tests)
#   make tsan   the same under ThreadSanitizer
FUZZ_SECONDS ?= 1800
FUZZ_TARGETS ?= json svg png jpeg heif webp svgimage text editor operations
FUZZ_OUT ?= fuzz-out
# libFuzzer's main and coverage need --sanitize=fuzzer on the link and on every module; dead
# stripping would drop the coverage counters' sections, so it is off in this build.
LIBFUZZER_FLAGS = -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --disable-dead-strip --scratch-path .build/libfuzzer
# Pixel-heavy suites (raster, render) take many minutes in a debug build under a sanitizer, so
# the default runs the others; SANITIZE_FILTER= (empty) runs everything.
SANITIZE_FILTER ?= TechoGeometryTests|TechoModelTests|TechoCodecsTests|TechoTextTests|TechoCommandsTests
# SANITIZE_CONFIG empty builds in debug; "-c release -Xswiftc -enable-testing" builds optimised (with
# the sanitizer still on every access), which runs the pixel-heavy suites in minutes.
SANITIZE_CONFIG ?=
.PHONY: fuzz asan tsan

fuzz: deps
	$(SWIFT) build $(FLAGS) --product techo-fuzz
	TECHO_LIBFUZZER=1 $(SWIFT) build $(LIBFUZZER_FLAGS) --product techo-libfuzzer
	@mkdir -p $(FUZZ_OUT)
	@bash scripts/fuzz.sh "$$(TECHO_LIBFUZZER=1 $(SWIFT) build $(LIBFUZZER_FLAGS) --show-bin-path)/techo-libfuzzer" \
	  "$$($(SWIFT) build $(FLAGS) --show-bin-path)/techo-fuzz" $(FUZZ_OUT) $(FUZZ_SECONDS) $(FUZZ_TARGETS) \
	  || { echo "make fuzz: a target found something; its input is in $(FUZZ_OUT)/"; exit 1; }
	@echo "make fuzz: every target ran $(FUZZ_SECONDS) s under libFuzzer with no finding"

asan: deps
	$(SWIFT) build $(SANITIZE_CONFIG) --build-tests --sanitize=address --scratch-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/sanitizers/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test $(SANITIZE_CONFIG) --skip-build --sanitize=address --scratch-path .build/asan --disable-xctest $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
	@echo "make asan: the tests passed under AddressSanitizer"

tsan: deps
	$(SWIFT) build $(SANITIZE_CONFIG) --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test $(SANITIZE_CONFIG) --skip-build --sanitize=thread --scratch-path .build/tsan --disable-xctest $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
	@echo "make tsan: the tests passed under ThreadSanitizer"

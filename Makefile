# Redline. `make demo` and `make test` set up what is missing, build, and run.
SWIFT ?= swift
REDLINE_DEBUG := .build/debug/redline
REDLINE := .build/release/redline
# Release builds link the Swift runtime and Foundation statically: a self-contained binary that starts
# in about half the time (9 → 5.5 ms CPU), which matters for many small documents.
RELEASE_FLAGS := -c release --static-swift-stdlib --product redline
# `redline mcp` runs redline-mcp, built apart so that its SDK does not slow every redline start-up; the SDK
# brings FoundationNetworking, whose static library needs libcurl at link time.
MCP_RELEASE_FLAGS := -c release --static-swift-stdlib --product redline-mcp -Xlinker -lcurl

# Where `make install` puts redline, its man page and completions (DESTDIR for packaging).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all setup build release demo test golden bench perf-check perf-baseline fuzz fuzz-ci docs clean install uninstall

all: build

setup:
	@bash scripts/setup.sh build

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build $(RELEASE_FLAGS)

# Converts the sample manuscript to its marked, clean and original versions and shows them.
demo: release
	@bash scripts/demo.sh $(REDLINE)

# Runs every test. Never rewrites a golden file: a missing or different golden fails.
test:
	@bash scripts/setup.sh test
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	@bash scripts/run-tests.sh

# libFuzzer targets (Fuzz/, a separate package) built with -sanitize=fuzzer,address, each run FUZZ_SECONDS.
# `make test` also replays the kept crashers through what their targets run (FuzzRegressionTests).
FUZZ_SECONDS ?= 60
fuzz: setup
	@bash Fuzz/run.sh $(FUZZ_SECONDS)

# CI's brief run (.ci/run): the sanitizer build (about 5 minutes from scratch here), then every target from
# its seeds for a fixed number of executions (about 10 s each here; 14 s at most, under 2 minutes in all), with
# a fixed seed and deterministic hashing, so every run of a commit tries nearly the same inputs (the readers'
# and writers' threads make the coverage, and so the inputs kept, differ a little from run to run).
FUZZ_CI_RUNS = markdown:4000 rtf:5000 docx:10000 docx-xml:4000 zip:12000 binder:40000 roundtrip:1500 compare:1500 apply:300 mcp:300 tex:2000 omml:2000
fuzz-ci: setup
	@rm -rf Fuzz/.corpus-ci
	@FUZZ_CORPUS=.corpus-ci FUZZ_SEED=1 FUZZ_RUNS="$(FUZZ_CI_RUNS)" SWIFT_DETERMINISTIC_HASHING=1 FUZZ_NICE=0 bash Fuzz/run.sh 14

# Rewrites the golden files from the current output (review the diff before committing).
golden: setup
	REDLINE_UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenTests

# Benchmarks against pandoc on the generated corpus (see scripts/bench.sh).
bench:
	@bash scripts/setup.sh bench
	$(SWIFT) build $(RELEASE_FLAGS)
	@bash scripts/bench.sh $(REDLINE)

# The library's API documentation (DocC: the Redline facade and the modules it re-exports, with the articles in
# Sources/Redline/Redline.docc), into .build/docs; any DocC warning fails it.
DOCS_TARGETS = Redline RedlineConversion RedlineCore RedlineCompare RedlineBatch RedlineCheck RedlineMigration
docs: setup
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		$(foreach t,$(DOCS_TARGETS),--target $(t)) --enable-experimental-combined-documentation \
		--output-path .build/docs --warnings-as-errors
	@echo "docs: .build/docs (serve it, or: $(SWIFT) package --disable-sandbox preview-documentation --target Redline)"

# The speed guard without a clock: instructions each of a few small workloads executes under valgrind (callgrind),
# against scripts/perf/baseline.tsv; more than 3 % above fails (scripts/perf/check.sh; about 2-3 minutes).
# perf-baseline re-records the baseline: commit it on its own, saying why the counts moved.
perf-check: release
	@bash scripts/setup.sh perf
	@bash scripts/perf/check.sh check $(REDLINE)

perf-baseline: release
	@bash scripts/setup.sh perf
	@bash scripts/perf/check.sh baseline $(REDLINE)

# Installs the release binary, a man page generated from the argument parser and bash/zsh/fish completions.
install: release
	$(SWIFT) build $(MCP_RELEASE_FLAGS)
	@bash scripts/install.sh install $(REDLINE) "$(DESTDIR)$(PREFIX)"

uninstall:
	@bash scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build demo-out bench-out Fuzz/.build

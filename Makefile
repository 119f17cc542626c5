# The two commands of the README, and their parts. `make run` sets up what running needs, builds
# (release) and runs the full report; `make test` also sets up what the tests need, builds with
# sanitizers and runs the whole suite through ctest.
BUILD       ?= build/release
TEST_BUILD  ?= build/test
ARCHS       ?= 75;80;86;89;90
JOBS        ?= $(shell nproc)
CMAKE_FLAGS ?=

PREFIX      ?= /usr/local

.PHONY: all setup setup-test build run test release-host install clean

all: build

setup:
	@bash scripts/setup.sh

setup-test:
	@bash scripts/setup.sh --test

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release "-DGS_CUDA_ARCHS=$(ARCHS)" $(CMAKE_FLAGS)

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/gpusonar $(ARGS)

$(TEST_BUILD)/CMakeCache.txt:
	cmake -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DGS_SANITIZE=ON "-DGS_CUDA_ARCHS=$(ARCHS)" $(CMAKE_FLAGS)

test: setup-test $(TEST_BUILD)/CMakeCache.txt release-host
	cmake --build $(TEST_BUILD) -j $(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j $(JOBS)

# The host code once more with the release optimiser: some warnings (-Wmaybe-uninitialized,
# -Wformat-truncation) appear only at -O2, and `make run` builds release with -Werror.
RELEASE_HOST ?= build/release-host
release-host: setup
	cmake -S . -B $(RELEASE_HOST) -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(RELEASE_HOST) -j $(JOBS)

# Installs the binary, the built-in models and the man page under PREFIX (bin/, share/gpusonar/
# models/, share/man/man1/); DESTDIR is honoured for packaging.
install: build
	cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf build

# The two commands of the README, and their parts. `make run` sets up what running needs, builds
# (release) and runs the full report; `make test` also sets up what the tests need, builds with
# sanitizers and runs the whole suite through ctest.
BUILD       ?= build/release
TEST_BUILD  ?= build/test
# CUDA architectures (CMake's CUDA_ARCHITECTURES): `make run` gets one cubin per family the kernels
# tell apart and PTX for newer GPUs (CMakeLists.txt, GS_CUDA_ARCHS, says why); the test build,
# which runs on no GPU, compiles the oldest and the newest family, which between them reach every
# branch of the kernels through ptxas (sm_90a's wgmma is built whenever 90 is listed).
ARCHS       ?= 75-real;80-real;89-real;90
TEST_ARCHS  ?= 75-real;90
JOBS        ?= $(shell nproc)
CMAKE_FLAGS ?=

PREFIX      ?= /usr/local

.PHONY: all setup setup-test build run test install clean

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

# The test build optimises as the release build does (-O2, CMakeLists.txt), so the warnings that
# appear only with the optimiser (-Wmaybe-uninitialized, -Wformat-truncation) stop it too: no
# separate build is made for them.
$(TEST_BUILD)/CMakeCache.txt:
	cmake -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DGS_SANITIZE=ON "-DGS_CUDA_ARCHS=$(TEST_ARCHS)" $(CMAKE_FLAGS)

test: setup-test $(TEST_BUILD)/CMakeCache.txt
	cmake --build $(TEST_BUILD) -j $(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j $(JOBS)

# Installs the binary, the built-in models and the man page under PREFIX (bin/, share/gpusonar/
# models/, share/man/man1/); DESTDIR is honoured for packaging.
install: build
	cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf build

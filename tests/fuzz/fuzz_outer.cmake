# GS_FUZZ in the main build: when clang can link a libFuzzer target, the library and the fuzzers
# of tests/fuzz/ are built a second time with clang in <build>/fuzz (an external project on this
# same source tree, simulator only), and ctest runs each fuzzer over its seed corpus for a short,
# fixed number of inputs (scripts/fuzz.sh). Without clang the fuzz tests are left out, with a note.
find_program(GS_CLANG NAMES clang clang-14)
set(GS_FUZZ_OK OFF)
if(GS_CLANG)
  set(check_dir ${CMAKE_BINARY_DIR}/fuzz-check)
  file(WRITE ${check_dir}/check.c "#include <stddef.h>\n#include <stdint.h>\n"
       "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return (int)(n && !d); }\n")
  execute_process(COMMAND ${GS_CLANG} -fsanitize=fuzzer,address,undefined ${check_dir}/check.c
                          -o ${check_dir}/check
                  RESULT_VARIABLE check_rc OUTPUT_QUIET ERROR_QUIET)
  if(check_rc EQUAL 0)
    set(GS_FUZZ_OK ON)
  endif()
endif()

if(NOT GS_FUZZ_OK)
  message(STATUS "gpusonar: no clang with libFuzzer (Debian: clang libclang-rt-14-dev, see "
                 "scripts/setup.sh --test): the fuzz targets are not built or tested")
  return()
endif()

message(STATUS "gpusonar: fuzz targets ON (${GS_CLANG}, in ${CMAKE_BINARY_DIR}/fuzz)")
include(ExternalProject)
ExternalProject_Add(gs_fuzz
  SOURCE_DIR ${CMAKE_SOURCE_DIR}
  BINARY_DIR ${CMAKE_BINARY_DIR}/fuzz
  CMAKE_ARGS -DCMAKE_C_COMPILER=${GS_CLANG} -DCMAKE_BUILD_TYPE=Debug -DGS_CUDA=OFF
             -DGS_SANITIZE=OFF -DGS_FUZZ=OFF -DGS_FUZZ_TARGETS=ON
  BUILD_ALWAYS ON
  INSTALL_COMMAND "")

# Short runs for every change (a few seconds each on two cores); long campaigns are
# scripts/fuzz_campaign.sh's job. The writers' targets (report, html, export, plot, compare, fleet)
# check the escaping rules of src/util/escape.h with property oracles, not only crashes.
foreach(target model document cli)
  add_test(NAME fuzz/${target}
           COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/fuzz.sh --build ${CMAKE_BINARY_DIR}/fuzz
                   --no-build --runs 20000 --seconds 15 ${target})
  set_tests_properties(fuzz/${target} PROPERTIES TIMEOUT 120)
endforeach()
foreach(target report html export plot compare fleet)
  add_test(NAME fuzz/${target}
           COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/fuzz.sh --build ${CMAKE_BINARY_DIR}/fuzz
                   --no-build --runs 3000 --seconds 5 ${target})
  set_tests_properties(fuzz/${target} PROPERTIES TIMEOUT 60)
endforeach()
# fuzz_document's CSV files are synced by their writer: in a memory-backed folder (where the
# system has one) its inputs are not paced by the disk, and its 20000 inputs end within its time
# limit. fuzz/cli runs to its time limit, the document and fleet targets for several seconds:
# started among the long tests (ctest's COST), not last, where they would run alone beside an
# idle CPU.
if(IS_DIRECTORY /dev/shm)
  set_tests_properties(fuzz/document PROPERTIES ENVIRONMENT TMPDIR=/dev/shm)
endif()
set_tests_properties(fuzz/cli PROPERTIES COST 30)
set_tests_properties(fuzz/document fuzz/fleet PROPERTIES COST 12)

# The clang fuzz build (configured with GS_FUZZ_TARGETS=ON, by the outer build's GS_FUZZ or by
# scripts/fuzz.sh): the library and the CLI library instrumented for libFuzzer, ASan and UBSan, and one executable per
# tests/fuzz/fuzz_*.c. Warnings stay on but are not errors here: gcc's build is the one that
# holds the code to -Werror, and a clang-only warning must not stop the fuzzers from building.
set(GS_FUZZ_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
# -O1: the fuzzers run briefly in ctest, so a quicker compile matters more than their speed.
# Line tables are all the sanitizers' stack traces need (file:line of each frame), and compile
# in less time than full debug information.
set(CMAKE_C_FLAGS_DEBUG "-gline-tables-only -O1")
target_compile_options(gs PRIVATE -Wno-error)
target_compile_options(gscli PRIVATE -Wno-error)
target_compile_options(gs PUBLIC -fsanitize=fuzzer-no-link ${GS_FUZZ_SAN_FLAGS})

file(GLOB GS_FUZZERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
foreach(src ${GS_FUZZERS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE gscli)
  target_compile_options(${name} PRIVATE ${GS_WARNINGS} -Wno-error)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer ${GS_FUZZ_SAN_FLAGS})
endforeach()

# -DRNGD_FUZZ=ON (included by the top-level CMakeLists.txt before any library): every target of
# this build folder is compiled with libFuzzer's coverage instrumentation, AddressSanitizer and
# UndefinedBehaviorSanitizer (any UB report aborts, so the fuzzer counts it as a finding); the
# fuzz-<target> executables of test/fuzz/CMakeLists.txt link libFuzzer itself. Needs clang
# (Debian's clang-19 and libclang-rt-19-dev): `make fuzz` configures build-fuzz with
# CC=clang-19 CXX=clang++-19. UBSan's vptr check is off: Debian's LLVM/MLIR libraries are built
# without RTTI, so their classes have no type_info for it to compare. docs/reliability.md.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "RNGD_FUZZ needs clang for libFuzzer, not ${CMAKE_CXX_COMPILER_ID}: "
                      "configure with CC=clang-19 CXX=clang++-19 (make fuzz does)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-sanitize=vptr -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined -fno-sanitize=vptr)

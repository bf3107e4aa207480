/* fb_fuzz.h — libFuzzer entry point of the fricbench harnesses (fuzz/README in the
 * top-level README: scripts/fuzz.sh builds them with clang -fsanitize=fuzzer,address,
 * undefined and runs them on fuzz/corpus/<harness>/; replay.c runs a corpus without
 * libFuzzer, as a meson test, so every build checks the seeds). */
#ifndef FB_FUZZ_H
#define FB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif

// What a test needs to know about the sanitizer build it runs in (scripts/test.sh --sanitize,
// cmake/Sanitizers.cmake).
#pragma once

namespace kebab::sanitizer {

// How many times a wall-time bound in a test is stretched: instrumented code runs several times
// slower (measured here: a Cranfield re-import 0.09 s plain, 0.65-1.3 s under ASan+UBSan), and a
// bound is there to catch a slowdown by an order of magnitude, not the sanitizer's own cost.
#if defined(__SANITIZE_THREAD__)
inline constexpr double kTimeBoundScale = 20;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeBoundScale = 5;
#else
inline constexpr double kTimeBoundScale = 1;
#endif

}  // namespace kebab::sanitizer

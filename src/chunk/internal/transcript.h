// Chunker transcript-v1: a recording's transcript (parse/internal/audio.h: paragraph blocks
// spanning time ranges, after one kAudioRef description block) in windows of consecutive
// segments. A window closes at target_tokens or kMaxWindowMs of audio, and once past
// kMinWindowMs at a pause of kPauseMs or more, so windows end where the speaker stopped and a
// citation names a stretch a listener can replay (tens of seconds, not minutes); the next
// window starts with the last segment of the one before when it fits in overlap_tokens. Every
// chunk cites the time range from its first segment's start to its last one's end; the
// description block is a chunk of its own. Module-private; pure function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kTranscriptV1[] = "transcript-v1";
inline constexpr uint64_t kMinWindowMs = 10'000;
inline constexpr uint64_t kMaxWindowMs = 30'000;
inline constexpr uint64_t kPauseMs = 500;

std::string TranscriptPolicyHash(const ChunkPolicy& policy);
std::vector<Chunk> ChunkTranscript(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk::internal

// Decoding for the audio worker (kebab-audio): a recording held in memory (wav, flac, mp3,
// ogg/opus, m4a/aac, webm, whatever FFmpeg's demuxers and decoders read) streamed out as
// 16 kHz mono signed 16-bit samples, a block at a time, so an hour of audio is never decoded
// into memory whole. Encoder delay and padding (MP3's LAME header, AAC edit lists) are
// trimmed by FFmpeg, so sample n is at n / 16000 s of what the listener hears.
// Thread safety: one AudioDecoder per thread. Ownership: it keeps the bytes it is given.
// Errors: invalid_input for data FFmpeg cannot open or that has no audio stream
// ("unsupported"); io_error for a stream that breaks off mid-way ("damaged").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/status.h"

namespace kebab::parse::internal {

inline constexpr int kAudioSampleRate = 16000;

struct AudioInfo {
  int64_t duration_ms = 0;  // from the container; 0 when it does not say
  std::string container;    // "wav", "mp3", "mov,mp4,m4a,3gp,3g2,mj2", ...
  std::string codec;        // "pcm_s16le", "aac", ...
  int sample_rate = 0;      // of the stream as stored
  int channels = 0;
  // Tags of the container and the audio stream (lowercase keys: title, artist, album, date).
  std::map<std::string, std::string> tags;
};

class AudioDecoder {
 public:
  static Result<std::unique_ptr<AudioDecoder>> Open(std::string bytes);
  ~AudioDecoder();
  AudioDecoder(const AudioDecoder&) = delete;
  AudioDecoder& operator=(const AudioDecoder&) = delete;

  const AudioInfo& info() const { return info_; }

  // Decodes to the end, handing `sink` consecutive blocks of 16 kHz mono samples; `sink`
  // returns false to stop early. A packet the decoder rejects is skipped (counted in
  // skipped_packets); a stream that cannot be read on is an io_error after what came before it
  // was handed out.
  Status Run(const std::function<bool(const int16_t* samples, size_t n)>& sink);
  int skipped_packets() const { return skipped_packets_; }

 private:
  struct State;
  explicit AudioDecoder(std::unique_ptr<State> state);

  std::unique_ptr<State> state_;
  AudioInfo info_;
  int skipped_packets_ = 0;
};

// "FFmpeg 5.1.x (libavformat 59.27.100, libavcodec 59.37.100)", for --version.
std::string FfmpegVersion();

}  // namespace kebab::parse::internal

#include "parse/internal/audio_decode.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/ffversion.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
}

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace kebab::parse::internal {
namespace {

constexpr int kIoBufferBytes = 64 * 1024;

std::string AvError(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof(buf));
  return buf;
}

// The bytes FFmpeg reads through a custom AVIOContext: read and seek over memory, so any
// container (an m4a's index at its end included) opens without a file.
struct Memory {
  std::string bytes;
  size_t pos = 0;
};

int ReadMemory(void* opaque, uint8_t* buf, int size) {
  auto* m = static_cast<Memory*>(opaque);
  const size_t left = m->bytes.size() - m->pos;
  if (left == 0) return AVERROR_EOF;
  const size_t n = std::min(left, static_cast<size_t>(size));
  std::memcpy(buf, m->bytes.data() + m->pos, n);
  m->pos += n;
  return static_cast<int>(n);
}

int64_t SeekMemory(void* opaque, int64_t offset, int whence) {
  auto* m = static_cast<Memory*>(opaque);
  const auto size = static_cast<int64_t>(m->bytes.size());
  int64_t to = 0;
  switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE:
      return size;
    case SEEK_SET:
      to = offset;
      break;
    case SEEK_CUR:
      to = static_cast<int64_t>(m->pos) + offset;
      break;
    case SEEK_END:
      to = size + offset;
      break;
    default:
      return AVERROR(EINVAL);
  }
  if (to < 0 || to > size) return AVERROR(EINVAL);
  m->pos = static_cast<size_t>(to);
  return to;
}

void CopyTags(const AVDictionary* dict, std::map<std::string, std::string>* tags) {
  const AVDictionaryEntry* e = nullptr;
  while ((e = av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX)) != nullptr) {
    std::string key = e->key;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!e->value || !*e->value) continue;
    tags->emplace(std::move(key), e->value);  // the container's tag wins over the stream's
  }
}

}  // namespace

struct AudioDecoder::State {
  Memory memory;
  AVIOContext* io = nullptr;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  SwrContext* resampler = nullptr;
  AVPacket* packet = nullptr;
  AVFrame* frame = nullptr;
  int stream = -1;

  ~State() {
    av_frame_free(&frame);
    av_packet_free(&packet);
    swr_free(&resampler);
    avcodec_free_context(&codec);
    avformat_close_input(&format);
    if (io != nullptr) av_freep(&io->buffer);
    avio_context_free(&io);
  }
};

AudioDecoder::AudioDecoder(std::unique_ptr<State> state) : state_(std::move(state)) {}
AudioDecoder::~AudioDecoder() = default;

Result<std::unique_ptr<AudioDecoder>> AudioDecoder::Open(std::string bytes) {
  av_log_set_level(AV_LOG_QUIET);
  if (bytes.empty()) return InvalidInput("the file is empty");
  auto s = std::make_unique<State>();
  s->memory.bytes = std::move(bytes);
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
  if (buffer == nullptr) return Status(ErrorCode::kGeneric, "out of memory");
  s->io =
      avio_alloc_context(buffer, kIoBufferBytes, 0, &s->memory, ReadMemory, nullptr, SeekMemory);
  if (s->io == nullptr) {
    av_free(buffer);
    return Status(ErrorCode::kGeneric, "out of memory");
  }
  s->format = avformat_alloc_context();
  s->format->pb = s->io;
  s->format->flags |= AVFMT_FLAG_CUSTOM_IO;
  if (int rc = avformat_open_input(&s->format, nullptr, nullptr, nullptr); rc < 0) {
    // avformat_open_input frees the context on failure.
    s->format = nullptr;
    return InvalidInput("not a recording FFmpeg can read (" + AvError(rc) + ")");
  }
  if (int rc = avformat_find_stream_info(s->format, nullptr); rc < 0) {
    return InvalidInput("cannot read the recording's streams (" + AvError(rc) + ")");
  }
  const AVCodec* decoder = nullptr;
  s->stream = av_find_best_stream(s->format, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0);
  if (s->stream == AVERROR_DECODER_NOT_FOUND) {
    return InvalidInput("no decoder for its audio codec");
  }
  if (s->stream < 0) return InvalidInput("the file holds no audio stream");
  const AVStream* stream = s->format->streams[s->stream];
  s->codec = avcodec_alloc_context3(decoder);
  if (s->codec == nullptr) return Status(ErrorCode::kGeneric, "out of memory");
  if (int rc = avcodec_parameters_to_context(s->codec, stream->codecpar); rc < 0) {
    return InvalidInput("bad audio parameters (" + AvError(rc) + ")");
  }
  s->codec->thread_count = 1;  // the ingest already runs a file per core
  if (int rc = avcodec_open2(s->codec, decoder, nullptr); rc < 0) {
    return InvalidInput("cannot open the " + std::string(decoder->name) + " decoder (" +
                        AvError(rc) + ")");
  }
  if (s->codec->ch_layout.nb_channels <= 0 || s->codec->sample_rate <= 0) {
    return InvalidInput("the audio stream has no channels or sample rate");
  }
  AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
  if (int rc = swr_alloc_set_opts2(&s->resampler, &mono, AV_SAMPLE_FMT_S16, kAudioSampleRate,
                                   &s->codec->ch_layout, s->codec->sample_fmt,
                                   s->codec->sample_rate, 0, nullptr);
      rc < 0 || swr_init(s->resampler) < 0) {
    return InvalidInput("cannot convert its audio to 16 kHz mono");
  }
  s->packet = av_packet_alloc();
  s->frame = av_frame_alloc();
  if (s->packet == nullptr || s->frame == nullptr) {
    return Status(ErrorCode::kGeneric, "out of memory");
  }

  AudioInfo info;
  if (s->format->duration > 0) info.duration_ms = s->format->duration / (AV_TIME_BASE / 1000);
  info.container = s->format->iformat->name;
  info.codec = decoder->name;
  info.sample_rate = s->codec->sample_rate;
  info.channels = s->codec->ch_layout.nb_channels;
  CopyTags(s->format->metadata, &info.tags);
  CopyTags(stream->metadata, &info.tags);

  std::unique_ptr<AudioDecoder> d(new AudioDecoder(std::move(s)));
  d->info_ = std::move(info);
  return d;
}

Status AudioDecoder::Run(const std::function<bool(const int16_t*, size_t)>& sink) {
  State& s = *state_;
  std::vector<int16_t> out;
  bool stopped = false;
  // Converts what the decoder has ready (all of it, then the resampler's tail, when `flush`).
  auto drain = [&](bool flush) -> Status {
    while (!stopped) {
      int rc = avcodec_receive_frame(s.codec, s.frame);
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) break;
      if (rc < 0) {
        ++skipped_packets_;
        break;
      }
      const int room = swr_get_out_samples(s.resampler, s.frame->nb_samples);
      out.resize(static_cast<size_t>(std::max(room, 0)));
      uint8_t* dst = reinterpret_cast<uint8_t*>(out.data());
      const int n =
          swr_convert(s.resampler, &dst, room, const_cast<const uint8_t**>(s.frame->extended_data),
                      s.frame->nb_samples);
      av_frame_unref(s.frame);
      if (n < 0) return Status(ErrorCode::kIoError, "resampling failed (" + AvError(n) + ")");
      if (n > 0 && !sink(out.data(), static_cast<size_t>(n))) stopped = true;
    }
    if (flush && !stopped) {
      const int room = swr_get_out_samples(s.resampler, 0);
      if (room > 0) {
        out.resize(static_cast<size_t>(room));
        uint8_t* dst = reinterpret_cast<uint8_t*>(out.data());
        const int n = swr_convert(s.resampler, &dst, room, nullptr, 0);
        if (n > 0 && !sink(out.data(), static_cast<size_t>(n))) stopped = true;
      }
    }
    return Status::OK();
  };
  while (!stopped) {
    const int rc = av_read_frame(s.format, s.packet);
    if (rc == AVERROR_EOF) break;
    if (rc < 0) {
      return Status(ErrorCode::kIoError, "the recording breaks off (" + AvError(rc) + ")");
    }
    if (s.packet->stream_index == s.stream) {
      if (avcodec_send_packet(s.codec, s.packet) < 0) ++skipped_packets_;
    }
    av_packet_unref(s.packet);
    KEBAB_RETURN_IF_ERROR(drain(false));
  }
  if (stopped) return Status::OK();
  avcodec_send_packet(s.codec, nullptr);
  return drain(true);
}

std::string FfmpegVersion() {
  auto version = [](unsigned v) {
    return std::to_string(AV_VERSION_MAJOR(v)) + "." + std::to_string(AV_VERSION_MINOR(v)) + "." +
           std::to_string(AV_VERSION_MICRO(v));
  };
  return std::string("FFmpeg ") + FFMPEG_VERSION + " (libavformat " + version(avformat_version()) +
         ", libavcodec " + version(avcodec_version()) + ")";
}

}  // namespace kebab::parse::internal

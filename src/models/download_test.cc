// Download against tests/tools/fake_hub.py, a real HTTP server on 127.0.0.1 that answers like
// the Hugging Face hub (redirect with X-Linked-Etag, ranged CDN) and misbehaves on request.
#include "models/download.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/sha1.h"
#include "core/sha256.h"

namespace kebab::models {
namespace {

namespace fs = std::filesystem;

const std::string kFakeHub = std::string(KEBAB_SOURCE_DIR) + "/tests/tools/fake_hub.py";
constexpr size_t kFileBytes = 300'000;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, std::string_view data) {
  std::ofstream(path, std::ios::binary)
      .write(data.data(), static_cast<std::streamsize>(data.size()));
}

int64_t SizeOr(const std::string& path, int64_t missing = -1) {
  std::error_code ec;
  const auto n = fs::file_size(path, ec);
  return ec ? missing : static_cast<int64_t>(n);
}

// fake_hub.py serving one random file as test/repo/model.gguf; killed with the fixture (and,
// through PR_SET_PDEATHSIG, with the test binary).
class FakeHub {
 public:
  FakeHub(const std::string& file, const std::vector<std::string>& options) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      std::vector<std::string> argv = {"/usr/bin/python3", kFakeHub, "--serve",
                                       "test/repo/model.gguf=" + file};
      argv.insert(argv.end(), options.begin(), options.end());
      std::vector<char*> args;
      for (std::string& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(out[1]);
    // The first line is the port.
    std::string line;
    char c;
    pollfd p = {out[0], POLLIN, 0};
    while (poll(&p, 1, 10000) > 0 && read(out[0], &c, 1) == 1 && c != '\n') line += c;
    close(out[0]);
    port_ = std::atoi(line.c_str());
  }
  ~FakeHub() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  int port() const { return port_; }
  std::string Url(const std::string& path = "test/repo/resolve/main/model.gguf") const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

// A port nothing listens on (bound, then released).
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

class DownloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("kebab-download-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::mt19937 rng(42);
    content_.resize(kFileBytes);
    for (char& c : content_) c = static_cast<char>(rng());
    source_ = (dir_ / "source.bin").string();
    WriteFile(source_, content_);
    dest_ = (dir_ / "model.gguf").string();
    part_ = dest_ + ".part";
  }
  void TearDown() override { fs::remove_all(dir_); }

  DownloadRequest Request(const FakeHub& hub) const {
    DownloadRequest r;
    r.url = hub.Url();
    r.dest = dest_;
    return r;
  }

  fs::path dir_;
  std::string content_, source_, dest_, part_;
};

TEST_F(DownloadTest, FollowsTheRedirectAndVerifiesTheHubsHash) {
  FakeHub hub(source_, {});
  ASSERT_GT(hub.port(), 0);
  int64_t last_done = 0, total = 0;
  DownloadRequest r = Request(hub);
  r.on_progress = [&](const DownloadProgress& p) {
    EXPECT_GE(p.bytes_done, last_done);
    last_done = p.bytes_done;
    total = p.bytes_total;
  };
  auto result = Download(r);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(ReadFile(dest_) == content_);
  EXPECT_FALSE(fs::exists(part_));
  EXPECT_EQ(result->sha256, Sha256Hex(content_));
  EXPECT_EQ(result->server_sha256, Sha256Hex(content_));
  EXPECT_EQ(result->verified_against, Verification::kServer);
  EXPECT_EQ(result->bytes, static_cast<int64_t>(kFileBytes));
  EXPECT_EQ(result->transferred, static_cast<int64_t>(kFileBytes));
  EXPECT_EQ(result->resumed_from, 0);
  EXPECT_EQ(last_done, static_cast<int64_t>(kFileBytes));
  EXPECT_EQ(total, static_cast<int64_t>(kFileBytes));
}

TEST_F(DownloadTest, ADroppedConnectionKeepsThePartAndTheNextCallResumes) {
  FakeHub hub(source_, {"--drop-after", "100000"});
  auto first = Download(Request(hub));
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().code(), ErrorCode::kModelUnreachable) << first.status().ToString();
  EXPECT_NE(first.status().hint().find("resume"), std::string::npos);
  EXPECT_EQ(SizeOr(part_), 100000);
  EXPECT_FALSE(fs::exists(dest_));

  auto second = Download(Request(hub));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->resumed_from, 100000);
  EXPECT_EQ(second->transferred, static_cast<int64_t>(kFileBytes) - 100000);
  EXPECT_EQ(second->verified_against, Verification::kServer);
  EXPECT_TRUE(ReadFile(dest_) == content_);
}

TEST_F(DownloadTest, AServerIgnoringTheRangeStartsOver) {
  WriteFile(part_, content_.substr(0, 5000));
  FakeHub hub(source_, {"--ignore-range"});
  auto result = Download(Request(hub));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->resumed_from, 0);
  EXPECT_EQ(result->transferred, static_cast<int64_t>(kFileBytes));
  EXPECT_TRUE(ReadFile(dest_) == content_);
}

TEST_F(DownloadTest, ACompletePartIsVerifiedAndMovedWithoutDownloading) {
  WriteFile(part_, content_);
  FakeHub hub(source_, {});
  auto result = Download(Request(hub));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->transferred, 0);
  EXPECT_TRUE(ReadFile(dest_) == content_);
  EXPECT_FALSE(fs::exists(part_));
}

TEST_F(DownloadTest, APartLongerThanTheFileIsStartedOver) {
  WriteFile(part_, content_ + "trailing garbage");
  FakeHub hub(source_, {});
  auto result = Download(Request(hub));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->transferred, static_cast<int64_t>(kFileBytes));
  EXPECT_TRUE(ReadFile(dest_) == content_);
}

TEST_F(DownloadTest, WrongBytesAreACorruptErrorAndLeaveNothingBehind) {
  FakeHub hub(source_, {"--corrupt"});
  auto result = Download(Request(hub));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(result.status().message().find("checksum mismatch"), std::string::npos);
  EXPECT_NE(result.status().message().find(Sha256Hex(content_)), std::string::npos);
  EXPECT_FALSE(fs::exists(dest_));
  EXPECT_FALSE(fs::exists(part_));
}

TEST_F(DownloadTest, AResumedPartWithWrongBytesFailsVerification) {
  WriteFile(part_, std::string(1000, 'x'));
  FakeHub hub(source_, {});
  auto result = Download(Request(hub));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCorrupt);
  EXPECT_FALSE(fs::exists(part_));
  // ... and the next attempt starts clean and succeeds.
  ASSERT_TRUE(Download(Request(hub)).ok());
  EXPECT_TRUE(ReadFile(dest_) == content_);
}

TEST_F(DownloadTest, APinnedHashWinsOverTheServersAndAMismatchStopsEarly) {
  FakeHub hub(source_, {});
  DownloadRequest r = Request(hub);
  r.sha256 = Sha256Hex("another file");
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(result.status().message().find("pinned"), std::string::npos);
  EXPECT_FALSE(fs::exists(part_));

  r.sha256 = Sha256Hex(content_);
  auto ok = Download(r);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->verified_against, Verification::kPinned);
}

TEST_F(DownloadTest, APinnedHashIsCheckedWhenTheServerReportsNone) {
  FakeHub hub(source_, {"--hash-header", "none"});
  DownloadRequest r = Request(hub);
  r.sha256 = Sha256Hex("another file");
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(result.status().message().find("(pinned)"), std::string::npos);
}

// whisper.cpp's models are pinned by SHA-1: checked besides the hub's SHA-256, before the
// rename, and a mismatch deletes the .part like a SHA-256 mismatch.
TEST_F(DownloadTest, APinnedSha1IsCheckedBesidesTheSha256) {
  FakeHub hub(source_, {});
  DownloadRequest r = Request(hub);
  r.sha1 = Sha1Hex("another file");
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(result.status().message().find("checksum mismatch"), std::string::npos);
  EXPECT_NE(result.status().message().find("SHA-1 is " + Sha1Hex(content_)), std::string::npos);
  EXPECT_NE(result.status().message().find("expected " + r.sha1 + " (pinned)"), std::string::npos);
  EXPECT_NE(result.status().hint().find("deleted"), std::string::npos);
  EXPECT_FALSE(fs::exists(dest_));
  EXPECT_FALSE(fs::exists(part_));

  r.sha1 = Sha1Hex(content_);
  auto ok = Download(r);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->sha1, Sha1Hex(content_));
  EXPECT_EQ(ok->verified_against, Verification::kServer);  // the SHA-256 as ever
  EXPECT_TRUE(ReadFile(dest_) == content_);
}

TEST_F(DownloadTest, ASha1PinIsCheckedOverTheWholeResumedFile) {
  FakeHub hub(source_, {"--drop-after", "100000", "--hash-header", "none"});
  DownloadRequest r = Request(hub);
  r.sha1 = Sha1Hex(content_);
  ASSERT_FALSE(Download(r).ok());
  EXPECT_EQ(SizeOr(part_), 100000);
  auto resumed = Download(r);
  ASSERT_TRUE(resumed.ok()) << resumed.status().ToString();
  EXPECT_EQ(resumed->resumed_from, 100000);
  EXPECT_EQ(resumed->sha1, Sha1Hex(content_));
  EXPECT_EQ(resumed->verified_against, Verification::kNone);

  // Wrong bytes already in the .part fail the SHA-1 although no SHA-256 is known.
  fs::remove(dest_);
  WriteFile(part_, std::string(1000, 'x'));
  auto bad = Download(r);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(bad.status().message().find("SHA-1"), std::string::npos);
  EXPECT_FALSE(fs::exists(part_));
  EXPECT_FALSE(fs::exists(dest_));
}

TEST_F(DownloadTest, AnEtagHashIsUsedWithoutARedirectAndNoHashMeansUnverified) {
  {
    FakeHub hub(source_, {"--hash-header", "etag"});
    auto result = Download(Request(hub));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->verified_against, Verification::kServer);
  }
  fs::remove(dest_);
  FakeHub hub(source_, {"--hash-header", "none"});
  auto result = Download(Request(hub));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->verified_against, Verification::kNone);
  EXPECT_EQ(result->sha256, Sha256Hex(content_));
  EXPECT_EQ(result->sha1, "");  // not computed without a pin
}

TEST_F(DownloadTest, NotFoundIsInvalidInputAndLeavesNoPart) {
  FakeHub hub(source_, {});
  DownloadRequest r = Request(hub);
  r.url = hub.Url("test/repo/resolve/main/missing.gguf");
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(result.status().message().find("HTTP 404"), std::string::npos);
  EXPECT_NE(result.status().message().find("Entry not found"), std::string::npos);
  EXPECT_FALSE(fs::exists(part_));
}

TEST_F(DownloadTest, NoServerIsModelUnreachableAtOnce) {
  DownloadRequest r;
  r.url = "http://127.0.0.1:" + std::to_string(FreePort()) + "/x/y/resolve/main/z.gguf";
  r.dest = dest_;
  const auto start = std::chrono::steady_clock::now();
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kModelUnreachable);
  EXPECT_NE(result.status().hint().find("HF_ENDPOINT"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(fs::exists(part_));
}

TEST_F(DownloadTest, AStalledTransferTimesOutAndKeepsThePart) {
  FakeHub hub(source_, {"--bytes-per-sec", "200"});
  DownloadRequest r = Request(hub);
  r.low_speed_secs = 2;  // under 1 KB/s for 2 s
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kTimeout) << result.status().ToString();
  EXPECT_GT(SizeOr(part_, 0), 0);
}

TEST_F(DownloadTest, CancellingKeepsTheBytesSoFar) {
  FakeHub hub(source_, {"--bytes-per-sec", "100000"});
  std::atomic<bool> cancel{false};
  DownloadRequest r = Request(hub);
  r.cancel = &cancel;
  r.on_progress = [&](const DownloadProgress& p) {
    if (p.bytes_done >= 20000) cancel = true;
  };
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kCancelled);
  EXPECT_GE(SizeOr(part_, 0), 20000);
  EXPECT_FALSE(fs::exists(dest_));
}

TEST_F(DownloadTest, BadUrlsAreInvalidInput) {
  DownloadRequest r;
  r.dest = dest_;
  r.url = "ftp://example.com/model.gguf";
  auto result = Download(r);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput) << result.status().ToString();
}

TEST(HumanBytesTest, UsesTheHubsDecimalUnits) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(999), "999 B");
  EXPECT_EQ(HumanBytes(36'700'000), "36.7 MB");
  EXPECT_EQ(HumanBytes(1'120'000'000), "1.12 GB");
  EXPECT_EQ(HumanBytes(603'000'000), "603 MB");
}

}  // namespace
}  // namespace kebab::models

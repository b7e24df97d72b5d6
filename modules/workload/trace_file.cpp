#include "workload/trace_file.h"

#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/report.h"

namespace gpusc {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void write_all(int fd, const uint8_t* p, size_t n, const std::string& who, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) error(who, "cannot decompress '", path, "' into $TMPDIR: ", std::strerror(errno));
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// Decompresses the xz file `src` into the (unlinked) temporary file `dst`; returns its size.
uint64_t unxz(int src, int dst, const std::string& who, const std::string& path) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    error(who, "cannot start the xz decoder for '", path, "'");
  std::vector<uint8_t> in(1 << 16), out(1 << 16);
  uint64_t total = 0;
  lzma_action action = LZMA_RUN;
  s.next_out = out.data();
  s.avail_out = out.size();
  for (;;) {
    if (s.avail_in == 0 && action == LZMA_RUN) {
      const ssize_t r = ::read(src, in.data(), in.size());
      if (r < 0) {
        lzma_end(&s);
        error(who, "cannot read '", path, "': ", std::strerror(errno));
      }
      s.next_in = in.data();
      s.avail_in = static_cast<size_t>(r);
      if (r == 0) action = LZMA_FINISH;
    }
    const lzma_ret ret = lzma_code(&s, action);
    if (s.avail_out == 0 || ret == LZMA_STREAM_END) {
      const size_t n = out.size() - s.avail_out;
      write_all(dst, out.data(), n, who, path);
      total += n;
      s.next_out = out.data();
      s.avail_out = out.size();
    }
    if (ret == LZMA_STREAM_END) break;
    if (ret != LZMA_OK) {
      lzma_end(&s);
      const char* why = ret == LZMA_FORMAT_ERROR ? "not in the xz format"
                        : ret == LZMA_DATA_ERROR ? "corrupt data"
                        : ret == LZMA_BUF_ERROR  ? "truncated (the compressed stream ends early)"
                        : ret == LZMA_MEM_ERROR  ? "out of memory"
                                                 : "decoder error";
      error(who, "cannot decompress '", path, "': ", why);
    }
  }
  lzma_end(&s);
  return total;
}

}  // namespace

TraceFile::TraceFile(const std::string& path, const std::string& who) : path_(path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) error(who, "cannot open trace file '", path, "': ", std::strerror(errno));
  if (S_ISDIR(st.st_mode)) error(who, "cannot read trace file '", path, "': it is a directory");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) error(who, "cannot open trace file '", path, "': ", std::strerror(errno));
  if (st.st_size == 0) {
    ::close(fd);
    error(who, "trace file '", path, "' is empty");
  }
  if (!ends_with(path, ".xz")) {
    fd_ = fd;
    size_ = static_cast<uint64_t>(st.st_size);
    return;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpusc-trace-XXXXXX";
  const int out = ::mkstemp(templ.data());
  if (out < 0) {
    ::close(fd);
    error(who, "cannot create a temporary file for '", path, "' in ", templ, ": ", std::strerror(errno));
  }
  ::unlink(templ.c_str());  // gone from the directory; the space is freed when the descriptor closes
  try {
    size_ = unxz(fd, out, who, path);
  } catch (...) {
    ::close(fd);
    ::close(out);
    throw;
  }
  ::close(fd);
  fd_ = out;
  if (size_ == 0) error(who, "trace file '", path, "' decompresses to nothing");
}

TraceFile::~TraceFile() {
  if (fd_ >= 0) ::close(fd_);
}

size_t TraceFile::read(uint64_t offset, char* dst, size_t n) const {
  size_t got = 0;
  while (got < n && offset + got < size_) {
    const ssize_t r = ::pread(fd_, dst + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) error("gpusc.trace", "cannot read trace file '", path_, "': ", std::strerror(errno));
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

TraceFile::LineReader::LineReader(const TraceFile& f, uint64_t offset, uint64_t first_line)
    : f_(f), buf_(4096), pos_(offset), line_(first_line - 1) {}

bool TraceFile::LineReader::next(std::string& line) {
  for (;;) {
    const char* b = buf_.data() + head_;
    const void* nl = std::memchr(b, '\n', end_ - head_);
    if (nl != nullptr || (pos_ >= f_.size() && end_ > head_)) {
      const size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - b) : end_ - head_;
      start_ = offset();
      line.assign(b, len);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      head_ += nl ? len + 1 : len;
      ++line_;
      return true;
    }
    if (pos_ >= f_.size()) return false;
    // Keep the partial line, make room (grow for a line longer than the buffer), read more.
    std::memmove(buf_.data(), buf_.data() + head_, end_ - head_);
    end_ -= head_;
    head_ = 0;
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
    const size_t got = f_.read(pos_, buf_.data() + end_, buf_.size() - end_);
    pos_ += got;
    end_ += got;
  }
}

}  // namespace gpusc

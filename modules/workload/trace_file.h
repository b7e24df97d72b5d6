// TraceFile: random access to the text of one trace file, plain or xz-compressed (issue 22), for
// readers that index a large file once and then read many small pieces of it in any order (one
// warp's instructions at a time), so memory stays flat whatever the file's size.
// Choices: a plain file is read in place with pread (one descriptor however many readers); an
// .xz file is decompressed once, streaming through liblzma, into an unlinked temporary file in
// $TMPDIR (default /tmp), since xz streams cannot be seeked: the disk holds the decompressed
// size for the file's lifetime, memory holds one buffer. A missing, unreadable, empty or
// corrupt/truncated .xz file is an error naming the path.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpusc {

class TraceFile {
 public:
  // Opens `path` (decompressing it when the name ends in ".xz"); errors come from `who`.
  TraceFile(const std::string& path, const std::string& who);
  ~TraceFile();
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }  // bytes of (decompressed) text
  // Copies up to n bytes from `offset` into dst; returns the count (less only at the end).
  size_t read(uint64_t offset, char* dst, size_t n) const;

  // Sequential lines from `offset` with a small buffer; line numbers count from `first_line`.
  class LineReader {
   public:
    LineReader(const TraceFile& f, uint64_t offset = 0, uint64_t first_line = 1);
    // The next line without its '\n' (and a trailing '\r'); false at the end of the file.
    bool next(std::string& line);
    uint64_t line_number() const { return line_; }      // of the line last returned
    uint64_t line_offset() const { return start_; }     // byte offset of the line last returned
    uint64_t offset() const { return pos_ - (end_ - head_); }  // of the next line

   private:
    const TraceFile& f_;
    std::vector<char> buf_;  // grows for a line longer than it
    size_t head_ = 0, end_ = 0;
    uint64_t pos_;  // file offset of buf_[end_]
    uint64_t line_, start_ = 0;
  };

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace gpusc

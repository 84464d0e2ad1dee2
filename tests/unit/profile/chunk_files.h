// Helpers of the profile chunk tests: a temporary directory per test, a profile file's
// bytes, its chunks, and chunks written by hand (a payload with its header and CRC).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "profile/codec.h"
#include "profile/reader.h"

namespace dragnet::profile::testing {

namespace fs = std::filesystem;

using Bytes = std::string;

// A fresh directory per test, removed after it.
class ChunkFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("dragnet-" + std::string(info->test_suite_name()) + "-" +
                                        std::to_string(::getpid()) + "-" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

inline Bytes slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline void spit(const fs::path& p, const Bytes& b) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << b;
}

inline Profile read(const fs::path& p) {
  Profile out;
  std::string error;
  if (!readProfile(p.string(), out, error)) throw std::runtime_error(error);
  return out;
}

struct Chunk {
  size_t offset = 0, size = 0;
  uint8_t type = 0;
};

inline std::vector<Chunk> chunksOf(const Bytes& b) {
  std::vector<Chunk> out;
  for (size_t pos = kHeaderSize; pos < b.size();) {
    size_t size = kChunkHeaderSize + loadU32(reinterpret_cast<const uint8_t*>(&b[pos + 1]));
    out.push_back({pos, size, static_cast<uint8_t>(b[pos])});
    pos += size;
  }
  return out;
}

// A whole chunk of type `type` (any byte) with `payload` and a CRC that holds.
inline Bytes chunkBytes(uint8_t type, const std::vector<uint8_t>& payload) {
  uint8_t head[kChunkHeaderSize] = {type};
  for (int i = 0; i < 4; ++i) head[1 + i] = static_cast<uint8_t>(payload.size() >> (8 * i));
  uint32_t crc = chunkCrc(kVersion, head, payload.data(), payload.size());
  for (int i = 0; i < 4; ++i) head[5 + i] = static_cast<uint8_t>(crc >> (8 * i));
  Bytes out(reinterpret_cast<const char*>(head), sizeof head);
  out.append(payload.begin(), payload.end());
  return out;
}

}  // namespace dragnet::profile::testing

// Corrupt profiles: one flipped bit in a chunk costs that chunk only.
// The reader skips it, resynchronises on the next chunk, reads every other chunk exactly
// as it would have without the bad one, and says "corrupt" (not "killed"); `dragnet
// report`, `shell` and `export` exit with status 3 unless --lenient. The oracle for "every
// other chunk exactly" is the same file with the bad chunk cut out, read by the reader.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "profile/writer.h"

namespace fs = std::filesystem;
using namespace dragnet;

namespace {

using Bytes = std::string;

Bytes slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const Bytes& b) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << b;
}

uint32_t u32At(const Bytes& b, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(b[pos + static_cast<size_t>(i)]);
  return v;
}

struct Chunk {
  size_t offset = 0, size = 0;  // header included
  uint8_t type = 0;
};

// The chunks of a well-formed profile, by their lengths.
std::vector<Chunk> chunksOf(const Bytes& b) {
  std::vector<Chunk> out;
  for (size_t pos = profile::kHeaderSize; pos < b.size();) {
    size_t size = profile::kChunkHeaderSize + u32At(b, pos + 1);
    out.push_back({pos, size, static_cast<uint8_t>(b[pos])});
    pos += size;
  }
  return out;
}

profile::Profile read(const fs::path& p) {
  profile::Profile out;
  std::string error;
  if (!profile::readProfile(p.string(), out, error)) throw std::runtime_error(error);
  return out;
}

Bytes flipped(Bytes b, size_t byte, int bit) {
  b[byte] = static_cast<char>(b[byte] ^ (1 << bit));
  return b;
}

// Everything a report reads, the same in both profiles.
void expectSameData(const profile::Profile& got, const profile::Profile& want) {
  EXPECT_EQ(got.methods.size(), want.methods.size());
  for (const auto& [id, m] : want.methods) {
    ASSERT_TRUE(got.methods.count(id)) << id;
    EXPECT_EQ(got.methods.at(id).name, m.name);
  }
  EXPECT_EQ(got.sites.size(), want.sites.size());
  for (const auto& [key, s] : want.sites) {
    ASSERT_TRUE(got.sites.count(key)) << key;
    EXPECT_EQ(got.sites.at(key).type, s.type);
  }
  ASSERT_EQ(got.threads.size(), want.threads.size());
  for (const auto& [id, t] : want.threads) {
    const profile::ThreadTree& g = got.threads.at(id);
    EXPECT_EQ(g.name, t.name);
    ASSERT_EQ(g.nodes.size(), t.nodes.size());
    for (size_t i = 0; i < t.nodes.size(); ++i) {
      EXPECT_EQ(g.nodes[i].parent, t.nodes[i].parent);
      EXPECT_EQ(g.nodes[i].key, t.nodes[i].key);
    }
    EXPECT_EQ(g.counters, t.counters);
    EXPECT_EQ(g.ended, t.ended);
  }
  EXPECT_EQ(got.classSizes, want.classSizes);
  ASSERT_EQ(got.failures.size(), want.failures.size());
  EXPECT_EQ(got.totals, want.totals);
  EXPECT_EQ(got.complete, want.complete);
  EXPECT_EQ(got.objects, want.objects);
  EXPECT_EQ(got.gcs, want.gcs);
}

// One bit flipped in each chunk in turn, at several places (type, length, CRC, payload):
// exactly that chunk is skipped, and everything else reads as if it had never been there.
TEST(CorruptProfile, OneFlippedBitCostsOneChunk) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  // Meta, Methods, Sites, Thread x 2, ClassSizes, Failures x 2 (one of hidden classes), End
  ASSERT_EQ(chunks.size(), 9u);
  const profile::Profile whole = read(path);
  ASSERT_TRUE(whole.complete);
  ASSERT_FALSE(whole.corrupt());
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    Bytes without = good;
    without.erase(c.offset, c.size);
    spit(dir / "without.dragnet", without);
    const profile::Profile want = read(dir / "without.dragnet");
    // place in the chunk -> bit: the type, the length's low and high byte, the CRC, the
    // payload's first, middle and last byte
    const std::pair<size_t, int> places[] = {
        {0, 0}, {1, 3}, {4, 7}, {6, 2}, {9, 0}, {9 + (c.size - 9) / 2, 5}, {c.size - 1, 1}};
    for (auto [at, bit] : places) {
      SCOPED_TRACE("chunk " + std::to_string(i) + " (type " + std::to_string(c.type) + "), byte " +
                   std::to_string(at) + " bit " + std::to_string(bit));
      spit(dir / "bad.dragnet", flipped(good, c.offset + at, bit));
      const profile::Profile got = read(dir / "bad.dragnet");
      ASSERT_EQ(got.skipped.size(), 1u);
      EXPECT_EQ(got.skipped[0].offset, c.offset);
      EXPECT_EQ(got.skipped[0].bytes, c.size);
      EXPECT_EQ(got.skippedBytes, c.size);
      EXPECT_TRUE(got.truncation.empty()) << got.truncation;  // corrupt, not killed
      EXPECT_EQ(got.chunks, chunks.size() - 1);
      expectSameData(got, want);
      if (c.type == static_cast<uint8_t>(profile::ChunkType::Meta)) {
        EXPECT_TRUE(got.metaLost);
        EXPECT_EQ(got.meta, (std::map<std::string, std::string>{{"mode", "alloc"}}));
      } else {
        EXPECT_FALSE(got.metaLost);
        EXPECT_EQ(got.meta, whole.meta);
      }
    }
  }
}

// The first chunk (Meta) flipped: the known profile's numbers are all still there.
TEST(CorruptProfile, BadFirstChunkKeepsTheNumbers) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  spit(path, flipped(good, profile::kHeaderSize + profile::kChunkHeaderSize + 2, 4));
  const profile::Profile p = read(path);
  contexts::AllocModel m = contexts::buildModel(p);
  EXPECT_EQ(m.bytes, 557616u);
  EXPECT_EQ(m.objects, 21051u);
  EXPECT_EQ(m.arrays, 150u);
  EXPECT_EQ(m.calls, 19u);
  EXPECT_TRUE(p.complete);
  EXPECT_TRUE(p.corrupt());
}

// A length whose flipped high bit points past the end of the file: the scan finds the
// next chunk; cut at the end of the file instead, the same chunk is a truncation (a JVM
// killed mid-write), not corruption.
TEST(CorruptProfile, TruncationAtTheEndIsNotCorruption) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  const Chunk& last = chunks.back();
  spit(dir / "cut.dragnet", good.substr(0, last.offset + last.size - 1));
  profile::Profile cut = read(dir / "cut.dragnet");
  EXPECT_FALSE(cut.corrupt());
  EXPECT_FALSE(cut.complete);
  EXPECT_EQ(cut.truncation, "chunk at offset " + std::to_string(last.offset) + " is cut short");
  // Both: a bad chunk in the middle and a cut end.
  Bytes both = flipped(good, chunks[3].offset + 12, 0).substr(0, last.offset + 4);
  spit(dir / "both.dragnet", both);
  profile::Profile p = read(dir / "both.dragnet");
  ASSERT_EQ(p.skipped.size(), 1u);
  EXPECT_EQ(p.skipped[0].offset, chunks[3].offset);
  EXPECT_EQ(p.truncation, "incomplete chunk header at offset " + std::to_string(last.offset));
  EXPECT_EQ(p.chunks, chunks.size() - 2);
}

// Garbage between two chunks (not a chunk at all) is one skipped stretch of its length.
TEST(CorruptProfile, GarbageBetweenChunksIsSkipped) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  std::mt19937 rng(35);
  Bytes junk(300, '\0');
  for (char& ch : junk) ch = static_cast<char>(rng());
  Bytes bad = good;
  bad.insert(chunks[4].offset, junk);
  spit(path, bad);
  profile::Profile p = read(path);
  ASSERT_EQ(p.skipped.size(), 1u);
  EXPECT_EQ(p.skipped[0].offset, chunks[4].offset);
  EXPECT_EQ(p.skipped[0].bytes, junk.size());
  spit(dir / "good.dragnet", good);
  expectSameData(p, read(dir / "good.dragnet"));
}

// A thread whose first chunk is lost: its later chunk keeps its node numbers (the lost
// nodes are stood in for) and its counters.
TEST(CorruptProfile, LaterChunksOfAThreadSurviveALostOne) {
  fs::path dir = test::testDir();
  fs::path path = dir / "two.dragnet";
  {
    profile::Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "alloc"}});
    profile::ThreadChunk t;
    t.thread = 1;
    t.name = "main";
    t.firstNode = 1;
    t.nodes = {{0, 7}, {1, 8}, {2, 9}};
    t.counters = {{1, {1, 0, 0, 0}}, {2, {2, 0, 0, 0}}, {3, {3, 0, 0, 0}}};
    w.thread(t);
    t.firstNode = 4;
    t.nodes = {{3, 10}, {4, profile::kAllocBit | 16}};
    t.counters = {{3, {30, 0, 0, 0}}, {5, {500, 0, 0, 0}}};
    t.ended = true;
    w.thread(t);
  }
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  ASSERT_EQ(chunks.size(), 3u);
  spit(path, flipped(good, chunks[1].offset + 20, 6));
  profile::Profile p = read(path);
  ASSERT_EQ(p.skipped.size(), 1u);
  EXPECT_EQ(p.lostNodes, 3u);
  const profile::ThreadTree& t = p.threads.at(1);
  ASSERT_EQ(t.nodes.size(), 6u);
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(t.nodes[static_cast<size_t>(i)].key, profile::kLostKey);
  EXPECT_EQ(t.nodes[4].parent, 3u);
  EXPECT_EQ(t.nodes[4].key, 10u);
  EXPECT_EQ(t.counters[3].count, 30u);
  EXPECT_EQ(t.counters[5].count, 500u);
  EXPECT_TRUE(t.ended);
}

// Malformed input never crashes: every single bit of the known profile flipped, and the
// file cut at every length.
TEST(CorruptProfile, EveryBitFlippedAndEveryCutReads) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  // Thousands of files: in memory where there is a tmpfs.
  fs::path bad = (fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : dir) /
                 ("dragnet-bits-" + std::to_string(::getpid()) + ".dragnet");
  for (size_t byte = 0; byte < good.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      spit(bad, flipped(good, byte, bit));
      profile::Profile p;
      std::string error;
      bool ok = profile::readProfile(bad.string(), p, error);
      if (byte < profile::kHeaderSize) continue;  // the header: refused or read, never a crash
      ASSERT_TRUE(ok) << byte << ":" << bit << " " << error;
      ASSERT_EQ(p.skipped.size(), 1u) << byte << ":" << bit;
      (void)contexts::buildModel(p);
    }
  }
  std::set<size_t> boundaries{profile::kHeaderSize};
  for (const Chunk& c : chunksOf(good)) boundaries.insert(c.offset + c.size);
  for (size_t n = profile::kHeaderSize; n < good.size(); ++n) {
    spit(bad, good.substr(0, n));
    profile::Profile p = read(bad);
    EXPECT_FALSE(p.corrupt()) << n;
    EXPECT_EQ(p.truncation.empty(), boundaries.count(n) == 1) << n;
  }
  fs::remove(bad);
}

// Malformed input never crashes, with many bytes wrong at once: random stretches of the
// known profile overwritten, duplicated or cut out (seeded, so a failure repeats).
TEST(CorruptProfile, RandomDamageReads) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  fs::path bad = (fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : dir) /
                 ("dragnet-random-" + std::to_string(::getpid()) + ".dragnet");
  std::mt19937 rng(3508);
  for (int round = 0; round < 2000; ++round) {
    Bytes b = good;
    for (int edits = 1 + static_cast<int>(rng() % 4); edits > 0; --edits) {
      size_t at = profile::kHeaderSize + rng() % (b.size() - profile::kHeaderSize);
      size_t n = std::min<size_t>(1 + rng() % 64, b.size() - at);
      switch (rng() % 3) {
        case 0:
          for (size_t i = 0; i < n; ++i) b[at + i] = static_cast<char>(rng());
          break;
        case 1:
          b.insert(at, b.substr(rng() % (b.size() - n), n));
          break;
        default:
          b.erase(at, n);
      }
    }
    spit(bad, b);
    profile::Profile p;
    std::string error;
    ASSERT_TRUE(profile::readProfile(bad.string(), p, error)) << round << ": " << error;
    (void)contexts::buildModel(p);
  }
  fs::remove(bad);
}

// --- the CLI --------------------------------------------------------------------------

int run(const std::string& args, const fs::path& log) {
  std::string cmd = "'" + std::string(DRAGNET_CLI) + "' " + args + " 2> '" + log.string() + "'";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CorruptProfile, ReportExitsThreeUnlessLenient) {
  fs::path dir = test::testDir();
  fs::path path = test::writeKnownProfile(dir, test::Variant::Exact);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  spit(path, flipped(good, chunks[0].offset + 10, 3));
  fs::path log = dir / "stderr.txt", out = dir / "report.txt";
  const std::string offset = std::to_string(chunks[0].offset);
  const std::string warning = "profile corrupt: 1 chunk (" + std::to_string(chunks[0].size) +
                              " bytes) skipped at offset " + offset;
  EXPECT_EQ(run("report '" + path.string() + "' > '" + out.string() + "'", log), 3);
  EXPECT_NE(slurp(log).find(warning), std::string::npos) << slurp(log);
  std::string text = slurp(out);
  EXPECT_NE(text.find("  CORRUPT: " + warning), std::string::npos) << text;
  EXPECT_EQ(text.find("killed"), std::string::npos) << text;  // it is complete
  EXPECT_NE(text.find("557,616"), std::string::npos) << text;

  EXPECT_EQ(run("report --lenient '" + path.string() + "' -f json -o '" + out.string() + "'", log),
            0);
  EXPECT_NE(slurp(log).find(warning), std::string::npos) << slurp(log);
  EXPECT_NE(slurp(out).find("\"corrupt\": \"" + warning), std::string::npos) << slurp(out);
  // The HTML page's data carries it (report.js shows it as a warning).
  EXPECT_EQ(run("report '" + path.string() + "' -f html -o '" + out.string() + "'", log), 3);
  EXPECT_NE(slurp(out).find("\"corrupt\":\"" + warning), std::string::npos);

  // Killed (cut short at the end): a warning, exit 0, as before.
  spit(path, good.substr(0, good.size() - 3));
  EXPECT_EQ(run("report '" + path.string() + "' > '" + out.string() + "'", log), 0);
  EXPECT_NE(slurp(log).find("is incomplete"), std::string::npos) << slurp(log);
  EXPECT_NE(slurp(out).find("INCOMPLETE: the JVM did not finish writing it (killed?)"),
            std::string::npos);
  EXPECT_EQ(slurp(out).find("CORRUPT"), std::string::npos);
}

// A lifetime profile with its Gcs chunk corrupt: shell and export do their work and exit 3,
// or 0 with --lenient.
TEST(CorruptProfile, ShellAndExportExitThreeUnlessLenient) {
  fs::path dir = test::testDir();
  fs::path path = dir / "life.dragnet";
  {
    using namespace profile;
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "lifetime"}});
    w.gcs(1, {{1000, true}});
    ObjectRecord r;
    r.id = 1;
    r.size = 16;
    r.death = 1000;
    r.deathGc = 1;
    w.objects({r});
    w.end({});
  }
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  ASSERT_EQ(chunks[1].type, static_cast<uint8_t>(profile::ChunkType::Gcs));
  spit(path, flipped(good, chunks[1].offset + 10, 0));
  fs::path log = dir / "stderr.txt";
  const std::string p = "'" + path.string() + "'";
  EXPECT_EQ(run("shell " + p + " < /dev/null > /dev/null", log), 3);
  EXPECT_NE(slurp(log).find("profile corrupt: 1 chunk"), std::string::npos) << slurp(log);
  EXPECT_EQ(run("shell --lenient " + p + " < /dev/null > /dev/null", log), 0);
  EXPECT_NE(slurp(log).find("profile corrupt: 1 chunk"), std::string::npos) << slurp(log);
  const std::string db = "'" + (dir / "life.db").string() + "'";
  EXPECT_EQ(run("export --sqlite " + db + " " + p, log), 3);
  EXPECT_TRUE(fs::exists(dir / "life.db"));
  EXPECT_EQ(run("export --lenient --sqlite " + db + " " + p, log), 0);
}

}  // namespace

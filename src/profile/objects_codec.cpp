#include "profile/objects_codec.h"

#include <zstd.h>

#include <array>
#include <memory>

namespace dragnet::profile {

namespace {

// zstd's default level: a few hundred MB/s on the agent's flushing thread.
constexpr int kZstdLevel = 3;

// Later times are offsets from the allocation, 0 meaning none.
uint64_t timeOffset(uint64_t alloc, uint64_t t) { return t == kNoTime ? 0 : t - alloc + 1; }
uint64_t timeAfter(uint64_t alloc, uint64_t v) { return v == 0 ? kNoTime : alloc + v - 1; }

// A value as a difference from the previous record's (wrapping, zigzag-encoded): ids and
// times of neighbouring records are close, deathGc and death mostly equal.
int64_t delta(uint64_t v, uint64_t& prev) {
  auto d = static_cast<int64_t>(v - prev);
  prev = v;
  return d;
}
uint64_t undelta(int64_t d, uint64_t& prev) { return prev += static_cast<uint64_t>(d); }

// The four uses' times and places, in the order written.
constexpr std::array<uint64_t ObjectRecord::*, 4> kUses = {
    &ObjectRecord::firstGet, &ObjectRecord::lastGet, &ObjectRecord::firstPut,
    &ObjectRecord::lastPut};
constexpr std::array<EventAt ObjectRecord::*, 4> kPlaces = {
    &ObjectRecord::firstGetAt, &ObjectRecord::lastGetAt, &ObjectRecord::firstPutAt,
    &ObjectRecord::lastPutAt};
// Each record takes at least a byte in each of these columns: id, thread, node, key, size,
// alloc, death, deathGc, the four uses' times and their places' threads.
constexpr size_t kMinColumnBytes = 16;

// Formats 2-3: record after record.
void decodeRecords(Decoder& d, std::vector<ObjectRecord>& out) {
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    ObjectRecord r;
    r.id = d.u();
    r.thread = d.u32();
    r.node = d.u32();
    r.key = d.u32();
    r.size = d.u();
    r.alloc = d.u();
    r.death = r.alloc + d.u();
    r.deathGc = d.u32();
    for (auto use : kUses) r.*use = timeAfter(r.alloc, d.u());
    for (auto place : kPlaces) {
      EventAt& at = r.*place;
      at.thread = d.u32();
      if (at.thread != 0) at.node = d.u32();
    }
    out.push_back(r);
  }
}

// Format 4, uncompressed: the count, then one column per field.
void encodeColumns(Encoder& e, std::span<const ObjectRecord> records) {
  e.u(records.size());
  uint64_t prev = 0;
  for (const ObjectRecord& r : records) e.s(delta(r.id, prev));
  for (const ObjectRecord& r : records) e.u(r.thread);
  for (const ObjectRecord& r : records) e.u(r.node);
  for (const ObjectRecord& r : records) e.u(r.key);
  for (const ObjectRecord& r : records) e.u(r.size);
  prev = 0;
  for (const ObjectRecord& r : records) e.s(delta(r.alloc, prev));
  prev = 0;
  for (const ObjectRecord& r : records) e.s(delta(r.death, prev));
  prev = 0;
  for (const ObjectRecord& r : records) e.s(delta(r.deathGc, prev));
  for (auto use : kUses) {
    for (const ObjectRecord& r : records) e.u(timeOffset(r.alloc, r.*use));
  }
  for (auto place : kPlaces) {
    for (const ObjectRecord& r : records) e.u((r.*place).thread);
    for (const ObjectRecord& r : records) {
      if ((r.*place).thread != 0) e.u((r.*place).node);
    }
  }
}

uint32_t u32Delta(Decoder& d, uint64_t& prev) {
  uint64_t v = undelta(d.s(), prev);
  if (v > UINT32_MAX) return static_cast<uint32_t>(d.fail("value over 32 bits"));
  return static_cast<uint32_t>(v);
}

void decodeColumns(Decoder& d, std::vector<ObjectRecord>& out) {
  uint64_t count = d.u();
  if (count > d.left() / kMinColumnBytes) {
    d.fail("object count exceeds the columns");
    return;
  }
  size_t before = out.size();
  out.resize(before + count);  // decoded in place; the caller cuts it back on failure
  std::span<ObjectRecord> rs(out.data() + before, count);
  uint64_t prev = 0;
  for (ObjectRecord& r : rs) r.id = undelta(d.s(), prev);
  for (ObjectRecord& r : rs) r.thread = d.u32();
  for (ObjectRecord& r : rs) r.node = d.u32();
  for (ObjectRecord& r : rs) r.key = d.u32();
  for (ObjectRecord& r : rs) r.size = d.u();
  prev = 0;
  for (ObjectRecord& r : rs) r.alloc = undelta(d.s(), prev);
  prev = 0;
  for (ObjectRecord& r : rs) r.death = undelta(d.s(), prev);
  prev = 0;
  for (ObjectRecord& r : rs) r.deathGc = u32Delta(d, prev);
  for (auto use : kUses) {
    for (ObjectRecord& r : rs) r.*use = timeAfter(r.alloc, d.u());
  }
  for (auto place : kPlaces) {
    for (ObjectRecord& r : rs) (r.*place).thread = d.u32();
    for (ObjectRecord& r : rs) {
      if ((r.*place).thread != 0) (r.*place).node = d.u32();
    }
  }
  if (d.ok() && !d.atEnd()) d.fail("bytes after the object columns");
}

}  // namespace

void encodeObjects(Encoder& e, std::span<const ObjectRecord> records) {
  Encoder columns;
  encodeColumns(columns, records);
  const std::vector<uint8_t>& raw = columns.bytes();
  std::vector<uint8_t> packed(ZSTD_compressBound(raw.size()));
  // The frame's own checksum: a reader finds columns that decompress to other values.
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  size_t n = ZSTD_compress2(cctx.get(), packed.data(), packed.size(), raw.data(), raw.size());
  if (ZSTD_isError(n)) n = 0;  // cannot happen with a bound-sized buffer; reads as malformed
  e.u(raw.size());
  e.raw(std::span<const uint8_t>(packed.data(), n));
}

std::string decodeObjects(Decoder& d, uint32_t version, std::vector<ObjectRecord>& out) {
  size_t before = out.size();
  if (version < 4) {
    decodeRecords(d, out);
    if (d.ok()) return {};
    out.resize(before);
    return d.error();
  }
  uint64_t size = d.u();
  std::span<const uint8_t> packed = d.rest();
  if (!d.ok()) return d.error();
  if (size > kMaxObjectColumns) return "object columns of " + std::to_string(size) + " bytes";
  std::vector<uint8_t> raw(size);
  size_t n = ZSTD_decompress(raw.data(), raw.size(), packed.data(), packed.size());
  if (ZSTD_isError(n)) return std::string("object columns: zstd: ") + ZSTD_getErrorName(n);
  if (n != size) return "object columns shorter than their size";
  Decoder columns(raw.data(), raw.size());
  decodeColumns(columns, out);
  if (columns.ok()) return {};
  out.resize(before);
  return "object columns: " + columns.error();
}

}  // namespace dragnet::profile

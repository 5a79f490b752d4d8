// The row padding of the coupled-910 cube kernels (sw/kernels/cube_910.h), byte for byte: the
// padded rows hold the data and zeros, although each row's last 32 B block came in with the
// next row's bytes (and the destination held garbage).
#include <gtest/gtest.h>
#include <cstring>
#include "sw/kernels/cube_910.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"

namespace cube_910_steps_test {
using npuvp::kernels::cube_910::padded_len;
using npuvp::kernels::cube_910::RowCopier;

// Pads `rows` consecutive rows of `len` elements of T, and checks every byte of the result.
template <class T>
void check_pad(uint32_t rows, uint32_t len) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const uint32_t plen = padded_len<T>(len);
  std::vector<uint8_t> src(size_t(rows) * len * sizeof(T) + 32);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i % 251 + 1);  // never zero
  std::vector<uint8_t> garbage(size_t(rows) * plen * sizeof(T), 0xab);
  uint8_t *gsrc = npuvp::testing::to_gm(src), *gdst = npuvp::testing::to_gm(garbage);
  dev.launch("pad_rows", 1, [&] {
    AscendC::GlobalTensor<T> in, out;
    in.SetGlobalBuffer(reinterpret_cast<T*>(gsrc));
    out.SetGlobalBuffer(reinterpret_cast<T*>(gdst));
    AscendC::TPipe pipe;
    RowCopier<T> copier(pipe, plen);
    for (uint32_t r = 0; r < rows; ++r) copier.Pad(out[uint64_t(r) * plen], in[uint64_t(r) * len], len, plen);
  });
  const size_t row_bytes = size_t(len) * sizeof(T), padded_bytes = size_t(plen) * sizeof(T);
  for (uint32_t r = 0; r < rows; ++r) {
    for (size_t b = 0; b < padded_bytes; ++b) {
      const uint8_t want = b < row_bytes ? src[r * row_bytes + b] : 0;
      ASSERT_EQ(gdst[r * padded_bytes + b], want) << "row " << r << " byte " << b;
    }
  }
}

TEST(Cube910Steps, PadInt8RowsOfOneByte) { check_pad<int8_t>(3, 1); }
TEST(Cube910Steps, PadInt8RowsWithAnOddTail) { check_pad<int8_t>(4, 31); }
TEST(Cube910Steps, PadInt8RowsWithAnEvenTail) { check_pad<int8_t>(3, 70); }
TEST(Cube910Steps, PadInt8RowsOfWholeBlocks) { check_pad<int8_t>(3, 64); }
TEST(Cube910Steps, PadHalfRows) { check_pad<_Float16>(5, 17); }
TEST(Cube910Steps, PadFloatRows) { check_pad<float>(5, 5); }
}  // namespace cube_910_steps_test

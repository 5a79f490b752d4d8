// numpy's .npy files (format versions 1.0-3.0, little-endian, C order): what `npuvp run`
// reads a TIK operator's inputs from and writes its outputs to.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace npuvp::tik {

struct NpyArray {
  std::string descr;             // "<f2", "<i4", "|u1", ...
  std::vector<uint64_t> shape;
  std::vector<uint8_t> bytes;
};

NpyArray read_npy(const std::string& path);
void write_npy(const std::string& path, const NpyArray& array);
// The .npy descr of a TIK dtype ("float16" -> "<f2"); bfloat16 is stored as "<u2".
std::string npy_descr(const std::string& dtype);

}  // namespace npuvp::tik

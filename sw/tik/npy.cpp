#include "sw/tik/npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include "tlm/log.h"

namespace npuvp::tik {

namespace {
constexpr char kMagic[] = "\x93NUMPY";
}

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) raise("npy", "cannot open '{}'", path);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 10 || std::memcmp(data.data(), kMagic, 6) != 0) raise("npy", "'{}' is not a .npy file", path);
  const unsigned major = data[6];
  size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = data[8] | (data[9] << 8);
    start = 10;
  } else if ((major == 2 || major == 3) && data.size() >= 12) {
    header_len = data[8] | (data[9] << 8) | (size_t(data[10]) << 16) | (size_t(data[11]) << 24);
    start = 12;
  } else {
    raise("npy", "'{}': .npy format version {} is not supported", path, major);
  }
  if (start + header_len > data.size()) raise("npy", "'{}' is truncated", path);
  const std::string header(data.begin() + start, data.begin() + start + header_len);
  std::smatch m;
  NpyArray a;
  if (!std::regex_search(header, m, std::regex("'descr'\\s*:\\s*'([^']+)'"))) raise("npy", "'{}': no descr", path);
  a.descr = m[1];
  if (std::regex_search(header, m, std::regex("'fortran_order'\\s*:\\s*True"))) {
    raise("npy", "'{}' is in Fortran order; save a C-ordered array", path);
  }
  if (!std::regex_search(header, m, std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)"))) raise("npy", "'{}': no shape", path);
  const std::string dims = m[1];
  const std::regex number("[0-9]+");
  for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it) {
    a.shape.push_back(std::stoull(it->str()));
  }
  a.bytes.assign(data.begin() + start + header_len, data.end());
  return a;
}

void write_npy(const std::string& path, const NpyArray& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + (a.shape.size() == 1 ? "," : i + 1 < a.shape.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded with spaces to 64 bytes.
  const size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) raise("npy", "cannot write '{}'", path);
  out.write(kMagic, 6);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const uint16_t len = static_cast<uint16_t>(header.size());
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(len_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(a.bytes.data()), static_cast<std::streamsize>(a.bytes.size()));
}

std::string npy_descr(const std::string& dtype) {
  if (dtype == "float16") return "<f2";
  if (dtype == "float32") return "<f4";
  if (dtype == "bfloat16" || dtype == "uint16") return "<u2";
  if (dtype == "int8") return "|i1";
  if (dtype == "uint8" || dtype == "bool") return "|u1";
  if (dtype == "int16") return "<i2";
  if (dtype == "int32") return "<i4";
  if (dtype == "uint32") return "<u4";
  if (dtype == "int64") return "<i8";
  if (dtype == "uint64") return "<u8";
  raise("npy", "no .npy type for dtype '{}'", dtype);
}

}  // namespace npuvp::tik

#include "sw/tik/tik_cli.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "platforms/ascend_soc.h"
#include "platforms/run_summary.h"
#include "sw/runtime/device.h"
#include "sw/tik/npy.h"
#include "sw/tik/tik_run.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::tik {

namespace {
std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) raise("tik", "cannot open '{}'", path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The descr numpy writes for a type may say '=' or '<' for little-endian.
bool same_descr(std::string a, std::string b) {
  for (auto* s : {&a, &b}) {
    if (!s->empty() && ((*s)[0] == '=' || (*s)[0] == '|')) (*s)[0] = '<';
  }
  return a == b;
}

Value scalar_from(const NpyArray& a, const std::string& name) {
  Value v;
  const std::string& d = a.descr;
  const size_t size = d.size() >= 3 ? static_cast<size_t>(d[2] - '0') : 0;
  if (a.bytes.size() < size || size == 0) raise("tik", "{}.npy holds no scalar", name);
  const char kind = d[1];
  if (kind == 'f') {
    v.is_float = true;
    if (size == 2) { _Float16 h; std::memcpy(&h, a.bytes.data(), 2); v.f = static_cast<double>(h); }
    else if (size == 4) { float f; std::memcpy(&f, a.bytes.data(), 4); v.f = f; }
    else { std::memcpy(&v.f, a.bytes.data(), 8); }
  } else if (kind == 'i') {
    int64_t x = 0;
    std::memcpy(&x, a.bytes.data(), size);
    const int shift = static_cast<int>(64 - 8 * size);
    v.i = shift ? (x << shift) >> shift : x;  // sign-extend
  } else if (kind == 'u' || kind == 'b') {
    uint64_t x = 0;
    std::memcpy(&x, a.bytes.data(), size);
    v.i = static_cast<int64_t>(x);
  } else {
    raise("tik", "{}.npy: type {} is not a number", name, d);
  }
  return v;
}
}  // namespace

bool cli_handles(const std::string& kernel) {
  return kernel.size() > 5 && kernel.compare(kernel.size() - 5, 5, ".json") == 0;
}

int cli_run(const std::string& meta_path, const std::string& data_dir, const std::string& out_dir,
            const std::string& platform, std::vector<std::string> sets, const std::string& mode,
            const std::string& trace, const std::string& stats) try {
  const nlohmann::json meta = nlohmann::json::parse(read_text(meta_path), nullptr, false);
  if (meta.is_discarded() || !meta.contains("npuvp")) {
    raise("tik", "'{}' is not a kernel description BuildCCE of npuvp's TIK wrote", meta_path);
  }
  const auto& info = meta["npuvp"];
  const Program program = parse_text(read_text(dir_of(meta_path) + "/" + info.at("program").get<std::string>()));
  if (data_dir.empty()) raise("tik", "running a TIK kernel needs --data DIR with its inputs as <name>.npy");
  std::vector<Feed> feeds;
  for (const auto& in : info.at("inputs")) {
    const std::string name = in.at("name").get<std::string>();
    const std::string path = data_dir + "/" + name + ".npy";
    NpyArray a = read_npy(path);
    Feed f;
    if (in.at("kind") == "scalar") {
      f.is_scalar = true;
      f.scalar = scalar_from(a, name);
    } else {
      const std::string dtype = in.at("dtype").get<std::string>();
      if (!same_descr(a.descr, npy_descr(dtype))) {
        raise("tik", "{}: the array is {}, input {} is {} ({})", path, a.descr, name, dtype, npy_descr(dtype));
      }
      f.bytes = std::move(a.bytes);
    }
    feeds.push_back(std::move(f));
  }
  if (!mode.empty()) sets.push_back("sim.mode=" + mode);
  std::string plat = platform;
  if (plat.empty()) plat = info.value("platform", std::string());
  if (const char* env = std::getenv("NPUVP_PLATFORM"); env && platform.empty()) plat = env;
  Device::configure(plat.empty() ? "ascend910" : plat, sets);
  if (!trace.empty()) Tracer::global().open(trace);
  auto& dev = Device::instance();
  auto& soc = dev.soc();
  fmt::print("npuvp: platform {} ({} at {} MHz), TIK kernel {}: {} blocks, {} instructions recorded\n",
             soc.params().name, soc.describe_cores(), soc.core(0).params().clock_mhz, program.kernel_name,
             program.block_num, program.instructions);
  const RunResult r = run(program, feeds);
  const std::string out = out_dir.empty() ? data_dir : out_dir;
  std::error_code made;
  std::filesystem::create_directories(out, made);  // --out may name a new folder; a failure shows at the write
  size_t i = 0;
  for (const auto& o : info.at("outputs")) {
    NpyArray a;
    a.descr = npy_descr(o.at("dtype").get<std::string>());
    for (const auto& d : o.at("shape")) a.shape.push_back(d.get<uint64_t>());
    a.bytes = r.outputs.at(i++);
    const std::string path = out + "/" + o.at("name").get<std::string>() + ".npy";
    write_npy(path, a);
    fmt::print("output: {}\n", path);
  }
  platform::finish_run(soc, dev.total_wall_seconds(), trace, stats);
  return 0;
} catch (const nlohmann::json::exception& e) {
  // A kernel description that is JSON but not BuildCCE's shape (the program's own errors are raised above).
  raise("tik", "'{}' is not a kernel description BuildCCE of npuvp's TIK wrote: {}", meta_path, e.what());
}

}  // namespace npuvp::tik

// The non-template half of the kernel API: every call lands on the current core.
#include <cmath>
#include <cstring>
#include <optional>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/data_mover.h"
#include "models/aicore/product.h"
#include "models/aicore/vector_unit.h"
#include "models/check/sanitizer.h"
#include "sw/ascendc/sync_mutation.h"
#include "sw/ascendc/kernel_operator.h"
#include "sw/ascendc/declared_kernel_type.h"
#include "tlm/log.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::DType;
using aicore::MemSpace;
using aicore::Pipe;
using AscendC::HardEvent;
using AscendC::TPosition;

namespace {
// While the host looks for a kernel's KERNEL_TASK_TYPE_DEFAULT (declared_kernel_type), the
// body runs outside the simulation; its first API call or declaration ends the look.
bool g_probing = false;
struct ProbeStop {};
struct ProbeDeclared {
  aicore::KernelType type;
};

// Nothing for a type npuvp does not model.
std::optional<aicore::KernelType> dispatch_type(KernelMetaType type) {
  switch (type) {
    case KERNEL_TYPE_AIV_ONLY: case KERNEL_TYPE_MIX_AIV_1_0: return aicore::KernelType::AivOnly;
    case KERNEL_TYPE_AIC_ONLY: case KERNEL_TYPE_MIX_AIC_1_0: return aicore::KernelType::AicOnly;
    case KERNEL_TYPE_MIX_AIC_1_2: return aicore::KernelType::Mix1To2;
    // 310P: AICORE runs on the AI Cores only (the default there), MIX_VECTOR_CORE on the AI
    // Cores and the Vector Cores (AIV-only on a coupled platform).
    case KERNEL_TYPE_AICORE: return aicore::KernelType::Default;
    case KERNEL_TYPE_MIX_VECTOR_CORE: return aicore::KernelType::AivOnly;
    case KERNEL_TYPE_MIX_AIC_1_1:
    case KERNEL_TYPE_VECTORCORE:
    case KERNEL_TYPE_MIX_AICORE:
    case KERNEL_TYPE_MAX: break;
  }
  return std::nullopt;
}
}  // namespace

AiCore& core() {
  AiCore* c = AiCore::current();
  if (!c) {
    if (g_probing) throw ProbeStop{};
    raise("ascendc", "a kernel API function was called outside a running kernel");
  }
  return *c;
}

aicore::KernelType declared_kernel_type(const std::function<void()>& body) {
  g_probing = true;
  aicore::KernelType type = aicore::KernelType::Default;
  try {
    body();
  } catch (const ProbeDeclared& declared) {
    type = declared.type;
  } catch (...) {  // ProbeStop, or anything else the body does outside a core: no declaration
  }
  g_probing = false;
  return type;
}

void declare_kernel_type(KernelMetaType type) {
  const auto wanted = dispatch_type(type);
  if (g_probing) throw ProbeDeclared{wanted.value_or(aicore::KernelType::Default)};
  AiCore& c = core();
  if ((type == KERNEL_TYPE_AICORE || type == KERNEL_TYPE_MIX_VECTOR_CORE) && aicore::is_a2(c.product())) {
    c.fail("KERNEL_TASK_TYPE_DEFAULT", fmt::format("{} is a type of the coupled products (Atlas inference "
                                                   "series); this is a {}",
                                                   type == KERNEL_TYPE_AICORE ? "KERNEL_TYPE_AICORE"
                                                                              : "KERNEL_TYPE_MIX_VECTOR_CORE",
                                                   c.kind_text()));
  }
  if (!wanted) {
    c.fail("KERNEL_TASK_TYPE_DEFAULT", fmt::format("kernel type {} is not modelled (AIV_ONLY, AIC_ONLY, MIX_AIV_1_0, "
                                                   "MIX_AIC_1_0, MIX_AIC_1_2, AICORE and MIX_VECTOR_CORE are)",
                                                   static_cast<int>(type)));
  }
  if (c.kernel_type() != *wanted && c.kernel_type() != aicore::KernelType::Default) {
    c.fail("KERNEL_TASK_TYPE_DEFAULT", fmt::format("the kernel declares {} but was launched as {}",
                                                   aicore::kernel_type_name(*wanted),
                                                   aicore::kernel_type_name(c.kernel_type())));
  }
}

bool core_is_aic() { return core().core_kind() != aicore::CoreKind::Aiv; }
bool core_is_aiv() { return core().core_kind() != aicore::CoreKind::Aic; }

void cross_core_set_flag(uint32_t mode, Pipe pipe, uint16_t id) {
  core().issue(aicore::CrossCoreSetFlag{pipe, mode, id});
}

void cross_core_wait_flag(uint32_t mode, Pipe pipe, uint16_t id) {
  AiCore& c = core();
  if (pipe == Pipe::S) {
    c.scalar_cross_core_wait(mode, id);
  } else {
    c.issue(aicore::CrossCoreWaitFlag{pipe, mode, id});
  }
}

MemSpace position_space(TPosition pos) {
  switch (pos) {
    case TPosition::GM: return MemSpace::GM;
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return MemSpace::L1;
    case TPosition::A2: return MemSpace::L0A;
    case TPosition::B2: return MemSpace::L0B;
    case TPosition::CO1: return MemSpace::L0C;
    case TPosition::C2: return MemSpace::BT;
    case TPosition::C2PIPE2GM: return MemSpace::FB;
    default: return MemSpace::UB;  // VECIN, VECOUT, VECCALC, CO2 (coupled), SPM
  }
}

const char* position_name(TPosition pos) {
  static const char* names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN",
                                "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
  auto i = static_cast<unsigned>(pos);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}

namespace {
struct EventPipes {
  Pipe src, dst;
};
// In HardEvent order.
constexpr EventPipes kEvents[] = {
    {Pipe::MTE2, Pipe::MTE1}, {Pipe::MTE1, Pipe::MTE2}, {Pipe::MTE1, Pipe::M}, {Pipe::M, Pipe::MTE1},
    {Pipe::MTE2, Pipe::V},    {Pipe::V, Pipe::MTE2},    {Pipe::MTE3, Pipe::V}, {Pipe::V, Pipe::MTE3},
    {Pipe::M, Pipe::V},       {Pipe::V, Pipe::M},       {Pipe::V, Pipe::V},    {Pipe::MTE3, Pipe::MTE1},
    {Pipe::MTE1, Pipe::MTE3}, {Pipe::MTE1, Pipe::V},    {Pipe::MTE2, Pipe::M}, {Pipe::M, Pipe::MTE2},
    {Pipe::V, Pipe::MTE1},    {Pipe::M, Pipe::FIX},     {Pipe::FIX, Pipe::M},  {Pipe::MTE3, Pipe::MTE2},
    {Pipe::MTE2, Pipe::MTE3}, {Pipe::S, Pipe::V},       {Pipe::V, Pipe::S},    {Pipe::S, Pipe::MTE2},
    {Pipe::MTE2, Pipe::S},    {Pipe::S, Pipe::MTE3},    {Pipe::MTE3, Pipe::S}, {Pipe::MTE2, Pipe::FIX},
    {Pipe::FIX, Pipe::MTE2},  {Pipe::FIX, Pipe::S},     {Pipe::M, Pipe::S},    {Pipe::FIX, Pipe::MTE3},
    {Pipe::MTE1, Pipe::FIX},  {Pipe::FIX, Pipe::MTE1},  {Pipe::FIX, Pipe::FIX},
};
static_assert(sizeof(kEvents) / sizeof(kEvents[0]) == static_cast<size_t>(HardEvent::MAX));
}  // namespace

Pipe event_src(HardEvent e) { return kEvents[static_cast<unsigned>(e)].src; }
Pipe event_dst(HardEvent e) { return kEvents[static_cast<unsigned>(e)].dst; }
HardEvent event_of(Pipe src, Pipe dst) {
  for (unsigned i = 0; i < static_cast<unsigned>(HardEvent::MAX); ++i) {
    if (kEvents[i].src == src && kEvents[i].dst == dst) return static_cast<HardEvent>(i);
  }
  raise("ascendc", "no HardEvent orders pipe {} before pipe {}", aicore::pipe_name(src),
        aicore::pipe_name(dst));
}

Pipe pipe_of(pipe_t p) {
  switch (p) {
    case PIPE_S: return Pipe::S;
    case PIPE_V: return Pipe::V;
    case PIPE_M: return Pipe::M;
    case PIPE_MTE1: return Pipe::MTE1;
    case PIPE_MTE2: return Pipe::MTE2;
    case PIPE_MTE3: return Pipe::MTE3;
    case PIPE_ALL: return Pipe::ALL;
    case PIPE_FIX: return Pipe::FIX;
  }
  raise("ascendc", "unknown pipe_t value {}", static_cast<int>(p));
}

// ---- scalar access ----

namespace {
aicore::LocalBuffer& local_buffer(AiCore& c, MemSpace space, const char* api) {
  aicore::LocalBuffer* b = c.buffer(space);
  if (!b) c.fail(api, fmt::format("this {} has no {}", c.kind_text(), aicore::mem_space_name(space)));
  return *b;
}
void check_scalar(AiCore& c, aicore::LocalBuffer& b, uint64_t addr, unsigned size, const char* api) {
  if (addr % size != 0) {
    c.fail(api, fmt::format("{} address 0x{:x} is not aligned to the {}-byte element", b.name(), addr, size));
  }
  std::string why = b.check_range(addr, size, "element");
  if (!why.empty()) c.fail(api, why);
}
}  // namespace

void scalar_read_local(MemSpace space, uint64_t addr, void* out, unsigned size) {
  AiCore& c = core();
  auto& b = local_buffer(c, space, "LocalTensor::GetValue");
  check_scalar(c, b, addr, size, "LocalTensor::GetValue");
  c.scalar_access(space, addr, size, /*write=*/false);  // the buffer as it is now (after auto sync)
  std::memcpy(out, b.data() + addr, size);
}

void scalar_write_local(MemSpace space, uint64_t addr, const void* in, unsigned size) {
  AiCore& c = core();
  auto& b = local_buffer(c, space, "LocalTensor::SetValue");
  check_scalar(c, b, addr, size, "LocalTensor::SetValue");
  c.scalar_access(space, addr, size, /*write=*/true);
  std::memcpy(b.data() + addr, in, size);
}

namespace {
uint8_t* gm_scalar_pointer(AiCore& c, const void* host_pointer, unsigned size, const char* api) {
  uint64_t dev = c.gm_address(host_pointer);
  uint8_t* p = c.gm_host_pointer(dev, size);
  if (!p) c.fail(api, fmt::format("GM address 0x{:x} is outside GM", dev));
  if (dev % size != 0) c.fail(api, fmt::format("GM address 0x{:x} is not aligned to the {}-byte element", dev, size));
  return p;
}
}  // namespace

void scalar_read_gm(const void* host_pointer, void* out, unsigned size) {
  AiCore& c = core();
  uint8_t* p = gm_scalar_pointer(c, host_pointer, size, "GlobalTensor::GetValue");
  c.scalar_access(MemSpace::GM, c.gm_address(host_pointer), size, /*write=*/false);
  std::memcpy(out, p, size);
}

void scalar_write_gm(void* host_pointer, const void* in, unsigned size) {
  AiCore& c = core();
  uint8_t* p = gm_scalar_pointer(c, host_pointer, size, "GlobalTensor::SetValue");
  c.scalar_access(MemSpace::GM, c.gm_address(host_pointer), size, /*write=*/true);
  std::memcpy(p, in, size);
}

// ---- DataCopy ----

uint64_t gm_device_address(const void* host_pointer) { return core().gm_address(host_pointer); }

namespace {
aicore::DataMove make_move(AiCore& c, CopyEnd dst, CopyEnd src, unsigned elem_size) {
  auto pipe = aicore::copy_pipe(c.product(), src.space, dst.space);
  if (!pipe) {
    c.fail(fmt::format("DataCopy {}->{}", aicore::mem_space_name(src.space), aicore::mem_space_name(dst.space)),
           fmt::format("not a legal data path on {}", aicore::product_name(c.product())));
  }
  aicore::DataMove m;
  m.pipe = *pipe;
  m.dst = {dst.space, dst.addr};
  m.src = {src.space, src.addr};
  m.elem_size = elem_size;
  m.unit = copy_unit(dst.space);
  return m;
}
}  // namespace

// DataCopyParams units (SPEC.md §1.5): 64 B into the BiasTable (C2), 128 B into the FixPipe
// buffer (C2PIPE2GM), else 32 B.
uint32_t copy_unit(MemSpace dst) { return dst == MemSpace::BT ? 64 : dst == MemSpace::FB ? 128 : 32; }

void data_copy_count(CopyEnd dst, CopyEnd src, uint64_t count, unsigned elem_size) {
  AiCore& c = core();
  aicore::DataMove m = make_move(c, dst, src, elem_size);
  uint64_t units = count * elem_size / m.unit;  // rounded down to whole units
  if (units == 0) {
    c.fail(aicore::describe(m), fmt::format("count {} x {} B is less than one {} B block; "
                                            "DataCopy moves whole blocks only", count, elem_size, m.unit));
  }
  while (units > 0) {
    const uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(units, 65535));
    m.block_count = 1;
    m.block_len = chunk;
    c.issue(m);
    m.src.addr += uint64_t(chunk) * m.unit;
    m.dst.addr += uint64_t(chunk) * m.unit;
    units -= chunk;
  }
}

void data_copy_params(CopyEnd dst, CopyEnd src, const AscendC::DataCopyParams& p, unsigned elem_size) {
  AiCore& c = core();
  aicore::DataMove m = make_move(c, dst, src, elem_size);
  m.block_count = p.blockCount;
  m.block_len = p.blockLen;
  m.src_gap = p.srcStride;
  m.dst_gap = p.dstStride;
  c.issue(m);
}

// ---- sync ----

void set_flag(Pipe src, Pipe dst, int32_t id) {
  AiCore& c = core();
  if (id < 0) c.fail(aicore::describe(aicore::SetFlag{src, dst, 0}), fmt::format("event id {} is negative", id));
  if (mutation::skip_set(src, dst, static_cast<uint32_t>(id))) return;  // the mutation test's knob
  if (src == Pipe::S) {
    c.scalar_set_flag(dst, static_cast<uint32_t>(id));
  } else {
    c.issue(aicore::SetFlag{src, dst, static_cast<uint32_t>(id)});
  }
}

void wait_flag(Pipe src, Pipe dst, int32_t id) {
  AiCore& c = core();
  if (id < 0) c.fail(aicore::describe(aicore::WaitFlag{src, dst, 0}), fmt::format("event id {} is negative", id));
  if (mutation::skip_wait(src, dst, static_cast<uint32_t>(id))) return;
  if (dst == Pipe::S) {
    c.scalar_wait_flag(src, static_cast<uint32_t>(id));
  } else {
    c.issue(aicore::WaitFlag{src, dst, static_cast<uint32_t>(id)});
  }
}

void pipe_barrier(Pipe pipe) {
  AiCore& c = core();
  if (pipe == Pipe::ALL) {
    c.barrier_all();
  } else if (pipe == Pipe::S) {
    c.charge_scalar(c.params().sync_cycles);
  } else {
    c.issue(aicore::Barrier{pipe});
  }
}

// ---- queues ----

void QueueState::init(TPosition pos, unsigned depth, uint8_t num, uint32_t len, uint64_t base) {
  pos_ = pos;
  depth_ = depth;
  base_ = base;
  len_ = len;
  buffers_.assign(num, Buffer{});
  queued_.clear();
  next_ = 0;
  auto pipes = queue_pipes(pos, core().product());
  synchronised_ = pipes.has_value();
  if (pipes) {
    producer_ = pipes->first;
    consumer_ = pipes->second;
  }
}

// Who writes and who reads the buffers of a queue at each position (SPEC.md §1.5).
std::optional<std::pair<Pipe, Pipe>> queue_pipes(TPosition pos, aicore::Product product) {
  const bool a2 = aicore::is_a2(product);
  switch (pos) {
    case TPosition::VECIN: return std::pair{Pipe::MTE2, Pipe::V};
    case TPosition::VECOUT: return std::pair{Pipe::V, Pipe::MTE3};
    case TPosition::A1: case TPosition::B1: case TPosition::C1: return std::pair{Pipe::MTE2, Pipe::MTE1};
    case TPosition::A2: case TPosition::B2: case TPosition::C2: return std::pair{Pipe::MTE1, Pipe::M};
    case TPosition::CO1: return std::pair{Pipe::M, a2 ? Pipe::FIX : Pipe::V};
    case TPosition::CO2: return std::pair{Pipe::V, Pipe::MTE3};
    case TPosition::C2PIPE2GM: return std::pair{Pipe::MTE1, Pipe::FIX};
    case TPosition::TSCM: return std::pair{Pipe::MTE3, Pipe::MTE1};
    default: return std::nullopt;  // VECCALC and the rest: no implicit flags
  }
}

void QueueState::set_pipes(std::optional<std::pair<Pipe, Pipe>> pipes) {
  synchronised_ = pipes.has_value();
  if (pipes) {
    producer_ = pipes->first;
    consumer_ = pipes->second;
  }
}

void QueueState::drain() {
  for (Buffer& buf : buffers_) {
    if (synchronised_ && buf.freed_by_consumer && !buf.in_use) wait_flag(consumer_, producer_, static_cast<int32_t>(buf.cp_id));
    buf.freed_by_consumer = false;
  }
}

namespace {
// A flag TQue issues for itself: the sanitizer's sync findings leave these out (the last
// FreeTensor's flag is the queue's, consumed when the pipe is torn down).
template <class Issue>
void queue_flag(Issue&& issue) {
  auto* san = check::Sanitizer::active();
  if (san) san->queue_flags(core().id(), true);
  mutation::queue_scope(true);
  issue();
  mutation::queue_scope(false);
  if (san) san->queue_flags(core().id(), false);
}
}  // namespace

int QueueState::alloc(const char* api) {
  const unsigned n = static_cast<unsigned>(buffers_.size());
  if (n == 0) core().fail(api, "the queue has no buffers; call TPipe::InitBuffer first");
  for (unsigned k = 0; k < n; ++k) {
    const unsigned b = (next_ + k) % n;
    Buffer& buf = buffers_[b];
    if (buf.in_use) continue;
    if (synchronised_ && buf.freed_by_consumer) {
      queue_flag([&] { wait_flag(consumer_, producer_, static_cast<int32_t>(buf.cp_id)); });
    }
    buf.freed_by_consumer = false;
    buf.in_use = true;
    next_ = (b + 1) % n;
    return static_cast<int>(b);
  }
  core().fail(api, fmt::format("all {} buffers of the {} queue are in use (FreeTensor missing?)", n,
                               position_name(pos_)));
}

void QueueState::enque(int b, const char* api) {
  if (b < 0 || b >= static_cast<int>(buffers_.size()) || !buffers_[b].in_use) {
    core().fail(api, "the tensor was not allocated from this queue");
  }
  if (queued_.size() >= depth_) {
    core().fail(api, fmt::format("queue depth {} exceeded: DeQue before EnQueing more", depth_));
  }
  if (synchronised_) queue_flag([&] { set_flag(producer_, consumer_, static_cast<int32_t>(buffers_[b].pc_id)); });
  queued_.push_back(b);
}

int QueueState::deque(const char* api) {
  if (queued_.empty()) core().fail(api, fmt::format("the {} queue is empty (EnQue missing?)", position_name(pos_)));
  int b = queued_.front();
  queued_.pop_front();
  if (synchronised_) queue_flag([&] { wait_flag(producer_, consumer_, static_cast<int32_t>(buffers_[b].pc_id)); });
  return b;
}

void QueueState::free(int b, const char* api) {
  if (b < 0 || b >= static_cast<int>(buffers_.size()) || !buffers_[b].in_use) {
    core().fail(api, "the tensor was not allocated from this queue, or was freed already");
  }
  if (synchronised_) {
    queue_flag([&] { set_flag(consumer_, producer_, static_cast<int32_t>(buffers_[b].cp_id)); });
    buffers_[b].freed_by_consumer = true;
  }
  buffers_[b].in_use = false;
}

}  // namespace npuvp::ascendc

namespace AscendC {

using npuvp::ascendc::core;

TPipe::TPipe() { npuvp::ascendc::register_pipe(this); }  // GetTPipePtr (tpipe_api.cpp)
TPipe::~TPipe() { npuvp::ascendc::unregister_pipe(this); }

void TPipe::Reset() {
  for (auto& u : used_) u = 0;
  for (auto& e : event_ids_used_) e = 0;
  for (auto& e : event_ids_allocated_) e = 0;
}

uint64_t TPipe::allocate(TPosition pos, uint64_t len, const char* api) {
  auto& c = core();
  const auto space = npuvp::ascendc::position_space(pos);
  npuvp::aicore::LocalBuffer* buf = c.buffer(space);
  // A mixed kernel's body runs on the AIC and its AIVs alike, and CANN's samples set up the
  // vector queues before REGIST_MATMUL_OBJ sends the AIC off (issue 23): there a buffer the
  // core lacks is given no memory, and the first instruction using it on this core fails.
  if (!buf && c.kernel_type() == npuvp::aicore::KernelType::Mix1To2) return 0;
  if (!buf) c.fail(api, fmt::format("this {} has no {} for position {}", c.kind_text(), npuvp::aicore::mem_space_name(space),
                                    npuvp::ascendc::position_name(pos)));
  const uint64_t align = buf->alignment();
  uint64_t& used = used_[static_cast<unsigned>(space)];
  const uint64_t addr = (used + align - 1) / align * align;
  if (len > buf->size() || addr > buf->size() - len) {
    c.fail(api, fmt::format("{} overflow: {} bytes requested at offset {}, but {} holds {} bytes",
                            buf->name(), len, addr, buf->name(), buf->size()));
  }
  used = addr + len;
  if (auto* san = npuvp::check::Sanitizer::active()) san->local_buffer(c.id(), space, addr, len, api);
  return addr;
}

uint64_t TPipe::FreeBytes(TPosition pos) const {
  const auto space = npuvp::ascendc::position_space(pos);
  const npuvp::aicore::LocalBuffer* buf = core().buffer(space);
  const uint64_t used = used_[static_cast<unsigned>(space)];
  return buf && buf->size() > used ? buf->size() - used : 0;
}

uint32_t TPipe::next_event_id(HardEvent e) {
  auto& c = core();
  const unsigned i = static_cast<unsigned>(e);
  const uint64_t taken = event_ids_used_[i] | event_ids_allocated_[i];
  const unsigned ids = std::min(c.params().event_ids, 64u);
  for (unsigned id = 0; id < ids; ++id) {
    if (!(taken >> id & 1)) {
      event_ids_used_[i] |= uint64_t(1) << id;
      return id;
    }
  }
  c.fail("TPipe::InitBuffer",
         fmt::format("out of event ids for HardEvent {}_{}: the core has {} per HardEvent",
                     npuvp::aicore::pipe_name(npuvp::ascendc::event_src(e)),
                     npuvp::aicore::pipe_name(npuvp::ascendc::event_dst(e)), c.params().event_ids));
}

void TPipe::init_queue(npuvp::ascendc::QueueState& q, TPosition pos, int32_t depth, uint8_t num,
                       uint32_t len) {
  auto& c = core();
  const uint64_t slot = (uint64_t(len) + 31) / 32 * 32;
  const uint64_t base = num >= 1 && len > 0 ? allocate(pos, slot * num, "TPipe::InitBuffer") : 0;
  if (auto* san = npuvp::check::Sanitizer::active(); san && num > 1 && len > 0) {
    san->local_buffer_slots(c.id(), npuvp::ascendc::position_space(pos), base, slot, num);  // each buffer its own
  }
  init_queue_in(q, pos, depth, num, len, base, npuvp::ascendc::queue_pipes(pos, c.product()), "TPipe::InitBuffer");
}

void TPipe::init_queue_in(npuvp::ascendc::QueueState& q, TPosition pos, int32_t depth, uint8_t num, uint32_t len,
                          uint64_t base, std::optional<std::pair<npuvp::aicore::Pipe, npuvp::aicore::Pipe>> pipes,
                          const char* api) {
  auto& c = core();
  if (num < 1) c.fail(api, "a queue needs at least one buffer");
  if (len == 0) c.fail(api, "buffer length 0");
  if (depth < 1) c.fail(api, fmt::format("queue depth {} must be at least 1", depth));
  const uint64_t slot = (uint64_t(len) + 31) / 32 * 32;
  q.init(pos, static_cast<unsigned>(depth), num, static_cast<uint32_t>(slot), base);
  q.set_pipes(pipes);
  if (pipes) {
    for (uint8_t b = 0; b < num; ++b) {
      // Producer -> consumer first, so a shortage names that direction whatever the compiler's
      // argument order.
      const uint32_t pc = next_event_id(npuvp::ascendc::event_of(pipes->first, pipes->second));
      const uint32_t cp = next_event_id(npuvp::ascendc::event_of(pipes->second, pipes->first));
      q.set_ids(b, pc, cp);
    }
  }
}

int64_t GetBlockIdx() { return core().block_idx(); }
int64_t GetBlockNum() { return core().block_num(); }
int64_t GetSystemCycle() { return core().read_system_counter(); }
int64_t GetSubBlockIdx() { return core().block().sub_block_idx; }
int64_t GetSubBlockNum() { return core().block().sub_block_num; }
int64_t GetTaskRation() { return core().block().task_ration; }

}  // namespace AscendC

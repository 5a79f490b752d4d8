#include "models/soc/task_scheduler.h"

#include <cstring>
#include <fmt/format.h>

#include "tlm/log.h"

namespace npuvp::soc {

using aicore::AiCore;
using aicore::CoreKind;
using aicore::KernelType;

TaskScheduler::TaskScheduler(sc_core::sc_module_name name, std::vector<AiCore*> cores, bool separated,
                             unsigned aiv_per_group, CrossCoreSync* cross_core)
    : sc_module(name),
      status_socket("status_socket"),
      cores_(std::move(cores)),
      separated_(separated),
      aiv_per_group_(aiv_per_group),
      cross_core_(cross_core),
      status_(cores_.size()),
      unit_of_core_(cores_.size(), -1),
      aicore_tasks_(Stats::global().counter(std::string(basename()) + ".aicore_tasks", "tasks",
                                            "AI Core kernels dispatched")),
      aicpu_tasks_(Stats::global().counter(std::string(basename()) + ".aicpu_tasks", "tasks",
                                           "AI CPU kernels dispatched (issue 28)")) {
  status_socket.register_b_transport(this, &TaskScheduler::b_transport);
  status_socket.register_transport_dbg(this, &TaskScheduler::transport_dbg);
  for (AiCore* core : cores_) core->set_listener(this);
}

void TaskScheduler::build_units(KernelType type) {
  units_.clear();
  std::vector<int> aics, aivs, coupled;
  for (size_t c = 0; c < cores_.size(); ++c) {
    switch (cores_[c]->core_kind()) {
      case CoreKind::Aic: aics.push_back(int(c)); break;
      case CoreKind::Aiv: aivs.push_back(int(c)); break;
      case CoreKind::Coupled: coupled.push_back(int(c)); break;
    }
  }
  auto singles = [this](const std::vector<int>& cores) {
    for (int c : cores) units_.push_back(Unit{{c}, 0});
  };
  if (!separated_) {
    singles(coupled);
    if (type == KernelType::AivOnly) singles(aivs);  // 310P: the Vector Cores join vector kernels
    return;
  }
  switch (type) {
    case KernelType::AicOnly: singles(aics); break;
    case KernelType::Mix1To2:
      for (size_t g = 0; g < aics.size(); ++g) {
        Unit u{{aics[g]}, 0};
        for (unsigned s = 0; s < aiv_per_group_; ++s) u.cores.push_back(aivs.at(g * aiv_per_group_ + s));
        units_.push_back(u);
      }
      break;
    default: singles(aivs); break;  // AIV-only, and the default on a separated chip
  }
}

void TaskScheduler::launch(aicore::Task& task) {
  if (task.block_num < 1 || task.block_num > 65535) {
    raise(name(), "kernel '{}': blockDim {} out of range [1, 65535]", task.name, task.block_num);
  }
  if (separated_ && task.type == KernelType::Default) task.type = KernelType::AivOnly;
  build_units(task.type);
  if (units_.empty()) {
    raise(name(), "kernel '{}': this platform has no cores for a {} kernel", task.name, kernel_type_name(task.type));
  }
  task_ = &task;
  history_.push_back(TaskRecord{Engine::AiCore, task.name, task.block_num, sc_core::sc_time_stamp(), {}});
  ++aicore_tasks_.value;
  task.blocks_done = 0;
  task.resident_blocks = static_cast<uint32_t>(units_.size());
  next_block_ = 0;
  last_block_dim_ = task.block_num;
  last_blocks_done_ = 0;
  last_type_ = task.type;
  std::fill(unit_of_core_.begin(), unit_of_core_.end(), -1);
  std::vector<bool> taking_part(cores_.size(), false);
  for (size_t u = 0; u < units_.size(); ++u) {
    for (int c : units_[u].cores) {
      unit_of_core_[size_t(c)] = int(u);
      taking_part[size_t(c)] = u < task.block_num;
    }
  }
  for (auto& s : status_) s.error_code = 0, s.state = CoreState::Idle;
  if (cross_core_) cross_core_->begin_launch(taking_part);
  // Unit i starts on block i; later blocks go to whichever unit frees up first.
  for (unsigned u = 0; u < units_.size() && next_block_ < task.block_num; ++u) dispatch(u, next_block_++);
}

void TaskScheduler::dispatch(unsigned unit, uint32_t block) {
  Unit& u = units_[unit];
  const bool mixed = u.cores.size() > 1;
  u.running = static_cast<unsigned>(u.cores.size());
  for (size_t i = 0; i < u.cores.size(); ++i) {
    aicore::BlockAssignment a;
    if (mixed) {
      const uint32_t sub = i == 0 ? 0 : uint32_t(i - 1);
      const uint32_t ration = i == 0 ? 1 : aiv_per_group_;
      a.block_idx = block * ration + sub;
      a.sub_block_idx = sub;
      a.sub_block_num = aiv_per_group_;
      a.task_ration = ration;
    } else {
      a.block_idx = block;
    }
    const int c = u.cores[i];
    CoreStatus& s = status_[size_t(c)];
    s.state = CoreState::Running;
    s.block = a.block_idx;
    ++s.blocks_run;
    cores_[size_t(c)]->run_block(*task_, a);
  }
}

void TaskScheduler::block_finished(AiCore& core) {
  const int c = core.id();
  status_.at(size_t(c)).state = CoreState::Idle;
  const int unit = unit_of_core_.at(size_t(c));
  if (!task_ || unit < 0) return;
  Unit& u = units_[size_t(unit)];
  if (u.running == 0 || --u.running > 0) return;  // the group's other cores are still at it
  last_blocks_done_ = ++task_->blocks_done;
  if (next_block_ < task_->block_num) {
    dispatch(unsigned(unit), next_block_++);
  } else if (task_->blocks_done == task_->block_num) {
    task_ = nullptr;  // the host's Task ends with the launch
    history_.back().end = sc_core::sc_time_stamp();
  }
}

void TaskScheduler::core_failed(AiCore& core, uint32_t error_code) {
  CoreStatus& s = status_.at(size_t(core.id()));
  s.state = CoreState::Error;
  s.error_code = error_code;
}

void TaskScheduler::mark_deadlock() {
  for (size_t c = 0; c < cores_.size(); ++c) {
    if (cores_[c]->busy()) core_failed(*cores_[c], AiCore::kErrorDeadlock);
  }
}

AiCpu::Report TaskScheduler::run_aicpu(const std::string& name, const AicpuArgs& args, uint32_t blocks) {
  if (!aicpu_) raise(this->name(), "AI CPU kernel '{}': this SoC has no AI CPU attached to its task scheduler", name);
  // One stream: the AI Core kernel before it has finished (the host's run() returned), so the
  // AI CPU task starts now, and the next task cannot start before run() below returns.
  if (task_) raise(this->name(), "AI CPU kernel '{}' dispatched while kernel '{}' still runs", name, task_->name);
  history_.push_back(TaskRecord{Engine::AiCpu, name, blocks, sc_core::sc_time_stamp(), {}});
  ++aicpu_tasks_.value;
  aicpu_running_ = true;
  AiCpu::Report r;
  try {
    r = aicpu_->run(name, args, blocks);
  } catch (...) {
    aicpu_running_ = false;
    throw;
  }
  aicpu_running_ = false;
  last_aicpu_blocks_ = r.blocks;
  history_.back().blocks = r.blocks;
  history_.back().start = r.start;
  history_.back().end = r.start + r.took;
  return r;
}

uint32_t TaskScheduler::register_value(uint64_t offset, bool* mapped) const {
  if (mapped) *mapped = true;
  switch (offset) {
    case 0x0: return uint32_t(cores_.size());
    case 0x4: return last_block_dim_;
    case 0x8: return last_blocks_done_;
    case 0xC: return uint32_t(last_type_);
    case 0x10: return uint32_t(history_.size());
    case 0x14: return history_.empty() ? 0 : uint32_t(history_.back().engine);
    case 0x18: return uint32_t(aicpu_tasks_.value);
    case 0x1C: return last_aicpu_blocks_;
    case 0x20: return aicpu_running_ ? 1 : 0;
    default: break;
  }
  if (offset >= kCoreRegistersBase) {
    const uint64_t core = (offset - kCoreRegistersBase) / kCoreRegistersStride;
    const uint64_t field = (offset - kCoreRegistersBase) % kCoreRegistersStride;
    if (core < cores_.size()) {
      const CoreStatus& s = status_[core];
      switch (field) {
        case 0x00: return uint32_t(cores_[core]->id());
        case 0x04: return uint32_t(cores_[core]->core_kind());
        case 0x08: return uint32_t(s.state);
        case 0x0C: return s.error_code;
        case 0x10: return s.block;
        case 0x14: return s.blocks_run;
        default: break;
      }
    }
  }
  if (mapped) *mapped = false;
  return 0;
}

unsigned TaskScheduler::transport_dbg(tlm::tlm_generic_payload& tx) {
  if (tx.get_command() != tlm::TLM_READ_COMMAND) return 0;  // the registers are read-only
  const uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  if (address % 4 != 0 || length % 4 != 0) return 0;
  for (unsigned i = 0; i < length; i += 4) {
    bool mapped = false;
    const uint32_t v = register_value(address + i, &mapped);
    if (!mapped) return i;
    std::memcpy(tx.get_data_ptr() + i, &v, 4);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

void TaskScheduler::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time&) {
  if (tx.get_command() != tlm::TLM_READ_COMMAND) {
    tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const unsigned done = transport_dbg(tx);
  tx.set_response_status(done == tx.get_data_length() ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace npuvp::soc

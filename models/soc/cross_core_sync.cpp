#include "models/soc/cross_core_sync.h"

#include "models/check/sanitizer.h"

#include <fmt/format.h>

#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::soc {

using aicore::CoreKind;

CrossCoreSync::Params CrossCoreSync::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.flag_ids = c.get<unsigned>("cross_core.flag_ids", p.flag_ids,
                               "cross-core flag ids per core (CrossCoreSetFlag/WaitFlag flagId range)");
  p.counter_limit = c.get<unsigned>("cross_core.counter_limit", p.counter_limit,
                                    "most pending sets one cross-core flag counter holds");
  if (p.flag_ids < 1 || p.flag_ids > 64) raise("config", "cross_core.flag_ids must be in [1, 64], got {}", p.flag_ids);
  if (p.counter_limit < 1) raise("config", "cross_core.counter_limit must be at least 1");
  return p;
}

CrossCoreSync::CrossCoreSync(const Params& params, std::vector<Seat> seats)
    : params_(params), seats_(std::move(seats)), taking_part_(seats_.size(), false),
      counters_(seats_.size() * params.flag_ids, 0) {
  for (size_t i = 0; i < seats_.size(); ++i) counted_up_.push_back(std::make_unique<sc_core::sc_event>());
}

void CrossCoreSync::begin_launch(const std::vector<bool>& taking_part) {
  taking_part_ = taking_part;
  taking_part_.resize(seats_.size(), false);
  counters_.assign(counters_.size(), 0);
  arrivals_.clear();
}

std::string CrossCoreSync::check_id(uint32_t id) const {
  if (id >= params_.flag_ids) return fmt::format("flag id {} out of range [0, {}]", id, params_.flag_ids - 1);
  return {};
}

std::vector<int> CrossCoreSync::members(CoreKind kind, int group) const {
  std::vector<int> out;
  for (size_t c = 0; c < seats_.size(); ++c) {
    if (taking_part_[c] && seats_[c].kind == kind && seats_[c].group == group) out.push_back(int(c));
  }
  return out;
}

std::vector<int> CrossCoreSync::all_members(CoreKind kind) const {
  std::vector<int> out;
  for (size_t c = 0; c < seats_.size(); ++c) {
    if (taking_part_[c] && seats_[c].kind == kind) out.push_back(int(c));
  }
  return out;
}

std::string CrossCoreSync::check_set(int core, uint32_t mode, uint32_t id) const {
  const Seat& seat = seats_.at(size_t(core));
  if (seat.kind == CoreKind::Coupled) return "cross-core flags exist only on separated AIC/AIV cores";
  if (mode > 2) return fmt::format("mode {} out of range [0, 2]", mode);
  std::string why = check_id(id);
  if (!why.empty()) return why;
  if (mode == 1 && seat.kind != CoreKind::Aiv) return "mode 1 synchronises the AIVs of one AI Core; an AIC takes no part";
  if (mode == 2) {
    const CoreKind partner = seat.kind == CoreKind::Aic ? CoreKind::Aiv : CoreKind::Aic;
    if (members(partner, seat.group).empty()) {
      return fmt::format("mode 2 needs the {} of AI Core {} in the launch (launch the kernel as KERNEL_TYPE_MIX_AIC_1_2)",
                         partner == CoreKind::Aic ? "AIC" : "AIVs", seat.group);
    }
  }
  return {};
}

std::string CrossCoreSync::check_wait(int core, uint32_t id) const {
  if (seats_.at(size_t(core)).kind == CoreKind::Coupled) return "cross-core flags exist only on separated AIC/AIV cores";
  return check_id(id);
}

std::string CrossCoreSync::count_up(const std::vector<int>& cores, uint32_t id) {
  for (int c : cores) {
    if (counters_[index(c, id)] >= params_.counter_limit) {
      return fmt::format("the flag {} counter of {} is already at its limit of {} pending sets "
                         "(more CrossCoreSetFlag than CrossCoreWaitFlag)", id, seats_[size_t(c)].name,
                         params_.counter_limit);
    }
  }
  auto* san = check::Sanitizer::active();
  for (int c : cores) {
    ++counters_[index(c, id)];
    counted_up_[size_t(c)]->notify(sc_core::SC_ZERO_TIME);
    if (san) san->cross_core_count_up(sanitizer_key_, c, id);
  }
  if (san) san->cross_core_released(sanitizer_key_);
  return {};
}

std::string CrossCoreSync::arrive(uint32_t mode, int group, uint32_t id, int setter, const std::vector<int>& cores,
                                  const std::vector<int>& receivers) {
  auto& arrived = arrivals_[{mode, group, id}];
  ++arrived[setter];
  for (int c : cores) {
    if (arrived[c] == 0) return {};  // a partner has not set yet
  }
  for (int c : cores) --arrived[c];
  return count_up(receivers, id);
}

std::string CrossCoreSync::set(int core, uint32_t mode, uint32_t id) {
  const Seat& seat = seats_.at(size_t(core));
  // The sanitizer's rendezvous: the setters whose clocks reach the counted-up cores' waits.
  sanitizer_key_ = (uint64_t(mode) << 48) | (uint64_t(uint32_t(seat.kind == aicore::CoreKind::Aic)) << 47) |
                   (uint64_t(uint32_t(mode == 0 ? 0 : seat.group)) << 16) | id;
  if (auto* san = check::Sanitizer::active()) san->cross_core_arrive(core, sanitizer_key_);
  switch (mode) {
    case 0: {
      const auto all = all_members(seat.kind);
      return arrive(0, int(seat.kind), id, core, all, all);
    }
    case 1: {
      const auto aivs = members(CoreKind::Aiv, seat.group);
      return arrive(1, seat.group, id, core, aivs, aivs);
    }
    default:
      if (seat.kind == CoreKind::Aic) return count_up(members(CoreKind::Aiv, seat.group), id);
      return arrive(2, seat.group, id, core, members(CoreKind::Aiv, seat.group), members(CoreKind::Aic, seat.group));
  }
}

}  // namespace npuvp::soc

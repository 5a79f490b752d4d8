// The cross-core flag counters of a separated chip (SPEC.md §1.7; Ascend C
// CrossCoreSetFlag/CrossCoreWaitFlag): each core has one counter per flag id. A set counts up
// the counters of the cores its mode names, a wait waits until its own counter is above 0
// and counts it down.
//   mode 0: every AIC (or every AIV) of the launch has set the id -> each of them counts up;
//   mode 1: both AIVs of one AI Core have set it -> both count up;
//   mode 2: the AIC sets -> its AIVs count up; both AIVs have set -> the AIC counts up.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <string>
#include <vector>
#include <systemc>
#include "models/aicore/ai_core.h"

namespace npuvp::soc {

class CrossCoreSync : public aicore::CrossCoreFlags {
 public:
  struct Params {
    unsigned flag_ids = 11;       // CANN (A2): flagId 0-10
    unsigned counter_limit = 16;  // CANN: one flag id's counter is set at most 16 times
  };
  static Params params_from_config();

  // Where a core sits: its kind, its AI Core (group) and, for an AIV, its index in the group.
  struct Seat {
    std::string name;
    aicore::CoreKind kind = aicore::CoreKind::Coupled;
    int group = 0;
    int sub = 0;
  };
  CrossCoreSync(const Params& params, std::vector<Seat> seats);

  // A new launch: every counter is 0; `taking_part[c]` says whether core c runs blocks of it.
  void begin_launch(const std::vector<bool>& taking_part);
  unsigned counter(int core, uint32_t id) const { return counters_.at(index(core, id)); }
  const Params& params() const { return params_; }

  std::string check_set(int core, uint32_t mode, uint32_t id) const override;
  std::string check_wait(int core, uint32_t id) const override;
  std::string set(int core, uint32_t mode, uint32_t id) override;
  bool is_set(int core, uint32_t id) const override { return counters_[index(core, id)] > 0; }
  void take(int core, uint32_t id) override { --counters_[index(core, id)]; }
  const sc_core::sc_event& counted_up(int core) const override { return *counted_up_[size_t(core)]; }

 private:
  size_t index(int core, uint32_t id) const { return size_t(core) * params_.flag_ids + id; }
  std::string check_id(uint32_t id) const;
  // The cores of `group` of `kind` that take part in the launch.
  std::vector<int> members(aicore::CoreKind kind, int group) const;
  std::vector<int> all_members(aicore::CoreKind kind) const;
  // `setter` arrives at a rendezvous (mode, group, id) of `cores`; once each of them has set
  // (again), the `receivers` count up.
  std::string arrive(uint32_t mode, int group, uint32_t id, int setter, const std::vector<int>& cores,
                     const std::vector<int>& receivers);
  std::string count_up(const std::vector<int>& cores, uint32_t id);

  Params params_;
  std::vector<Seat> seats_;
  std::vector<bool> taking_part_;
  std::vector<unsigned> counters_;                 // core x flag id
  // Sets not yet matched by every partner: (mode, group, id) -> core -> count.
  std::map<std::tuple<uint32_t, int, uint32_t>, std::map<int, unsigned>> arrivals_;
  std::vector<std::unique_ptr<sc_core::sc_event>> counted_up_;  // per core
  uint64_t sanitizer_key_ = 0;  // the rendezvous of the set under way (models/check/sanitizer.h)
};

}  // namespace npuvp::soc

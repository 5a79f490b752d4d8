// The MTE data movers (SPEC.md §1.5): DataCopy between GM and local buffers and between
// local buffers. A plain class the MTE pipes (and V, for UB->UB) call. Local destinations
// are written when the instruction completes; GM is reached only through the core's
// initiator socket.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include "models/aicore/isa.h"
#include "models/aicore/local_buffer.h"

namespace npuvp::aicore {

class DataMover {
 public:
  struct Params {
    double gm_bytes_per_cycle = 32;      // MTE2 GM->local and MTE3 local->GM
    double local_bytes_per_cycle = 128;  // local->local copies
    uint64_t issue_cycles = 10;          // fixed start cost of every move
  };
  // One GM access of `length` bytes; returns the memory time the access takes, measured from
  // the start of the instruction. Raises on a transport error.
  using GmAccess = std::function<sc_core::sc_time(tlm::tlm_command, uint64_t address,
                                                  uint8_t* data, uint32_t length)>;
  // A local buffer by memory space, or nullptr if the core has none.
  using BufferLookup = std::function<LocalBuffer*(MemSpace)>;

  DataMover(const Params& params, BufferLookup buffers, GmAccess gm);

  // The pipe that executes a copy from `src` to `dst`, or nothing if the path is illegal.
  static std::optional<Pipe> path_pipe(MemSpace src, MemSpace dst);

  // Empty if `move` is legal (path, pipe, ranges, alignment, block counts); else why not.
  std::string check(const DataMove& move) const;

  // Runs the move in the calling pipe thread: waits its duration, moves the bytes.
  // Returns the bytes moved.
  uint64_t run(const DataMove& move, const sc_core::sc_time& cycle);

 private:
  Params params_;
  BufferLookup buffers_;
  GmAccess gm_;
  std::vector<uint8_t> staging_;
};

}  // namespace npuvp::aicore

// The DVPP (Digital Vision Pre-Processing) block (issue 28; the Da Vinci chapter: dedicated
// circuits for VDEC, VENC, JPEGD/E, PNGD and the VPC, which read their input from memory,
// process it in the engine that serves the function, and write the result back).
//
// A requester stop on the ring with its own DMA. A job names its engine, the GM ranges it reads
// and writes, the pixels the engine processes, and a host function that computes the result
// (models/soc/dvpp_image.h: libjpeg-turbo, libpng and our VPC). The job's time:
//   the engine starts overhead_us after the job is issued (or when it is free) and processes
//   pixels at mpixels_per_second (one channel's rate); the DMA reads the input in bursts, up to
//   outstanding_reads ahead, from the start, and writes each output burst as the engine
//   produces it (evenly over its processing time); the job ends with its last burst.
// VDEC and VENC are timing-only: a job moves the bytes and takes the time, nothing is decoded.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "tlm/stats.h"

namespace npuvp::soc {

class Dvpp : public sc_core::sc_module {
 public:
  enum class Engine { Vdec = 0, Venc, Jpegd, Jpege, Pngd, Vpc, kCount };
  static const char* engine_name(Engine e);  // "JPEGD", ...

  struct EngineParams {
    double mpixels_per_second = 100;
    double overhead_us = 10;
  };
  struct Params {
    EngineParams engine[size_t(Engine::kCount)];
    uint32_t burst_bytes = 256;
    uint32_t outstanding_reads = 32;
    double quantum_ns = 1000;
    bool timed = true;  // false in functional mode: jobs compute, no time passes
  };
  static Params params_from_config();  // the `dvpp.*` keys

  tlm_utils::simple_initiator_socket<Dvpp> ring_socket;

  Dvpp(sc_core::sc_module_name name, const Params& params);

  struct Range { uint64_t address = 0, bytes = 0; };
  struct Job {
    Engine engine = Engine::Vpc;
    std::string what;  // "JpegDecode 1920x1080 -> NV12" (for the trace and errors)
    std::vector<Range> reads, writes;
    double pixels = 0;
    std::function<void()> work;  // the result (run before the timing); empty: timing only
  };
  // Runs `job` to completion from the host between launches; returns the simulated time it took.
  // Raises, naming the engine and the job, if its work fails or a range is outside GM.
  sc_core::sc_time run(Job job);

  const Params& params() const { return params_; }
  sc_core::sc_time busy_time(Engine e) const;
  uint64_t jobs(Engine e) const;

 private:
  void thread();
  void time_job();
  sc_core::sc_time burst(tlm::tlm_command command, uint64_t address, uint32_t length, const sc_core::sc_time& at);

  Params params_;
  sc_core::sc_event start_;
  Job job_;
  bool pending_ = false, done_ = false;
  std::string error_;
  sc_core::sc_time engine_free_[size_t(Engine::kCount)];
  std::vector<Counter*> jobs_, busy_ps_, pixels_;
  Counter& bytes_read_;
  Counter& bytes_written_;
};

}  // namespace npuvp::soc

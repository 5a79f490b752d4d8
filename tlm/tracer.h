// Chrome / Perfetto trace-event JSON (open in ui.perfetto.dev or chrome://tracing).
// A process per block (core), a thread track per pipe, a complete slice per instruction.
#pragma once
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <nlohmann/json.hpp>
#include <systemc>
#include "tlm/output_file.h"

namespace npuvp {

class Tracer {
 public:
  static Tracer& global();
  ~Tracer();

  // Starts streaming events to `path` (through a temporary file: see tlm/output_file.h);
  // raises an error if it cannot be written.
  void open(const std::string& path);
  bool enabled() const { return file_ != nullptr; }
  // Finishes the JSON array and puts the file in place (also done by the destructor); raises
  // if any write failed.
  void close();

  // A track is (process, thread), e.g. ("core0", "MTE2"); returns a stable id.
  int track(const std::string& process, const std::string& thread);
  // One instruction: name, start and duration in simulated time, optional arguments.
  void slice(int track, const std::string& name, const sc_core::sc_time& start,
             const sc_core::sc_time& duration, const nlohmann::json& args = {});
  // A counter track sample (memory-system counters).
  void counter(const std::string& process, const std::string& name,
               const sc_core::sc_time& at, double value);

  size_t events_written() const { return events_; }

 private:
  void write_event(const nlohmann::json& event);
  void write_process_metadata(const std::string& process, int pid);
  void write_thread_metadata(const std::string& thread, int pid, int tid);
  int process_id(const std::string& process);
  std::unique_ptr<OutputFile> output_;
  std::FILE* file_ = nullptr;  // output_'s stream
  std::string path_;
  size_t events_ = 0;
  std::map<std::string, int> processes_;
  std::map<std::pair<std::string, std::string>, int> tracks_;
  std::map<int, std::pair<int, int>> track_ids_;  // track -> (pid, tid)
  std::map<int, int> threads_;  // pid -> its tracks so far (a track's tid is the next one)
};

}  // namespace npuvp

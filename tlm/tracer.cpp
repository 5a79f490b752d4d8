#include "tlm/tracer.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include "tlm/log.h"
#include "tlm/output_file.h"

namespace npuvp {

namespace {

// Trace-event timestamps are microseconds; sc_time division keeps the integer ps exact.
double to_us(const sc_core::sc_time& t) { return t / sc_core::sc_time(1, sc_core::SC_US); }

nlohmann::json metadata(const char* what, int pid, int tid, nlohmann::json args) {
  nlohmann::json e = {{"ph", "M"}, {"name", what}, {"pid", pid}};
  if (tid > 0) e["tid"] = tid;
  e["args"] = std::move(args);
  return e;
}

}  // namespace

Tracer& Tracer::global() {
  static Tracer tracer;
  return tracer;
}

Tracer::~Tracer() {
  try {
    close();
  } catch (const std::exception&) {
    // At exit nobody is left to tell: the temporary file is removed, the target left as it was.
  }
}

void Tracer::open(const std::string& path) {
  close();
  output_ = std::make_unique<OutputFile>(path, "tracer", "the trace");
  file_ = output_->stream();
  path_ = path;
  events_ = 0;
  std::fputs("[\n", file_);
  // Processes and tracks created before open() (or for an earlier file) still need names.
  for (const auto& [name, pid] : processes_) write_process_metadata(name, pid);
  for (const auto& [key, id] : tracks_) {
    const auto& [pid, tid] = track_ids_.at(id);
    write_thread_metadata(key.second, pid, tid);
  }
}

void Tracer::close() {
  if (!file_) return;
  std::fputs("\n]\n", file_);
  file_ = nullptr;
  std::unique_ptr<OutputFile> output = std::move(output_);
  output->commit();
}

int Tracer::process_id(const std::string& process) {
  const auto it = processes_.find(process);
  if (it != processes_.end()) return it->second;
  const int pid = static_cast<int>(processes_.size()) + 1;
  processes_.emplace(process, pid);
  if (enabled()) write_process_metadata(process, pid);
  return pid;
}

int Tracer::track(const std::string& process, const std::string& thread) {
  const auto key = std::make_pair(process, thread);
  const auto it = tracks_.find(key);
  if (it != tracks_.end()) return it->second;
  const int pid = process_id(process);
  const int tid = ++threads_[pid];  // counted, not searched: 3072 cores' tracks were quadratic
  const int id = static_cast<int>(tracks_.size());
  tracks_.emplace(key, id);
  track_ids_.emplace(id, std::make_pair(pid, tid));
  if (enabled()) write_thread_metadata(thread, pid, tid);
  return id;
}

void Tracer::slice(int track, const std::string& name, const sc_core::sc_time& start,
                   const sc_core::sc_time& duration, const nlohmann::json& args) {
  if (!file_) return;
  const auto it = track_ids_.find(track);
  if (it == track_ids_.end()) raise("tracer", "slice '{}' on unknown track {}", name, track);
  nlohmann::json e = {{"ph", "X"},
                      {"name", name},
                      {"pid", it->second.first},
                      {"tid", it->second.second},
                      {"ts", to_us(start)},
                      {"dur", to_us(duration)}};
  if (!args.is_null() && !args.empty()) e["args"] = args;
  write_event(e);
}

void Tracer::counter(const std::string& process, const std::string& name,
                     const sc_core::sc_time& at, double value) {
  if (!file_) return;
  const int pid = process_id(process);
  write_event({{"ph", "C"},
               {"name", name},
               {"pid", pid},
               {"ts", to_us(at)},
               {"args", {{"value", value}}}});
}

void Tracer::write_process_metadata(const std::string& process, int pid) {
  write_event(metadata("process_name", pid, 0, {{"name", process}}));
  write_event(metadata("process_sort_index", pid, 0, {{"sort_index", pid}}));
}

void Tracer::write_thread_metadata(const std::string& thread, int pid, int tid) {
  write_event(metadata("thread_name", pid, tid, {{"name", thread}}));
  write_event(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
}

// events_ counts every event in the file, metadata included; it also decides the separator.
void Tracer::write_event(const nlohmann::json& event) {
  if (events_ > 0) std::fputs(",\n", file_);
  // Replace rather than throw on invalid UTF-8 in user-supplied names.
  const std::string text = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), file_);
  ++events_;
}

}  // namespace npuvp

// The `npuvp` command line for VSM programs (PFN's MN-Core 2 assembly language):
// `npuvp run PROG.vsm [--platform mncore2] [-d DUMP]` and `npuvp judge TESTCASE.vsm ANSWER.vsm`.
#pragma once
#include <string>
#include <vector>

namespace npuvp::mncore {

// Whether `kernel` names a VSM file (*.vsm).
bool is_vsm_file(const std::string& kernel);
// Runs a VSM program on the board `platform` configures (with `sets`: mncore2.* keys); the `d get` lines go to `dump` (a file) or, when empty, to stdout.
// `trace`: a Perfetto trace-event file with a slice per instruction on its unit's track.
int vsm_run(const std::string& path, const std::string& platform, const std::vector<std::string>& sets,
            const std::string& dump, const std::string& trace = "");
// Judges `answer` against the challenge-style `testcase`; exit status 0 when ACCEPTED.
int vsm_judge(const std::string& testcase, const std::string& answer, const std::string& platform,
              const std::vector<std::string>& sets);

}  // namespace npuvp::mncore

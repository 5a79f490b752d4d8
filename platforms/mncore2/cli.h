// The `npuvp` command line for the MN-Core 2 platform: main.cpp hands a command here when
// the platform is an MN-Core 2 configuration (top-level "mncore2" object) or, with no
// platform given, when the kernel is one of the MN-Core 2 samples.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace npuvp::mncore {

// Whether `platform` (a name from platforms/configs or a .json path) configures an MN-Core 2
// board. False for names that do not resolve: the caller reports those.
bool is_mncore2_platform(const std::string& platform);
// Whether `npuvp run <kernel> [--platform <platform>]` is this platform's to run: one of its
// samples, or an assembly file (*.s, *.asm) to run as is.
bool cli_handles(const std::string& kernel, const std::string& platform);

int cli_run(const std::string& kernel, const std::string& platform, const std::vector<std::string>& sets,
            const std::string& trace, const std::string& stats, uint32_t blocks);
int cli_info(const std::string& platform, const std::vector<std::string>& sets);
// Lines for `npuvp list`.
void cli_list_samples();

}  // namespace npuvp::mncore

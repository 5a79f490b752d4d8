// `npuvp run kernel_meta/<name>.json --data DIR`: runs an operator BuildCCE wrote, with its
// inputs from DIR/<input name>.npy (numpy's .npy format; an InputScalar from a 0-d or 1-element
// array), and writes each output to <out>/<output name>.npy (out defaults to DIR).
#pragma once
#include <string>
#include <vector>

namespace npuvp::tik {

// True if `kernel` names a TIK kernel description (a path ending in .json).
bool cli_handles(const std::string& kernel);
int cli_run(const std::string& meta_path, const std::string& data_dir, const std::string& out_dir,
            const std::string& platform, std::vector<std::string> sets, const std::string& mode,
            const std::string& trace, const std::string& stats);

}  // namespace npuvp::tik

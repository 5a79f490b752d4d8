// The VSM step machine's shape from an MN-Core 2 configuration (platforms/configs/mncore2.json
// and --set): the keys that apply to the step model are read, the rest are refused when a
// user sets them, so that no setting is silently ignored.
#pragma once
#include <string>
#include <vector>

#include "models/mncore/vsm.h"

namespace npuvp::mncore {

// Loads `platform` (default mncore2) and `sets` into the global configuration and returns the
// machine's shape. Raises naming the key when a value does not fit the step model.
vsm::Shape vsm_shape_from_config(const std::string& platform, const std::vector<std::string>& sets);

}  // namespace npuvp::mncore

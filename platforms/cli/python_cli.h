// `npuvp sweep`, `npuvp plot` and `npuvp run ... --plot DIR` are the Python package's
// (python/npuvp/cli.py): the CLI hands them to Debian's python3 (docs/exploring.md).
#pragma once

namespace npuvp::cli {

// Replaces this process with `/usr/bin/python3 -m npuvp.cli <args>` when argv asks for a
// Python subcommand, with the package found beside the binary (build tree: <build>/python;
// install: <prefix>/lib/python3/dist-packages) put first on PYTHONPATH and NPUVP_CLI naming
// this binary. Returns only when argv is not such a command; exits 127 if python3 cannot run.
void exec_python_subcommand(int argc, char** argv);

}  // namespace npuvp::cli

// The MN-Core 2 assembler of this model: text in the syntax of docs/mncore2-isa.md -> Program.
// Syntax and operand kinds are checked here; addresses against capacities are checked when
// the board issues the instruction (capacities are configuration, the text is not).
#pragma once
#include <stdexcept>
#include <string>

#include "models/mncore/isa.h"

namespace npuvp::mncore {

// An assembly error: where it is and what is wrong.
class AssemblyError : public std::runtime_error {
 public:
  AssemblyError(std::string source, unsigned line, unsigned column, const std::string& message);
  const std::string& source() const { return source_; }
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string source_;
  unsigned line_, column_;
  std::string message_;
};

// Parses `text`; `name` names it in messages. Throws AssemblyError at the first error:
// "<name> line <l>, column <c>: <what>".
Program assemble(const std::string& text, const std::string& name = "program");

// Same, but reports an error through npuvp::raise (block "assembler"), as the rest of the
// simulator does, so the CLI prints it and exits non-zero.
Program assemble_or_raise(const std::string& text, const std::string& name = "program");

}  // namespace npuvp::mncore

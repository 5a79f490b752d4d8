// Force-included (-include) into every rtl_cosim translation unit, Verilator's runtime and the
// generated models included: Verilator's console output goes through npuvp_cosim_vl_printf,
// which prints it as before and remembers the last line, so that an error raised when the RTL
// stops can quote what the RTL said ($error/$fatal text).
#pragma once
void npuvp_cosim_vl_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
#define VL_PRINTF npuvp_cosim_vl_printf

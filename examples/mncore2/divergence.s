# MN-Core 2 assembly (docs/mncore2-isa.md): per-PE divergence without branches.
# Run: build/npuvp run examples/mncore2/divergence.s
#
# Every PE writes its position into LM0, then PEs 0 and 1 of every MAB add 1.5 to a half
# vector while PEs 2 and 3 halve it, and each L1B collects the first LW of all its PEs.

mov $peindex $m0            # SW 0: the PE's flat number
mov $mabid $m1              # SW 1: its MAB within the L1B
fadd.h $lm2 1.0 $lm2        # four halves: 0 + 1.0
icmp.lt $peid 2 $mk1        # mask 1: PEs 0 and 1 of each MAB
fadd.h $lm2 1.5 $lm2 ?$mk1
fmul.h $lm2 0.5 $lm2 ?!$mk1
coll $llm0 $lb0 2           # L1BM: 2 LW from each of the 64 PEs, in PE order
wait l1b

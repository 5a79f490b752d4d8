#!/usr/bin/env bash
# expect.sh <ok|fail> <regex> <command...>: runs the command, requires the exit status
# (0, or for "fail" a clean error: non-zero, not a crash by a signal) and that its combined
# output matches the extended regex (matched across lines: "." also matches a newline).
set -uo pipefail
want=$1; regex=$2; shift 2
out=$("$@" 2>&1); status=$?
printf '%s\n' "$out"
if [[ $want == ok && $status -ne 0 ]]; then echo "expect.sh: exit status $status, wanted 0" >&2; exit 1; fi
if [[ $want == fail && $status -eq 0 ]]; then echo "expect.sh: exit status 0, wanted non-zero" >&2; exit 1; fi
if [[ $want == fail && $status -ge 128 ]]; then echo "expect.sh: exit status $status: a crash, not an error" >&2; exit 1; fi
if ! grep -Ezq -- "$regex" <<<"$out"; then echo "expect.sh: output does not match /$regex/" >&2; exit 1; fi

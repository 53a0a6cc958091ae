#!/usr/bin/env bash
# Runs libFuzzer targets. Usage: Fuzz/run.sh SECONDS [TARGET...]   (default: every target)
# Builds the targets first unless FUZZ_NO_BUILD=1 (swift build -c release -Xswiftc -sanitize=fuzzer,address).
# FUZZ_TIMEOUT (default 10 s) is the per-input limit: raise it on a loaded machine, where nice 19 makes a wall-clock 10 s fire on inputs that take 0.5 s.
# Crashes, timeouts (10 s an input) and leaks stop a target; its input is left in Fuzz/.artifacts/TARGET/
# (keep it as Fuzz/regressions/TARGET/NAME once fixed). Each run's last status line goes to
# Fuzz/.artifacts/TARGET.log. FUZZ_NICE (default 19) and FUZZ_RSS_MB (default 2048) adjust the run.
# FUZZ_SEED (default 0: libFuzzer picks one) fixes the mutation sequence and FUZZ_RUNS ("TARGET:N ...") caps a
# target's executions, so a run can be repeated: CI's brief run (`make fuzz-ci`) uses both, with Swift's hashing
# made deterministic, so it runs nearly the same inputs on every run of a commit (threads make coverage differ a
# little) and what it finds it is likely to find again. FUZZ_CORPUS (default .corpus) names the corpus folder in Fuzz/.
# FUZZ_FLAGS adds libFuzzer flags: FUZZ_FLAGS="-fork=1 -ignore_crashes=1" keeps a target going after a finding
# (each finding's input is left in Fuzz/.artifacts/TARGET/ and counted), so one run gives all it finds.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: Fuzz/run.sh SECONDS [TARGET...]}; shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(markdown rtf docx docx-xml zip binder roundtrip compare apply mcp tex omml)
export PATH=/opt/swift/usr/bin:$PATH
# A fatalError prints its message and stops: Swift's backtracer would otherwise run under AddressSanitizer and
# report its own stack reads as a stack-buffer-underflow after the real finding.
export SWIFT_BACKTRACE=enable=no
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  start=$(date +%s)
  swift build -c release -Xswiftc -sanitize=fuzzer,address >.build-fuzz.log 2>&1 || { tail -30 .build-fuzz.log; exit 2; }
  echo "fuzz: built in $(( $(date +%s) - start )) s"
fi
corpus=${FUZZ_CORPUS:-.corpus}
./seeds.sh "$corpus" >/dev/null
status=0
runs_of() { for r in ${FUZZ_RUNS:-}; do [ "${r%%:*}" = "$1" ] && { echo "${r#*:}"; return; }; done; echo -1; }
for t in "${targets[@]}"; do
  mkdir -p ".artifacts/$t"
  bin=.build/release/fuzz-$t
  touch ".artifacts/$t.log.start"
  nice -n "${FUZZ_NICE:-19}" "$bin" "$corpus/$t" -dict="dict/$t.dict" -max_total_time="$seconds" -seed="${FUZZ_SEED:-0}" -runs="$(runs_of "$t")" -reload=0 -timeout="${FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=65536 -artifact_prefix=".artifacts/$t/" -print_final_stats=1 \
    ${FUZZ_FLAGS:-} >".artifacts/$t.log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' ".artifacts/$t.log" | grep -o '[0-9]*$')
  # A fork run's executions are the last "#N" status line's; its findings are the inputs it left.
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' ".artifacts/$t.log" | tail -1 | tr -d '#')
  found=$(find ".artifacts/$t" -type f -newer ".artifacts/$t.log.start" | wc -l)
  if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    status=1
    echo "fuzz-$t: FAILED after ${execs:-?} executions, $found inputs left: $(grep -m1 -E 'ERROR|Fatal error|==[0-9]+==' ".artifacts/$t.log")"
    find ".artifacts/$t" -type f -newer ".artifacts/$t.log.start" | sed "s|^|  input: Fuzz/|"
  else
    echo "fuzz-$t: ${execs:-?} executions (at most $seconds s), no crash, hang or leak"
  fi
done
exit $status

# cmake -DNOC_SYNTH=<binary> -DWORK_DIR=<dir> -P conservation.cmake: runs noc_synth near saturation
# on a 4x4 mesh with 4-flit packets and checks the conservation figures of its JSON: created =
# delivered + in_flight, in_flight = 0 after the drain, no failed invariant, exit status 0.
set(out ${WORK_DIR}/conservation.json)
execute_process(COMMAND ${NOC_SYNTH} --k 4 --m 4 --rate 0.6 --packet-flits 4 --warmup 200 --cycles 2000 --quiet
                        --json ${out}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "noc_synth exited ${rc}: ${err}")
endif()
file(READ ${out} j)
string(JSON created GET "${j}" created)
string(JSON delivered GET "${j}" delivered)
string(JSON in_flight GET "${j}" in_flight)
string(JSON failures LENGTH "${j}" invariant_failures)
if(created LESS 1000)
  message(FATAL_ERROR "expected thousands of packets at 0.6 flits/node/cycle, got ${created}")
endif()
math(EXPR sum "${delivered} + ${in_flight}")
if(NOT sum EQUAL created OR NOT in_flight EQUAL 0 OR NOT failures EQUAL 0)
  message(FATAL_ERROR "created ${created}, delivered ${delivered}, in flight ${in_flight}, ${failures} failed invariants")
endif()

# cmake -DNOC_SYNTH=<binary> -DWORK_DIR=<dir> -P undrained.cmake: runs noc_synth far past
# saturation (every node sends to one hotspot at 1 flit/node/cycle) and checks that a drain which
# cannot deliver every measured packet is reported: exit status 4, a message saying how many are
# still undelivered, and a JSON that still accounts for every packet (created = delivered +
# in_flight, in_flight = measured_undelivered > 0, no failed invariant).
set(out ${WORK_DIR}/undrained.json)
file(REMOVE ${out})
execute_process(COMMAND ${NOC_SYNTH} --traffic hotspot --rate 1.0 --warmup 0 --cycles 3000 --quiet --json ${out}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 4)
  message(FATAL_ERROR "noc_synth exited ${rc}, expected 4 (undelivered packets): ${err}")
endif()
if(NOT err MATCHES "measured packets were still undelivered when the drain stopped")
  message(FATAL_ERROR "no undelivered-packets message: ${err}")
endif()
file(READ ${out} j)
string(JSON created GET "${j}" created)
string(JSON delivered GET "${j}" delivered)
string(JSON in_flight GET "${j}" in_flight)
string(JSON undelivered GET "${j}" measured_undelivered)
string(JSON failures LENGTH "${j}" invariant_failures)
math(EXPR sum "${delivered} + ${in_flight}")
if(NOT sum EQUAL created OR in_flight LESS 1 OR NOT undelivered EQUAL in_flight OR NOT failures EQUAL 0)
  message(FATAL_ERROR "created ${created}, delivered ${delivered}, in flight ${in_flight}, "
                      "measured undelivered ${undelivered}, ${failures} failed invariants")
endif()

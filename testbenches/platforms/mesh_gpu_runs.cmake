# Platform checks that need two elaborations (SystemC elaborates once per process), run as
#   cmake -DMESH_GPU=<mesh_gpu binary> -DWORK_DIR=<dir> -DCHECK=<check> -P mesh_gpu_runs.cmake
# Each check runs the mesh_gpu command line twice on the small 4x4 configuration of the
# testbench (12 SMs, 4 MCs on the bottom row) and compares the stats JSON files. Checks:
#   same_seed      the same configuration and seed twice: identical JSON but for wall_seconds
#   different_seed seeds 1 and 2 of bfs on a generated R-MAT graph: different stats
#   zero_sharing   transpose (no block read by two SMs) with and without the PCU
#   multicast      gemm (tiles shared by CTAs) with and without the PCU: fewer flit-hops
#   one_key        --set mc.l2.sets=128 over ics8x8 changes that key of the effective config only
#   dpc            spmv with and without paper 002's DPC (dpc8x8, dpc8x8+dpc): its real lines
#                  compress (ratio > 1), so the same work moves fewer flit-hops
#   progress       --progress pauses the simulation to draw its line: the stats do not change,
#                  the line names cycles and CTAs; with --quiet nothing is drawn
#   stall          the stall watchdog only slices the run: stats identical with --stall-cycles 0
#                  and 2000; a run with no SM progress for --stall-cycles (a DRAM latency longer
#                  than the limit) stops as a deadlock: exit 4, summary.stop "deadlock", at the
#                  slice that crossed the limit, not at --max-cycles
#   trace          --trace-dir on the hand-made Accel-Sim fixture (testbenches/workload/traces):
#                  every traced thread instruction issues; a CTA whose shared memory exceeds the
#                  SM's is refused with a message naming both
cmake_minimum_required(VERSION 3.25)
foreach(v MESH_GPU WORK_DIR CHECK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "mesh_gpu_runs.cmake: -D${v}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})
set(ENV{SYSTEMC_DISABLE_COPYRIGHT_MESSAGE} 1)
set(SMALL --set sms=12 --set mcs=4 --set noc.k=4 --set noc.m=4)
# A 9-flit reply fits one VC buffer: multicast replies cannot deadlock (see mesh_gpu_pcu_tb.cpp).
set(WHOLE_REPLY_PER_VC --set noc.router.vc_depth=9)

# run(<name> <args...>): runs mesh_gpu, stores its JSON text in ${name}.
function(run name)
  set(out ${WORK_DIR}/${CHECK}_${name}.json)
  execute_process(COMMAND ${MESH_GPU} --quiet ${SMALL} ${ARGN} --out ${out}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mesh_gpu ${ARGN} failed (exit ${rc}):\n${o}${e}")
  endif()
  file(READ ${out} text)
  set(${name} "${text}" PARENT_SCOPE)
endfunction()

# get(<out> <json> <path...>) with a clear failure when the key is missing.
function(get out json)
  string(JSON v ERROR_VARIABLE err GET "${json}" ${ARGN})
  if(err)
    message(FATAL_ERROR "key ${ARGN}: ${err}")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# sum_stats(<out> <json> <name regex> <count>): sum of the <count> integer stats whose full name
# matches (a regex without anchors or groups, e.g. "gpu\\.mc_[0-9]+\\.l2\\.reads" 4).
function(sum_stats out json name count)
  string(JSON stats GET "${json}" stats)
  string(REGEX MATCHALL "\"${name}\" *: *[0-9]+(\\.0)?[,}\n ]" hits "${stats}")
  list(LENGTH hits n)
  if(NOT n EQUAL count)
    message(FATAL_ERROR "${n} integer statistics match ${name}, expected ${count}")
  endif()
  set(s 0)
  foreach(h ${hits})
    string(REGEX REPLACE "^.*: *([0-9]+).*$" "\\1" v "${h}")
    math(EXPR s "${s} + ${v}")
  endforeach()
  set(${out} ${s} PARENT_SCOPE)
endfunction()

# micro(<out> <decimal>): a plain decimal number (no exponent) in millionths, truncated.
function(micro out x)
  if(NOT x MATCHES "^(-?)([0-9]+)(\\.([0-9]*))?$")
    message(FATAL_ERROR "not a plain decimal: ${x}")
  endif()
  set(sign "${CMAKE_MATCH_1}")
  set(int "${CMAKE_MATCH_2}")
  string(SUBSTRING "${CMAKE_MATCH_4}000000" 0 6 frac)
  string(REGEX REPLACE "^0+([0-9])" "\\1" frac "${frac}")
  math(EXPR v "${int} * 1000000 + ${frac}")
  set(${out} "${sign}${v}" PARENT_SCOPE)
endfunction()

function(require_zero what x)
  if(NOT x MATCHES "^-?0(\\.0*)?$")
    message(FATAL_ERROR "${what} should be 0, got ${x}")
  endif()
endfunction()

function(require_equal what a b)
  if(NOT "${a}" STREQUAL "${b}")
    message(FATAL_ERROR "${what}: ${a} != ${b}")
  endif()
endfunction()

if(CHECK STREQUAL "same_seed")
  # The PCU configuration: its grouping depends on exact arrival cycles, so any
  # nondeterminism in the NoC, the PCU or the SMs shows up in its stats.
  set(args --preset ics8x8+pcu+xy-yx ${WHOLE_REPLY_PER_VC} --kernel bfs --set workload.params.size=small
           --set workload.params.scale=8 --set workload.params.edge_factor=8 --seed 7)
  run(a ${args})
  run(b ${args})
  string(JSON a REMOVE "${a}" summary wall_seconds)
  string(JSON b REMOVE "${b}" summary wall_seconds)
  string(JSON same EQUAL "${a}" "${b}")
  if(NOT same)
    get(ca "${a}" summary cycles)
    get(cb "${b}" summary cycles)
    message(FATAL_ERROR "two runs with seed 7 differ (cycles ${ca} vs ${cb}); see ${WORK_DIR}")
  endif()

elseif(CHECK STREQUAL "different_seed")
  set(args --preset ics8x8+pcu+xy-yx ${WHOLE_REPLY_PER_VC} --kernel bfs --set workload.params.size=small
           --set workload.params.scale=8 --set workload.params.edge_factor=8)
  run(a ${args} --seed 1)
  run(b ${args} --seed 2)
  get(config_a "${a}" config)
  get(config_b "${b}" config)
  string(JSON same_config EQUAL "${config_a}" "${config_b}")
  if(NOT same_config)
    message(FATAL_ERROR "the two runs should differ only in the seed")
  endif()
  get(stats_a "${a}" stats)
  get(stats_b "${b}" stats)
  string(JSON same EQUAL "${stats_a}" "${stats_b}")
  if(same)
    message(FATAL_ERROR "seeds 1 and 2 generate different R-MAT graphs, yet the stats are identical")
  endif()

elseif(CHECK STREQUAL "zero_sharing")
  # transpose 64 x 8, 32 x 8 threads per CTA: 2 CTAs, 16 warps on 2 SMs. Each warp loads one
  # line of `in` that no other warp reads (16 L2 reads, none shared) and stores 8 lines of
  # `out` (lanes 4 words apart: 4 lanes per line), 128 writes. DRAM at the core clock, so that
  # shifting a request by whole core cycles shifts its DRAM timing by the same amount.
  set(args --kernel transpose --set workload.params.width=64 --set workload.params.height=8 --set dram_mhz=1400)
  run(base --preset ics8x8 ${args})
  run(pcu --preset ics8x8+pcu ${args})
  get(loc "${base}" summary locality_ratio 1920)
  require_zero("baseline locality ratio at 1920 cycles" "${loc}")
  get(ratio "${pcu}" summary coalescing_ratio)
  require_zero("PCU coalescing ratio" "${ratio}")
  get(mcast "${pcu}" summary multicast_replies)
  require_zero("PCU multicast replies" "${mcast}")
  sum_stats(grouped "${pcu}" "gpu\\.mc_[0-9]+\\.pcu\\.grouped_requests" 4)
  require_equal("grouped requests" ${grouped} 0)
  foreach(r base pcu)
    sum_stats(l2_${r} "${${r}}" "gpu\\.mc_[0-9]+\\.l2\\.reads" 4)
    sum_stats(dram_${r} "${${r}}" "gpu\\.mc_[0-9]+\\.dram\\.reads" 4)
    get(req_${r} "${${r}}" summary request_packets)
    get(rep_${r} "${${r}}" summary reply_packets)
    get(stall_${r} "${${r}}" summary mc_stall_ratio)
    require_zero("${r}: MC stall ratio (the latency claim below needs a run without queueing at the MCs)"
                 "${stall_${r}}")
  endforeach()
  require_equal("L2 reads without PCU, 16 expected" ${l2_base} 16)
  require_equal("L2 reads with PCU" ${l2_pcu} ${l2_base})
  require_equal("DRAM reads with PCU" ${dram_pcu} ${dram_base})
  require_equal("request packets without PCU, 16 reads + 128 writes expected" ${req_base} 144)
  require_equal("request packets with PCU" ${req_pcu} ${req_base})
  require_equal("reply packets with PCU" ${rep_pcu} ${rep_base})
  # Latency: the PCU delays a read by 2 cycles on the way in (input latch, stage 2) and 2 on the
  # way out (merge latch, reply_out), packet_coalescing_unit.h. All 16 loads issue before any
  # reply returns and XY-XY replies never share a router input or output with requests (MCs on
  # the bottom row), so every load takes exactly 4 cycles longer: AMAT + 4.
  get(amat_base "${base}" summary amat)
  get(amat_pcu "${pcu}" summary amat)
  micro(ma "${amat_base}")
  micro(mb "${amat_pcu}")
  math(EXPR d "${mb} - ${ma} - 4000000")
  if(d GREATER 1 OR d LESS -1)
    message(FATAL_ERROR "AMAT with PCU ${amat_pcu} should be the baseline's ${amat_base} + 4")
  endif()
  # Run time: the last event is a write ack; its chain crosses the PCU twice (its warp's load,
  # then the write and its ack), 2 x 4 cycles.
  get(cycles_base "${base}" summary cycles)
  get(cycles_pcu "${pcu}" summary cycles)
  math(EXPR d "${cycles_pcu} - ${cycles_base}")
  if(d GREATER 8 OR d LESS -8)
    message(FATAL_ERROR "cycles with PCU ${cycles_pcu} vs ${cycles_base} without: more than 8 apart")
  endif()

elseif(CHECK STREQUAL "dpc")
  run(base --preset dpc8x8 --kernel spmv --set workload.params.size=small)
  run(dpc --preset dpc8x8+dpc --kernel spmv --set workload.params.size=small)
  get(ratio "${dpc}" summary dpc_compression_ratio)
  micro(r "${ratio}")
  if(NOT r GREATER 1000000)
    message(FATAL_ERROR "spmv's CSR lines should compress: DPC ratio ${ratio}")
  endif()
  foreach(r base dpc)
    get(instr_${r} "${${r}}" summary thread_instructions)
    get(hops_${r} "${${r}}" summary flit_hops)
  endforeach()
  require_equal("thread instructions with DPC" "${instr_dpc}" "${instr_base}")
  if(NOT hops_dpc LESS hops_base)
    message(FATAL_ERROR "DPC replies should take fewer flit-hops: ${hops_dpc} vs ${hops_base} without")
  endif()
elseif(CHECK STREQUAL "progress")
  set(args --kernel bfs --set workload.params.size=small --set workload.params.scale=9)
  run(plain ${args})
  set(out ${WORK_DIR}/${CHECK}_shown.json)
  execute_process(COMMAND ${MESH_GPU} ${SMALL} ${args} --progress --out ${out}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0 OR NOT e MATCHES "\r[0-9]+ cycles  [0-9]+ cycles/s  kernel [0-9]+: [0-9]+/[0-9]+ CTAs")
    message(FATAL_ERROR "--progress should draw its line on stderr (exit ${rc}):\n${e}")
  endif()
  file(READ ${out} shown)
  string(JSON a GET "${plain}" stats)
  string(JSON b GET "${shown}" stats)
  string(JSON same EQUAL "${a}" "${b}")
  if(NOT same)
    message(FATAL_ERROR "pausing for the progress line changed the stats; see ${WORK_DIR}")
  endif()
  execute_process(COMMAND ${MESH_GPU} ${SMALL} ${args} --progress --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0 OR NOT "${o}${e}" STREQUAL "")
    message(FATAL_ERROR "--quiet should silence the progress line too (exit ${rc}): '${o}${e}'")
  endif()

elseif(CHECK STREQUAL "stall")
  set(args --kernel bfs --set workload.params.size=small --set workload.params.scale=9)
  run(off ${args} --stall-cycles 0)
  run(sliced ${args} --stall-cycles 2000)
  string(JSON a GET "${off}" stats)
  string(JSON b GET "${sliced}" stats)
  string(JSON same EQUAL "${a}" "${b}")
  if(NOT same)
    message(FATAL_ERROR "the stall watchdog changed the stats; see ${WORK_DIR}")
  endif()
  # No progress for longer than the limit: a DRAM access of 100,000 DRAM cycles (~150,000 core
  # cycles) leaves every SM waiting on its first loads (issued by cycle 5,000, the first slice's
  # end), so the watchdog (20,000 cycles, slices of 5,000) must stop the run at cycle 25,000 as a
  # deadlock, long before --max-cycles, naming the limit.
  set(out ${WORK_DIR}/${CHECK}_deadlock.json)
  execute_process(COMMAND ${MESH_GPU} --quiet ${SMALL} ${args} --set mc.dram.fixed_latency=100000
                          --stall-cycles 20000 --max-cycles 3000000 --out ${out}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 4 OR NOT e MATCHES "^mesh_gpu: deadlock at cycle 25000: [^\n]*--stall-cycles 20000[^\n]*\n$")
    message(FATAL_ERROR "no progress for --stall-cycles should exit 4 with one line naming it (exit ${rc}):\n${o}${e}")
  endif()
  file(READ ${out} d)
  get(stop "${d}" summary stop)
  get(cycles "${d}" summary cycles)
  if(NOT stop STREQUAL "deadlock" OR NOT cycles EQUAL 25000)
    message(FATAL_ERROR "expected stop deadlock at cycle 25000, got ${stop} at ${cycles}")
  endif()

elseif(CHECK STREQUAL "trace")
  set(dir ${CMAKE_CURRENT_LIST_DIR}/../workload/traces/v5_modes)
  run(t --trace-dir ${dir})
  # Active lanes of kernel-1.traceg's lines: CTA 0 warp 0: 32 + 32 + 4 + 3 + 32 + 32 + 2 + 2 =
  # 139; warp 1: 8 + 0; CTA 1 warp 1: 8. Total 155.
  get(instr "${t}" summary thread_instructions)
  micro(i "${instr}")
  require_equal("thread instructions of the fixture" ${i} 155000000)
  get(fin "${t}" summary finished)
  require_equal("finished" "${fin}" "ON")
  execute_process(COMMAND ${MESH_GPU} --quiet ${SMALL} --trace-dir ${dir} --set sm.shared_bytes=512
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(rc EQUAL 0 OR NOT e MATCHES "shared_bytes 512; a CTA needs 1024 bytes of shared memory")
    message(FATAL_ERROR "a 1024-byte CTA on a 512-byte SM should be refused; exit ${rc}:\n${o}${e}")
  endif()

elseif(CHECK STREQUAL "multicast")
  set(args --kernel gemm --set workload.params.m=64 --set workload.params.n=64 --set workload.params.k=64
           ${WHOLE_REPLY_PER_VC})
  run(base --preset ics8x8+xy-yx ${args})
  run(pcu --preset ics8x8+pcu+xy-yx ${args})
  get(mcast "${pcu}" summary multicast_replies)
  if(mcast MATCHES "^0(\\.0*)?$")
    message(FATAL_ERROR "gemm shares tiles among CTAs; the PCU should have sent multicast replies")
  endif()
  get(hops_base "${base}" summary flit_hops)
  get(hops_pcu "${pcu}" summary flit_hops)
  if(NOT hops_pcu LESS hops_base)
    message(FATAL_ERROR "flit-hops with PCU ${hops_pcu} should be below the baseline's ${hops_base}")
  endif()
  get(rep_base "${base}" summary reply_packets)
  get(rep_pcu "${pcu}" summary reply_packets)
  if(NOT rep_pcu LESS rep_base)
    message(FATAL_ERROR "reply packets with PCU ${rep_pcu} should be below the baseline's ${rep_base}")
  endif()

elseif(CHECK STREQUAL "one_key")
  # The effective configuration (--out "config") of --preset ics8x8 --set mc.l2.sets=128 is that
  # of --preset ics8x8 but for mc.l2.sets; the mc.l2 keys ics8x8.json does not name keep the
  # platform's L2 defaults (MemoryPartition::Params::l2_defaults: sectored), those it names keep
  # the preset's values (write-back, 120-cycle hits).
  set(args --preset ics8x8 --kernel transpose --set workload.params.width=64 --set workload.params.height=8)
  run(base ${args})
  run(set ${args} --set mc.l2.sets=128)
  get(config_base "${base}" config)
  get(config_set "${set}" config)
  get(sets "${config_set}" mc l2 sets)
  require_equal("mc.l2.sets" "${sets}" 128)
  get(sets_base "${config_base}" mc l2 sets)
  string(JSON config_set SET "${config_set}" mc l2 sets "${sets_base}")
  string(JSON same EQUAL "${config_base}" "${config_set}")
  if(NOT same)
    message(FATAL_ERROR "--set mc.l2.sets=128 changed more than mc.l2.sets; see ${WORK_DIR}")
  endif()
  get(sectored "${config_set}" mc l2 sectored)
  require_equal("mc.l2.sectored (an L2 default ics8x8 does not name)" "${sectored}" ON)
  get(policy "${config_set}" mc l2 write_policy)
  require_equal("mc.l2.write_policy (ics8x8)" "${policy}" write-back)
  get(hit "${config_set}" mc l2 hit_latency)
  require_equal("mc.l2.hit_latency (ics8x8)" "${hit}" 120)

else()
  message(FATAL_ERROR "unknown CHECK '${CHECK}'")
endif()

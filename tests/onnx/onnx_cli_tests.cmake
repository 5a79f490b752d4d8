# The ONNX front end's own tests (issue 26): loader and runtime errors, output files, the
# per-layer table, --stats/--trace entries and roofline relations. Models come from
# make_models.py (Debian's python3-onnx) into the build tree, once, as a fixture.
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(cli $<TARGET_FILE:npuvp>)
set(onnx_models ${CMAKE_CURRENT_BINARY_DIR}/onnx_models)
set(onnx_node /usr/share/libonnx-testdata/data/node)
add_test(NAME onnx.cli.make_models
         COMMAND sh -c "mkdir -p ${onnx_models} && /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/onnx/make_models.py ${onnx_models}")
set_tests_properties(onnx.cli.make_models PROPERTIES FIXTURES_SETUP onnx_models)

function(onnx_cli_test name)
  add_test(NAME onnx.cli.${name} COMMAND ${ARGN})
  set_tests_properties(onnx.cli.${name} PROPERTIES FIXTURES_REQUIRED onnx_models)
endfunction()

# Errors name the file, the node, its op type and the attribute, before anything runs.
onnx_cli_test(truncated_model_is_an_error
  sh -c "head -c 60 ${onnx_node}/test_softmax_example/model.onnx > ${onnx_models}/truncated.onnx && \
         ${expect} fail 'truncated.onnx.*not a valid ONNX model' ${cli} run ${onnx_models}/truncated.onnx")
onnx_cli_test(unsupported_attribute_names_node_and_attribute
  ${expect} fail "unsupported_attribute.onnx: node 'act1' \\(Relu\\).*attribute 'foo' is not supported"
  ${cli} run ${onnx_models}/unsupported_attribute.onnx)
onnx_cli_test(unsupported_op_names_the_node
  ${expect} fail "node 'c1' \\(Cos\\).*op type 'Cos' is not supported \\(supported: .*MatMul"
  ${cli} run ${onnx_models}/unsupported_op.onnx)
onnx_cli_test(missing_input_names_the_node
  ${expect} fail "node 'add1' \\(Add\\).*input 'ghost' is neither" ${cli} run ${onnx_models}/missing_input.onnx)
onnx_cli_test(unknown_domain_is_an_error
  ${expect} fail "node 'r1' \\(Relu\\).*domain 'com.example' is not supported" ${cli} run ${onnx_models}/unknown_domain.onnx)
onnx_cli_test(dynamic_shape_without_data_is_an_error
  ${expect} fail "dynamic_shape.onnx.*graph input 'x' has no static shape" ${cli} run ${onnx_models}/dynamic_shape.onnx)

# Without output_N.pb in DIR the outputs are written; a second run checks against them.
onnx_cli_test(writes_outputs_then_checks_them
  sh -c "rm -rf ${onnx_models}/softmax_data && mkdir ${onnx_models}/softmax_data && \
         cp ${onnx_node}/test_softmax_axis_1/test_data_set_0/input_0.pb ${onnx_models}/softmax_data/ && \
         ${expect} ok 'wrote them' ${cli} run ${onnx_node}/test_softmax_axis_1/model.onnx --mode functional --data ${onnx_models}/softmax_data && \
         test -s ${onnx_models}/softmax_data/output_0.pb && \
         ${expect} ok 'result: PASS' ${cli} run ${onnx_node}/test_softmax_axis_1/model.onnx --data ${onnx_models}/softmax_data")
# A wrong expected output: the first mismatch with its output, index, got and expected; exit 1.
onnx_cli_test(mismatch_names_output_and_index
  ${expect} fail "result: FAIL \\(output 0 'y': index [0-9]+: got 0, expected -0\\.[0-9]+"
  ${cli} run ${onnx_node}/test_relu/model.onnx --mode functional --data ${onnx_node}/test_leakyrelu/test_data_set_0)

# The per-layer table: one row per node with its columns; per-layer stats; a layer track.
onnx_cli_test(layer_table_has_every_column
  ${expect} ok "layer +op +shape +cycles +TFLOPS +GB/s +bound +roofline.*fc +MatMul +16x32 +[1-9][0-9]* +[0-9.]+ +[0-9.]+ +[a-z]+ +[0-9.]+%.*bias +Add.*act +Relu.*prob +Softmax.*total"
  ${cli} run ${onnx_models}/chain.onnx --mode perf)
onnx_cli_test(stats_and_trace_have_the_layers
  sh -c "${cli} run ${onnx_models}/chain.onnx --mode perf --stats ${onnx_models}/chain_stats.json \
           --trace ${onnx_models}/chain_trace.json > /dev/null && \
         /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/onnx/check_layer_outputs.py ${onnx_models}/chain_stats.json \
           ${onnx_models}/chain_trace.json")
# Roofline relations: a 4096 x 1024 Add streams (memory-bound); a 256 x 512 x 512 f32 MatMul
# runs on the 910B's cube (Mmad f32) and is bound by it.
onnx_cli_test(big_add_is_memory_bound
  ${expect} ok "add +Add +4096x1024 +[0-9]+ +[0-9.]+ +[0-9.]+ +memory" ${cli} run ${onnx_models}/big_add.onnx --mode perf)
onnx_cli_test(big_matmul_is_compute_bound
  ${expect} ok "precision: float32.*mm +MatMul +256x512 +[0-9]+ +[0-9.]+ +[0-9.]+ +cube" ${cli} run ${onnx_models}/big_matmul.onnx --mode perf)
# On a coupled 910 (no f32 cube) the same MatMul stays f32 on the vector unit and is bound by it.
onnx_cli_test(big_matmul_on_the_910_is_vector_bound
  ${expect} ok "mm +MatMul +256x512 +[0-9]+ +[0-9.]+ +[0-9.]+ +vector" ${cli} run ${onnx_models}/big_matmul.onnx --mode perf
  --platform ascend910)
# Under --precision fp16 a 2048^3 MatMul runs on the cube (f16 operands, f32 accumulation):
# cube-bound, within 10 % of its roofline (the f32 -> f16 casts of A and B included).
onnx_cli_test(big_matmul_fp16_is_cube_bound
  ${expect} ok "precision: fp16 for MatMul.*mm +MatMul +2048x2048 +[0-9]+ +[0-9.]+ +[0-9.]+ +cube +(9[0-9]|1[0-9][0-9])\\.[0-9]%"
  ${cli} run ${onnx_models}/cube_matmul.onnx --mode perf --precision fp16)
# fp16 results differ from float32 ones by f16 rounding, not by more: a small MatMul still passes.
onnx_cli_test(fp16_matmul_passes_a_small_case
  ${expect} ok "result: PASS" ${cli} run ${onnx_node}/test_matmul_2d/model.onnx --precision fp16
  --data ${onnx_node}/test_matmul_2d/test_data_set_0)
# Gelu (both forms) over [-6, 6] against a float64 reference at ONNX's tolerances.
foreach(approximate none tanh)
  onnx_cli_test(gelu_${approximate}_matches_the_reference
    ${expect} ok "result: PASS" ${cli} run ${onnx_models}/gelu_${approximate}.onnx
    --data ${onnx_models}/gelu_${approximate}_data)
endforeach()

# A small network end to end (issue 26, networks): one BERT-base encoder layer at sequence 64
# from scripts/models/build_models.py, on the 910B in perf mode; the per-layer table must have
# one row per node of the model, in order, and a total that is their sum.
onnx_cli_test(bert_layer_table_has_every_node
  sh -c "/usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/../scripts/models/build_models.py --out ${onnx_models} \
           --layers 1 --seq 64 bert > /dev/null && \
         ${cli} run ${onnx_models}/bert_base_s64_l1.onnx --platform ascend910b --mode perf > ${onnx_models}/bert_l1.txt && \
         /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/onnx/check_layer_table.py ${onnx_models}/bert_base_s64_l1.onnx \
           ${onnx_models}/bert_l1.txt")

# Constant weights are transposed on the host (issue 26): the fp16 Gemm with a transB weight
# initializer on the 910 gives exactly what the same Gemm gives with B fed as an input (which
# a kernel transposes); a batched MatMul with a weight initializer on the 910B's f32 cube
# matches float64 within ONNX's tolerances.
onnx_cli_test(gemm_transb_weight_same_as_input_910
  sh -c "rm -f ${onnx_models}/gemm_weight_data/output_0.pb && \
         ${cli} run ${onnx_models}/gemm_weight_transb.onnx --platform ascend910 --precision fp16 --mode functional \
           --data ${onnx_models}/gemm_weight_data > /dev/null && \
         cp ${onnx_models}/gemm_weight_data/output_0.pb ${onnx_models}/gemm_input_data/ && \
         ${expect} ok 'result: PASS' ${cli} run ${onnx_models}/gemm_input_transb.onnx --platform ascend910 \
           --precision fp16 --mode functional --data ${onnx_models}/gemm_input_data")
onnx_cli_test(matmul_weight_f32_cube
  ${expect} ok "result: PASS" ${cli} run ${onnx_models}/matmul_weight.onnx --platform ascend910b --mode functional
  --data ${onnx_models}/matmul_weight_data)

# Issue 26, timed-mode speed and network efficiency: float32 Conv on a chip without an f32
# cube is refused before anything runs (node, op, precision and the hint); BatchNormalization
# after a Conv is folded, and the folded network still passes against its unfused result.
onnx_cli_test(f32_conv_on_the_910_is_refused_before_running
  ${expect} fail "node #0 \\(Conv\\).*precision float32.*ascend910's cube has no float32 Mmad.*--precision fp16"
  ${cli} run ${onnx_node}/test_conv_with_strides_padding/model.onnx --platform ascend910
  --data ${onnx_node}/test_conv_with_strides_padding/test_data_set_0)

# Large initializers' raw_data is read where it lies in the mapped model file (and folded
# weights get storage of their own): the same model with every initializer in the typed
# fields, which protobuf copies out, gives byte-identical outputs (Conv + folded BN, Reshape
# by a small shape initializer, MatMul).
onnx_cli_test(raw_data_in_file_matches_typed_fields
  sh -c "cd ${onnx_models} && rm -f big_weights_raw_data/output_0.pb big_weights_typed_data/output_0.pb && \
         ${expect} ok 'graph: 1 BatchNormalization nodes folded.*wrote them' ${cli} run big_weights_raw.onnx --platform ascend910b \
           --mode functional --data big_weights_raw_data && \
         ${expect} ok 'wrote them' ${cli} run big_weights_typed.onnx --platform ascend910b --mode functional \
           --data big_weights_typed_data && \
         cmp big_weights_raw_data/output_0.pb big_weights_typed_data/output_0.pb")

# Issue 28: ONNX's backend node tests of the operators that run on the AI CPU (TopK, ArgMax,
# NonMaxSuppression; sw/onnx/ops_aicpu.cpp), registered like onnx_node_tests.cmake's: on the
# 910B through `npuvp run model.onnx --data test_data_set_0`, each must print "result: PASS".
set(onnx_node_data /usr/share/libonnx-testdata/data/node)
if(NOT EXISTS ${onnx_node_data})
  return()
endif()
set(onnx_aicpu_node_cases
  test_argmax_default_axis_example
  test_argmax_default_axis_example_select_last_index
  test_argmax_default_axis_random
  test_argmax_default_axis_random_select_last_index
  test_argmax_keepdims_example
  test_argmax_keepdims_example_select_last_index
  test_argmax_keepdims_random
  test_argmax_keepdims_random_select_last_index
  test_argmax_negative_axis_keepdims_example
  test_argmax_negative_axis_keepdims_example_select_last_index
  test_argmax_negative_axis_keepdims_random
  test_argmax_negative_axis_keepdims_random_select_last_index
  test_argmax_no_keepdims_example
  test_argmax_no_keepdims_example_select_last_index
  test_argmax_no_keepdims_random
  test_argmax_no_keepdims_random_select_last_index
  test_nonmaxsuppression_center_point_box_format
  test_nonmaxsuppression_flipped_coordinates
  test_nonmaxsuppression_identical_boxes
  test_nonmaxsuppression_limit_output_size
  test_nonmaxsuppression_single_box
  test_nonmaxsuppression_suppress_by_IOU
  test_nonmaxsuppression_suppress_by_IOU_and_scores
  test_nonmaxsuppression_two_batches
  test_nonmaxsuppression_two_classes
  test_top_k
  test_top_k_negative_axis
  test_top_k_smallest
)
# Left out: none; these are every case of the three operators in Debian's libonnx-testdata (all float32).
foreach(case ${onnx_aicpu_node_cases})
  add_test(NAME onnx.node.${case}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh ok "result: PASS" $<TARGET_FILE:npuvp> run
                   ${onnx_node_data}/${case}/model.onnx --platform ascend910b --data ${onnx_node_data}/${case}/test_data_set_0)
endforeach()
# The per-layer table says which ran where: a TopK layer's bound is "aicpu", with its time.
add_test(NAME onnx.aicpu.table_says_aicpu
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh ok
                 "result: PASS.*#0 +TopK +3x3 +[1-9][0-9]* +[0-9.]+ +[0-9.]+ +aicpu +0.0%" $<TARGET_FILE:npuvp> run
                 ${onnx_node_data}/test_top_k/model.onnx --platform ascend910b --data ${onnx_node_data}/test_top_k/test_data_set_0)

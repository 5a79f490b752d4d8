// Names of both CANN generations (issue 22): the coupled kernel types, g_coreType, the system
// constants, ListTensorDesc / TensorDesc read from GM, and AscendC::Std. One scenario per
// TEST (one process each).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"

using namespace AscendC;
using ::testing::HasSubstr;
using npuvp::testing::IsCoreError;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::to_gm;

namespace kernel_names_test {

// Qualifiers of the newer style compile away.
__global__ __mix__(1, 2) __aicore__ void mixed_qualifiers(GM_ADDR out) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 1);
  g.SetValue(0, 1);
}
__global__ __vector__ void vector_qualified(__gm__ uint8_t* out) { mixed_qualifiers(out); }

TEST(KernelNames, GCoreTypeReadsAicOnCubeCores) {
  auto& dev = make_device({}, "ascend910b");
  int32_t* out = to_gm(std::vector<int32_t>(4, -1));
  dev.launch("aic_only", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(out, 4);
    g.SetValue(GetBlockIdx(), g_coreType == AIC ? 10 : g_coreType == AIV ? 20 : 30);
  });
  EXPECT_EQ(out[0], 10);
  EXPECT_EQ(out[1], 10);
  EXPECT_EQ(out[2], -1);
}

TEST(KernelNames, GCoreTypeReadsAivOnVectorCores) {
  auto& dev = make_device({}, "ascend910b");
  int32_t* out = to_gm(std::vector<int32_t>(2, -1));
  dev.launch("aiv_only", 2, [&] {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(out, 2);
    g.SetValue(GetBlockIdx(), AIV == g_coreType ? 20 : 10);
  });
  EXPECT_EQ(out[0], 20);
  EXPECT_EQ(out[1], 20);
}

TEST(KernelNames, SystemConstantsOfA2) {
  auto& dev = make_device({}, "ascend910b");
  static_assert(GetDataBlockSizeInBytes() == 32, "one DataBlock is 32 B");
  static_assert(GetVecLen() == 256, "one repeat is 256 B");
  uint32_t* out = to_gm(std::vector<uint32_t>(2, 0));
  dev.launch("consts", 1, [&] {
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(out, 2);
    g.SetValue(0, GetUBSizeInBytes());
    g.SetValue(1, GetRuntimeUBSize());
  });
  EXPECT_EQ(out[0], 192u * 1024);
  EXPECT_EQ(out[1], 192u * 1024);
}

TEST(KernelNames, KernelTypeMixVectorCoreRunsOn310P) {
  auto& dev = make_device({}, "ascend310p");
  const uint32_t blocks = 12;
  int32_t* out = to_gm(std::vector<int32_t>(blocks, 0));
  const auto& report = dev.launch("mix_vector_core", blocks, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_VECTOR_CORE);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(out, blocks);
    g.SetValue(GetBlockIdx(), 1);
  });
  EXPECT_EQ(report.kernel_type, npuvp::aicore::KernelType::AivOnly);
  for (uint32_t i = 0; i < blocks; ++i) EXPECT_EQ(out[i], 1) << i;
}

TEST(KernelNames, KernelTypeAicoreRunsOnTheAiCoresOf310P) {
  auto& dev = make_device({}, "ascend310p");
  int32_t* out = to_gm(std::vector<int32_t>(2, 0));
  const auto& report = dev.launch("aicore", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AICORE);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(out, 2);
    g.SetValue(GetBlockIdx(), 1);
  });
  EXPECT_EQ(report.kernel_type, npuvp::aicore::KernelType::Default);
  EXPECT_EQ(out[0] + out[1], 2);
}

TEST(KernelNames, ErrorKernelTypeAicoreOnA2) {
  auto& dev = make_device({}, "ascend910b");
  std::string e = kernel_error(dev, 1, [] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AICORE); });
  EXPECT_THAT(e, IsCoreError("aiv0", "KERNEL_TASK_TYPE_DEFAULT", "KERNEL_TYPE_AICORE is a type of the coupled products"));
}

TEST(KernelNames, ErrorKernelTypeReservedVectorCore) {
  auto& dev = make_device({}, "ascend310p");
  std::string e = kernel_error(dev, 1, [] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_VECTORCORE); });
  EXPECT_THAT(e, HasSubstr("KERNEL_TASK_TYPE_DEFAULT: kernel type 7 is not modelled"));
}

TEST(KernelNames, NewStyleQualifiersCompileAway) {
  auto& dev = make_device();
  int32_t* out = to_gm(std::vector<int32_t>(8, 0));
  dev.launch("qualified", 1, [&] { vector_qualified(reinterpret_cast<GM_ADDR>(out)); });
  EXPECT_EQ(out[0], 1);
}

// ---- ListTensorDesc: the host lays out two 3-d tensors as the reference describes.

struct HostList {
  std::vector<uint64_t> words;
};
HostList list_of(const std::vector<std::vector<uint64_t>>& shapes, const std::vector<void*>& data) {
  const uint64_t dim = shapes[0].size();
  HostList l;
  l.words.push_back(0);  // the pointers' byte offset, below
  for (size_t i = 0; i < shapes.size(); ++i) {
    l.words.push_back(dim | (uint64_t(i) << 32));
    for (uint64_t s : shapes[i]) l.words.push_back(s);
  }
  l.words[0] = l.words.size() * 8;
  for (void* p : data) l.words.push_back(reinterpret_cast<uintptr_t>(p));
  return l;
}

TEST(KernelNames, ListTensorDescReadsShapesPointersAndData) {
  auto& dev = make_device({}, "ascend910b");
  float* t0 = to_gm(std::vector<float>{1, 2, 3, 4, 5, 6});
  float* t1 = to_gm(std::vector<float>(24, 7.5f));
  const HostList host = list_of({{1, 2, 3}, {2, 3, 4}}, {t0, t1});
  uint64_t* list = to_gm(host.words);
  std::vector<uint64_t> result(16, 0);
  uint64_t* out = to_gm(result);
  dev.launch("list", 1, [&] {
    ListTensorDesc l(list, static_cast<uint32_t>(host.words.size() * 8), 2);
    GlobalTensor<uint64_t> o;
    o.SetGlobalBuffer(out, 16);
    o.SetValue(0, l.GetSize());
    uint64_t shape[8] = {};
    TensorDesc<float> d;
    d.SetShapeAddr(shape);
    l.GetDesc(d, 1);
    o.SetValue(1, d.GetDim());
    o.SetValue(2, d.GetIndex());
    for (uint32_t i = 0; i < 3; ++i) o.SetValue(3 + i, d.GetShape(i));
    o.SetValue(6, d.GetDataPtr() == l.GetDataPtr<float>(1) ? 1 : 0);
    GlobalTensor<float> data = d.GetDataObj();
    o.SetValue(7, data.GetSize());
    float v = data.GetValue(23);
    uint32_t b;
    std::memcpy(&b, &v, 4);
    o.SetValue(8, b);
    GlobalTensor<float> first;
    first.SetGlobalBuffer(l.GetDataPtr<float>(0), 6);
    v = first.GetValue(5);
    std::memcpy(&b, &v, 4);
    o.SetValue(9, b);
  });
  EXPECT_EQ(out[0], 2u);
  EXPECT_EQ(out[1], 3u);
  EXPECT_EQ(out[2], 1u);
  EXPECT_EQ(out[3], 2u);
  EXPECT_EQ(out[4], 3u);
  EXPECT_EQ(out[5], 4u);
  EXPECT_EQ(out[6], 1u);
  EXPECT_EQ(out[7], 24u * sizeof(float)) << "GetDataObj's size: elements times sizeof(T), as CANN sets it";
  float v;
  uint32_t b = static_cast<uint32_t>(out[8]);
  std::memcpy(&v, &b, 4);
  EXPECT_EQ(v, 7.5f);
  b = static_cast<uint32_t>(out[9]);
  std::memcpy(&v, &b, 4);
  EXPECT_EQ(v, 6.0f);
}

TEST(KernelNames, ListTensorDescWithoutShapes) {
  auto& dev = make_device({}, "ascend910b");
  int32_t* t0 = to_gm(std::vector<int32_t>{11, 12});
  // One descriptor (0, 0xffffffff); the first word's high half gives the count (3).
  std::vector<uint64_t> words = {24, uint64_t(3) << 32, 0xffffffffu, reinterpret_cast<uintptr_t>(t0), 0, 0};
  uint64_t* list = to_gm(words);
  int32_t* out = to_gm(std::vector<int32_t>(2, 0));
  dev.launch("list_no_shapes", 1, [&] {
    ListTensorDesc l;
    l.Init(list);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer(out, 2);
    o.SetValue(0, static_cast<int32_t>(l.GetSize()));
    GlobalTensor<int32_t> data;
    data.SetGlobalBuffer(l.GetDataPtr<int32_t>(0), 2);
    o.SetValue(1, data.GetValue(1));
  });
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 12);
}

TEST(KernelNames, ErrorListTensorDescIndexOutOfRange) {
  auto& dev = make_device({}, "ascend910b");
  float* t0 = to_gm(std::vector<float>(8, 0));
  const HostList host = list_of({{8}}, {t0});
  uint64_t* list = to_gm(host.words);
  std::string e = kernel_error(dev, 1, [&] {
    ListTensorDesc l(list);
    (void)l.GetDataPtr<float>(1);
  });
  EXPECT_THAT(e, IsCoreError("aiv0", "ListTensorDesc::GetDataPtr", "index 1 out of the list's 1 tensors"));
}

TEST(KernelNames, ErrorListTensorDescLengthDisagrees) {
  auto& dev = make_device({}, "ascend910b");
  float* t0 = to_gm(std::vector<float>(8, 0));
  const HostList host = list_of({{8}}, {t0});
  uint64_t* list = to_gm(host.words);
  std::string e = kernel_error(dev, 1, [&] { ListTensorDesc l(list, 100, 1); });
  EXPECT_THAT(e, IsCoreError("aiv0", "ListTensorDesc::Init", "the list is 32 B, length says 100"));
}

TEST(KernelNames, StdUtilities) {
  static_assert(Std::is_same<Std::conditional_t<true, int, float>, int>::value, "");
  static_assert(Std::is_floating_point<half>::value && Std::is_floating_point<bfloat16_t>::value, "");
  static_assert(!Std::is_integral<float>::value && Std::is_integral<uint8_t>::value, "");
  static_assert(Std::integral_constant<int, 3>::value == 3, "");
  static_assert(Std::max(2, 5) == 5 && Std::min(2u, 5u) == 2u, "");
  static_assert(Std::tuple_size<Std::tuple<int, float, char>>::value == 3, "");
  static_assert(Std::is_same<Std::make_index_sequence<3>, Std::index_sequence<0, 1, 2>>::value, "");
  auto t = Std::make_tuple(int8_t(-3), half(2.0f), 7u);
  Std::get<2>(t) = 9u;
  EXPECT_EQ(Std::get<0>(t), -3);
  EXPECT_EQ(Std::get<2>(t), 9u);
  EXPECT_EQ(Std::abs(int16_t(-7)), 7);
  EXPECT_EQ(static_cast<float>(Std::abs(half(-1.5f))), 1.5f);
  EXPECT_EQ(Std::sqrt(16.0f), 4.0f);
  EXPECT_EQ(static_cast<float>(Std::sqrt(half(9.0f))), 3.0f);
}

}  // namespace kernel_names_test

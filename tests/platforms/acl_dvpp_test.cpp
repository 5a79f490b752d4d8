// The acldvpp subset (acl/ops/acl_dvpp.h, issue 28) on the virtual device: results through the
// ACL API equal the engines' functions, CANN's parameter limits give ACL_ERROR_INVALID_PARAM
// with a reason, a job's time follows its engine's throughput, and DVPP, AI Core and AI CPU
// work on one stream runs in issue order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/npuvp_aicpu.h"
#include "acl/ops/acl_dvpp.h"
#include "kernel_operator.h"
#include "models/soc/aicpu.h"
#include "models/soc/dvpp_image.h"
#include "models/soc/dvpp.h"
#include "platforms/ascend_soc.h"
#include "sw/kernels/image_pipeline.h"
#include "sw/runtime/device.h"

namespace acl_dvpp_test {
using ::testing::HasSubstr;
using npuvp::Device;
namespace img = npuvp::soc::dvpp;

// The descriptors a test creates, destroyed when its Dvpp goes (newest first), as a CANN
// program must destroy them: these tests also run under LeakSanitizer.
std::vector<std::function<void()>>& to_destroy() {
  static std::vector<std::function<void()>> list;
  return list;
}
template <typename T>
T* owned(T* created, aclError (*destroy)(T*)) {
  to_destroy().push_back([created, destroy] { EXPECT_EQ(destroy(created), ACL_SUCCESS); });
  return created;
}

struct Dvpp {
  aclrtStream stream = nullptr;
  acldvppChannelDesc* channel = nullptr;
  explicit Dvpp(const std::string& platform) {
    Device::configure(platform);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    channel = owned(acldvppCreateChannelDesc(), acldvppDestroyChannelDesc);
    EXPECT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
  }
  ~Dvpp() {
    (void)aclrtSynchronizeStream(stream);  // no job left that reads a descriptor
    EXPECT_EQ(acldvppDestroyChannel(channel), ACL_SUCCESS);
    for (auto d = to_destroy().rbegin(); d != to_destroy().rend(); ++d) (*d)();
    to_destroy().clear();
  }
  void* upload(const std::vector<uint8_t>& bytes) {
    void* p = nullptr;
    EXPECT_EQ(acldvppMalloc(&p, bytes.size()), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(p, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    return p;
  }
  void* alloc(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(acldvppMalloc(&p, n), ACL_SUCCESS);
    return p;
  }
};

acldvppPicDesc* pic(void* data, uint32_t size, acldvppPixelFormat f, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
  acldvppPicDesc* d = owned(acldvppCreatePicDesc(), acldvppDestroyPicDesc);
  acldvppSetPicDescData(d, data);
  acldvppSetPicDescSize(d, size);
  acldvppSetPicDescFormat(d, f);
  acldvppSetPicDescWidth(d, w);
  acldvppSetPicDescHeight(d, h);
  acldvppSetPicDescWidthStride(d, ws);
  acldvppSetPicDescHeightStride(d, hs);
  return d;
}

std::string recent_error() {
  const char* m = aclGetRecentErrMsg();
  return m ? m : "";
}

TEST(AclDvppTest, JpegDecodeAndResizeEqualTheEnginesFunctions) {
  Dvpp d("ascend310p");
  const auto jpeg = npuvp::kernels::make_sample_jpeg(200, 120);
  void* in = d.upload(jpeg);
  uint32_t w = 0, h = 0;
  int32_t comps = 0;
  ASSERT_EQ(acldvppJpegGetImageInfo(jpeg.data(), uint32_t(jpeg.size()), &w, &h, &comps), ACL_SUCCESS);
  EXPECT_EQ(w, 200u);
  EXPECT_EQ(h, 120u);
  EXPECT_EQ(comps, 3);
  uint32_t size = 0;
  ASSERT_EQ(acldvppJpegPredictDecSize(in, uint32_t(jpeg.size()), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 256u * 128 * 3 / 2) << "310P: widthStride aligned to 64, heightStride to 16";
  void* out = d.alloc(size);
  acldvppPicDesc* dec = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, 256, 128);
  ASSERT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_SUCCESS) << recent_error();
  ASSERT_EQ(aclrtSynchronizeStream(d.stream), ACL_SUCCESS);
  std::vector<uint8_t> want(size), got(size);
  img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), {img::kNv12, w, h, 256, 128, want.data(), size});
  ASSERT_EQ(aclrtMemcpy(got.data(), size, out, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got, want);

  void* small = d.alloc(64 * 48 * 3 / 2);
  acldvppPicDesc* res = pic(small, 64 * 48 * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 48, 64, 48);
  acldvppResizeConfig* cfg = owned(acldvppCreateResizeConfig(), acldvppDestroyResizeConfig);
  ASSERT_EQ(acldvppSetResizeConfigInterpolation(cfg, 2), ACL_SUCCESS);
  ASSERT_EQ(acldvppVpcResizeAsync(d.channel, dec, res, cfg, d.stream), ACL_SUCCESS) << recent_error();
  std::vector<uint8_t> want2(64 * 48 * 3 / 2), got2(want2.size());
  img::vpc_crop_resize_paste({img::kNv12, w, h, 256, 128, want.data(), size}, {0, w - 1, 0, h - 1},
                             {img::kNv12, 64, 48, 64, 48, want2.data(), want2.size()}, {0, 63, 0, 47},
                             img::Interpolation::Nearest);
  ASSERT_EQ(aclrtMemcpy(got2.data(), got2.size(), small, got2.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got2, want2);
  EXPECT_EQ(Device::instance().soc().dvpp().jobs(npuvp::soc::Dvpp::Engine::Jpegd), 1u);
  EXPECT_EQ(Device::instance().soc().dvpp().jobs(npuvp::soc::Dvpp::Engine::Vpc), 1u);
}

TEST(AclDvppTest, ParameterLimitsAreInvalidParam) {
  Dvpp d("ascend910b");
  const auto jpeg = npuvp::kernels::make_sample_jpeg(64, 64);
  void* in = d.upload(jpeg);
  void* buf = d.alloc(128 * 64 * 3 / 2);
  // JPEGD on 910B: widthStride a multiple of 128.
  acldvppPicDesc* dec = pic(buf, 128 * 64 * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
  EXPECT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("widthStride must be a multiple of 128"));
  // JPEG data in host memory.
  acldvppSetPicDescWidthStride(dec, 128);
  EXPECT_EQ(acldvppJpegDecodeAsync(d.channel, jpeg.data(), uint32_t(jpeg.size()), dec, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("not device memory"));
  // A channel never created.
  acldvppChannelDesc* idle = owned(acldvppCreateChannelDesc(), acldvppDestroyChannelDesc);
  EXPECT_EQ(acldvppJpegDecodeAsync(idle, in, uint32_t(jpeg.size()), dec, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_SUCCESS) << recent_error();
  // VPC: stride not a multiple of 16, a picture below 10x6, an odd ROI, a scale above 16.
  void* o = d.alloc(4096 * 64);
  acldvppResizeConfig* cfg = owned(acldvppCreateResizeConfig(), acldvppDestroyResizeConfig);
  acldvppPicDesc* bad = pic(o, 4096 * 64, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 40, 20, 40, 20);
  EXPECT_EQ(acldvppVpcResizeAsync(d.channel, dec, bad, cfg, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("widthStride 40 must be a multiple of 16"));
  acldvppPicDesc* tiny = pic(o, 4096 * 64, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 8, 4, 32, 6);
  EXPECT_EQ(acldvppVpcResizeAsync(d.channel, dec, tiny, cfg, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("VPC images are 10x6 to 4096x4096"));
  acldvppPicDesc* huge = pic(o, 4096 * 64, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 2048, 16, 2048, 16);
  EXPECT_EQ(acldvppVpcResizeAsync(d.channel, dec, huge, cfg, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("outside [1/32, 16]"));
  acldvppPicDesc* ok = pic(o, 4096 * 64, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 32, 32, 32);
  acldvppRoiConfig* roi = owned(acldvppCreateRoiConfig(1, 30, 0, 31), acldvppDestroyRoiConfig);
  EXPECT_EQ(acldvppVpcCropAsync(d.channel, dec, ok, roi, d.stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("left and top must be even, right and bottom odd"));
  ASSERT_EQ(acldvppSetRoiConfig(roi, 2, 33, 0, 31), ACL_SUCCESS);
  EXPECT_EQ(acldvppVpcCropAsync(d.channel, dec, ok, roi, d.stream), ACL_SUCCESS) << recent_error();
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(cfg, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(d.stream), ACL_SUCCESS);
}

// JPEGD is engine-bound: a picture with 4x the pixels takes about 4x as long; so does a VPC
// resize to 4x the output pixels.
TEST(AclDvppTest, JobTimeFollowsTheEnginesThroughput) {
  Dvpp d("ascend310p");
  auto decode = [&](uint32_t side) {
    const auto jpeg = npuvp::kernels::make_sample_jpeg(side, side);
    void* in = d.upload(jpeg);
    const uint32_t bytes = side * side * 3 / 2;
    void* out = d.alloc(bytes);
    acldvppPicDesc* dec = pic(out, bytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420, side, side, side, side);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    EXPECT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_SUCCESS) << recent_error();
    return std::pair{dec, sc_core::sc_time_stamp() - t0};
  };
  auto [small, t_small] = decode(256);
  auto [big, t_big] = decode(512);
  const double ratio = t_big / t_small;
  EXPECT_GT(ratio, 3.4);
  EXPECT_LT(ratio, 4.3);
  // 512 x 512 at 128 1080p frames per second (265 Mpixel/s) is ~0.99 ms.
  EXPECT_NEAR(t_big.to_seconds(), 512.0 * 512 / (128 * 1920 * 1080.0), 0.15e-3);
  auto resize = [&](acldvppPicDesc* src, uint32_t side) {
    const uint32_t bytes = side * side * 3 / 2;
    acldvppPicDesc* out = pic(d.alloc(bytes), bytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420, side, side, side, side);
    acldvppResizeConfig* cfg = owned(acldvppCreateResizeConfig(), acldvppDestroyResizeConfig);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    EXPECT_EQ(acldvppVpcResizeAsync(d.channel, src, out, cfg, d.stream), ACL_SUCCESS) << recent_error();
    return sc_core::sc_time_stamp() - t0;
  };
  // Upscaling: the output's pixels set the VPC's time.
  const double vpc_ratio = resize(big, 2048) / resize(big, 1024);
  EXPECT_GT(vpc_ratio, 3.0);
  EXPECT_LT(vpc_ratio, 4.3);
}

// One stream: DVPP decode, an AI Core kernel copying the picture, an AI CPU kernel reading the
// copy. Each starts after the one before has finished, and the data flows through all three.
TEST(AclDvppTest, DvppAiCoreAndAiCpuRunInStreamOrder) {
  Dvpp d("ascend310p");
  npuvp::soc::AicpuRegistry::global().add(
      {"SumBytes", "test: sum of n bytes into an int64", [](npuvp::soc::AicpuContext& ctx) {
         const auto n = uint64_t(ctx.args().ints.at(0));
         const uint8_t* x = ctx.input<uint8_t>(ctx.args().tensors.at(0), n);
         int64_t* out = ctx.output<int64_t>(ctx.args().tensors.at(1), 1);
         ctx.charge(npuvp::soc::AicpuOpClass::Arithmetic, double(n));
         *out = std::accumulate(x, x + n, int64_t(0));
       }, nullptr});
  const uint32_t side = 64, bytes = side * side * 3 / 2;
  const auto jpeg = npuvp::kernels::make_sample_jpeg(side, side);
  void* in = d.upload(jpeg);
  void* decoded = d.alloc(bytes);
  void* copy = d.alloc(bytes);
  void* sum = d.alloc(8);
  acldvppPicDesc* dec = pic(decoded, bytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420, side, side, side, side);
  std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> spans;
  auto timed = [&](auto&& f) {
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    f();
    spans.emplace_back(t0, sc_core::sc_time_stamp());
  };
  timed([&] { ASSERT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_SUCCESS); });
  timed([&] {
    Device::instance().launch("copy_picture", 1, [&] {
      using namespace AscendC;
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, bytes);
      GlobalTensor<uint8_t> src, dst;
      src.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(decoded), bytes);
      dst.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(copy), bytes);
      LocalTensor<uint8_t> t = buf.Get<uint8_t>();
      DataCopy(t, src, bytes);
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      DataCopy(dst, t, bytes);
    });
  });
  void* tensors[] = {copy, sum};
  const int64_t ints[] = {int64_t(bytes)};
  timed([&] { ASSERT_EQ(npuvpAicpuLaunch("SumBytes", 1, tensors, 2, ints, 1, nullptr, 0, d.stream), ACL_SUCCESS) << recent_error(); });
  ASSERT_EQ(aclrtSynchronizeStream(d.stream), ACL_SUCCESS);
  for (size_t i = 0; i < spans.size(); ++i) {
    EXPECT_GT(spans[i].second, spans[i].first) << "stage " << i << " took time";
    if (i) {
      EXPECT_GE(spans[i].first, spans[i - 1].second) << "stage " << i << " started before " << i - 1 << " ended";
    }
  }
  std::vector<uint8_t> want(bytes);
  img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), {img::kNv12, side, side, side, side, want.data(), bytes});
  int64_t got = 0;
  ASSERT_EQ(aclrtMemcpy(&got, 8, sum, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got, std::accumulate(want.begin(), want.end(), int64_t(0)));
  EXPECT_EQ(npuvpAicpuLaunch("NoSuchKernel", 1, tensors, 2, ints, 1, nullptr, 0, d.stream), ACL_ERROR_INVALID_PARAM);
}

TEST(AclDvppTest, JpegEncodeAndPngDecode) {
  Dvpp d("ascend310p");
  const uint32_t side = 64, bytes = side * side * 3 / 2;
  const auto jpeg = npuvp::kernels::make_sample_jpeg(side, side);
  void* in = d.upload(jpeg);
  void* decoded = d.alloc(bytes);
  acldvppPicDesc* dec = pic(decoded, bytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420, side, side, side, side);
  ASSERT_EQ(acldvppJpegDecodeAsync(d.channel, in, uint32_t(jpeg.size()), dec, d.stream), ACL_SUCCESS);
  acldvppJpegeConfig* cfg = owned(acldvppCreateJpegeConfig(), acldvppDestroyJpegeConfig);
  ASSERT_EQ(acldvppSetJpegeConfigLevel(cfg, 90), ACL_SUCCESS);
  uint32_t size = 0;
  ASSERT_EQ(acldvppJpegPredictEncSize(dec, cfg, &size), ACL_SUCCESS);
  void* out = d.alloc(size);
  ASSERT_EQ(acldvppJpegEncodeAsync(d.channel, dec, out, &size, cfg, d.stream), ACL_SUCCESS) << recent_error();
  std::vector<uint8_t> encoded(size);
  ASSERT_EQ(aclrtMemcpy(encoded.data(), size, out, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  uint32_t w = 0, h = 0;
  ASSERT_EQ(acldvppJpegGetImageInfo(encoded.data(), size, &w, &h, nullptr), ACL_SUCCESS);
  EXPECT_EQ(w, side);
  EXPECT_EQ(Device::instance().soc().dvpp().jobs(npuvp::soc::Dvpp::Engine::Jpege), 1u);
  EXPECT_EQ(acldvppSetJpegeConfigLevel(cfg, 101), ACL_ERROR_INVALID_PARAM);
}

}  // namespace acl_dvpp_test

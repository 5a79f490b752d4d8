// The acldvpp subset (issue 28, docs/acl-runtime.md "DVPP") on the DVPP block of the virtual
// device (models/soc/dvpp.h). Each call checks its parameters the way CANN's documentation
// states them (returning ACL_ERROR_INVALID_PARAM with the reason in aclGetRecentErrMsg), then
// runs the job in stream order: the engine computes the result (models/soc/dvpp_image.h) and
// the DVPP's DMA and engine time it.
//
// Limits (CANN API reference, Atlas inference products unless noted):
//   VPC resize/crop (acldvppVpcResizeAsync, aclcppdevg_03_0339.html; acldvppSetPicDescWidthStride):
//     input and output images 10x6 .. 4096x4096; widthStride a multiple of 16 (YUV420SP: >= width,
//     RGB888/BGR888: >= width x 3), 32 .. 16384; heightStride a multiple of 2, >= height, 6 .. 4096;
//     scaling 1/32 .. 16 each way; YUV420SP widths and heights even; ROI left/top even, right/bottom odd.
//   JPEGD (acldvppJpegDecodeAsync): images 32x32 .. 8192x8192; output YUV420SP with widthStride a
//     multiple of 128 (64 on Ascend 310P) and heightStride a multiple of 16.
//   JPEGE (acldvppJpegEncodeAsync): YUV420SP input 32x32 .. 8192x8192, widthStride a multiple of 16,
//     heightStride a multiple of 2; level 0 .. 100.
//   PNGD (acldvppPngDecodeAsync): images 32x32 .. 4096x4096; output RGB888, widthStride a multiple
//     of 128 (>= width x 3), heightStride a multiple of 16.
#include "acl/ops/acl_dvpp.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <fmt/format.h>

#include "models/check/sanitizer.h"
#include "models/soc/dvpp_image.h"
#include "models/soc/dvpp.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/acl/stream_work.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"

struct acldvppPicDesc {
  void* data = nullptr;
  uint32_t size = 0;
  acldvppPixelFormat format = PIXEL_FORMAT_YUV_400;
  uint32_t width = 0, height = 0, width_stride = 0, height_stride = 0;
  uint32_t ret_code = 0;
};
struct acldvppRoiConfig {
  uint32_t left = 0, right = 0, top = 0, bottom = 0;
};
struct acldvppResizeConfig {
  uint32_t interpolation = 0;
};
struct acldvppJpegeConfig {
  uint32_t level = 100;
};
struct acldvppChannelDesc {
  uint64_t id = 0;
  uint32_t mode = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE;
  bool created = false;
};

namespace {

using npuvp::Device;
using npuvp::soc::Dvpp;
namespace img = npuvp::soc::dvpp;

std::mutex g_mutex;
std::set<const acldvppChannelDesc*> g_channels;  // live channel descriptions
uint64_t g_next_channel = 0;

template <class... Args>
aclError invalid(const char* api, fmt::format_string<Args...> f, Args&&... args) {
  const std::string text = fmt::format(f, std::forward<Args>(args)...);
  return npuvp::acl::record_error(ACL_ERROR_INVALID_PARAM, api, text.c_str());
}

// The GM device address of [p, p + bytes), or 0 if it is not device memory.
uint64_t gm_address(const void* p, uint64_t bytes) {
  auto& soc = Device::instance().soc();
  const uint8_t* base = soc.gm().data();
  const auto* q = static_cast<const uint8_t*>(p);
  if (q < base || uint64_t(q - base) > soc.params().gm_size || bytes > soc.params().gm_size - uint64_t(q - base)) {
    return 0;
  }
  return soc.params().gm_base + uint64_t(q - base);
}

aclError check_channel(const char* api, const acldvppChannelDesc* channel) {
  if (!channel) return invalid(api, "channelDesc is a null pointer");
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_channels.count(channel) || !channel->created) {
    return invalid(api, "channelDesc {} is not a channel acldvppCreateChannel created", static_cast<const void*>(channel));
  }
  return ACL_SUCCESS;
}

bool supported(uint32_t f) { return img::is_yuv420sp(f) || img::is_packed_rgb(f); }

// VPC picture checks (see the limits above); `what` is "inputDesc" or "outputDesc".
aclError check_vpc_picture(const char* api, const char* what, const acldvppPicDesc* d) {
  if (!d) return invalid(api, "{} is a null pointer", what);
  if (!supported(d->format)) {
    return invalid(api, "{} format {} ({}) is not one npuvp's VPC reads or writes (YUV420SP NV12/NV21, RGB888, BGR888)",
                   what, uint32_t(d->format), img::format_name(d->format));
  }
  if (d->width < 10 || d->width > 4096 || d->height < 6 || d->height > 4096) {
    return invalid(api, "{} is {}x{}: VPC images are 10x6 to 4096x4096", what, d->width, d->height);
  }
  const bool yuv = img::is_yuv420sp(d->format);
  const uint32_t row = yuv ? d->width : d->width * 3;
  if (d->width_stride % 16 != 0 || d->width_stride < row || d->width_stride < 32 || d->width_stride > 16384) {
    return invalid(api, "{} widthStride {} must be a multiple of 16 in [32, 16384] and at least {} ({} x {})", what,
                   d->width_stride, row, d->width, yuv ? 1 : 3);
  }
  if (d->height_stride % 2 != 0 || d->height_stride < d->height || d->height_stride < 6 || d->height_stride > 4096) {
    return invalid(api, "{} heightStride {} must be even, in [6, 4096] and at least the height {}", what,
                   d->height_stride, d->height);
  }
  if (yuv && (d->width % 2 != 0 || d->height % 2 != 0)) {
    return invalid(api, "{} is {}x{}: YUV420SP widths and heights must be even", what, d->width, d->height);
  }
  const uint64_t need = img::picture_bytes(d->format, d->width_stride, d->height_stride);
  if (!d->data) return invalid(api, "{} has no data (acldvppSetPicDescData)", what);
  if (d->size < need) return invalid(api, "{} size {} is below the {} bytes its strides need", what, d->size, need);
  if (!gm_address(d->data, d->size)) {
    return invalid(api, "{} data {} is not device memory (acldvppMalloc)", what, d->data);
  }
  return ACL_SUCCESS;
}

img::Picture picture_of(const acldvppPicDesc* d) {
  img::Picture p;
  p.format = d->format;
  p.width = d->width;
  p.height = d->height;
  p.width_stride = d->width_stride;
  p.height_stride = d->height_stride;
  p.data = static_cast<uint8_t*>(d->data);
  p.size = d->size;
  return p;
}

void mark_written(const void* p, uint64_t bytes) {
  if (auto* san = npuvp::check::Sanitizer::active()) san->host_write(gm_address(p, bytes), bytes);
}

aclError vpc(const char* api, acldvppChannelDesc* channel, acldvppPicDesc* in, acldvppPicDesc* out,
             const acldvppRoiConfig* crop, const acldvppRoiConfig* paste, uint32_t interpolation, aclrtStream stream) {
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (aclError e = check_channel(api, channel)) return e;
  if (aclError e = check_vpc_picture(api, "inputDesc", in)) return e;
  if (aclError e = check_vpc_picture(api, "outputDesc", out)) return e;
  if (interpolation > 2) return invalid(api, "interpolation {} is not 0 (default), 1 (bilinear) or 2 (nearest)", interpolation);
  img::Rect c{0, in->width - 1, 0, in->height - 1}, p{0, out->width - 1, 0, out->height - 1};
  for (auto [area, rect, name, pic] : {std::tuple{crop, &c, "cropArea", in}, std::tuple{paste, &p, "pasteArea", out}}) {
    if (!area) continue;
    if (area->left % 2 || area->top % 2 || area->right % 2 == 0 || area->bottom % 2 == 0) {
      return invalid(api, "{} [{}, {}] x [{}, {}]: left and top must be even, right and bottom odd", name, area->left,
                     area->right, area->top, area->bottom);
    }
    if (area->right >= pic->width || area->bottom >= pic->height || area->left >= area->right ||
        area->top >= area->bottom) {
      return invalid(api, "{} [{}, {}] x [{}, {}] is not inside the {}x{} picture", name, area->left, area->right,
                     area->top, area->bottom, pic->width, pic->height);
    }
    *rect = {area->left, area->right, area->top, area->bottom};
    if (rect->right - rect->left + 1 < 10 || rect->bottom - rect->top + 1 < 6) {
      return invalid(api, "{} is {}x{}: areas are at least 10x6", name, rect->right - rect->left + 1,
                     rect->bottom - rect->top + 1);
    }
  }
  const double sx = double(p.right - p.left + 1) / double(c.right - c.left + 1);
  const double sy = double(p.bottom - p.top + 1) / double(c.bottom - c.top + 1);
  if (sx < 1.0 / 32 || sx > 16 || sy < 1.0 / 32 || sy > 16) {
    return invalid(api, "scaling {:.4g} x {:.4g} is outside [1/32, 16]", sx, sy);
  }
  Dvpp::Job job;
  job.engine = Dvpp::Engine::Vpc;
  const uint32_t ow = p.right - p.left + 1, oh = p.bottom - p.top + 1;
  job.what = fmt::format("{} {}x{} {} -> {}x{} {}", api, c.right - c.left + 1, c.bottom - c.top + 1,
                         img::format_name(in->format), ow, oh, img::format_name(out->format));
  job.pixels = double(std::max<uint64_t>(uint64_t(ow) * oh, uint64_t(c.right - c.left + 1) * (c.bottom - c.top + 1)));
  job.reads.push_back({gm_address(in->data, in->size), img::picture_bytes(in->format, in->width_stride, in->height_stride)});
  job.writes.push_back({gm_address(out->data, out->size), img::picture_bytes(out->format, out->width_stride, out->height_stride)});
  const img::Picture pin = picture_of(in), pout = picture_of(out);
  job.work = [=] { img::vpc_crop_resize_paste(pin, c, pout, p, img::Interpolation(interpolation)); };
  return npuvp::acl::run_on_stream(stream, api, ACL_ERROR_FAILURE, [&] {
    Device::instance().soc().dvpp().run(std::move(job));
    mark_written(out->data, out->size);
  });
}

}  // namespace

extern "C" {

aclError acldvppMalloc(void** devPtr, size_t size) {
  if (!devPtr) return invalid("acldvppMalloc", "devPtr is a null pointer");
  if (size == 0) return invalid("acldvppMalloc", "size is 0");
  return aclrtMalloc(devPtr, (size + 31) / 32 * 32 + 32, ACL_MEM_MALLOC_HUGE_FIRST);
}

aclError acldvppFree(void* devPtr) { return aclrtFree(devPtr); }

acldvppChannelDesc* acldvppCreateChannelDesc(void) {
  auto* d = new acldvppChannelDesc;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_channels.insert(d);
  return d;
}

aclError acldvppDestroyChannelDesc(acldvppChannelDesc* channelDesc) {
  if (!channelDesc) return invalid("acldvppDestroyChannelDesc", "channelDesc is a null pointer");
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_channels.erase(channelDesc)) {
    return invalid("acldvppDestroyChannelDesc", "{} is not a live channel description", static_cast<void*>(channelDesc));
  }
  delete channelDesc;
  return ACL_SUCCESS;
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc* channelDesc, uint32_t mode) {
  if (!channelDesc) return invalid("acldvppSetChannelDescMode", "channelDesc is a null pointer");
  if (mode == 0 || (mode & ~uint32_t(DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE)) != 0) {
    return invalid("acldvppSetChannelDescMode", "mode {} is not a combination of DVPP_CHNMODE_VPC/JPEGD/JPEGE", mode);
  }
  channelDesc->mode = mode;
  return ACL_SUCCESS;
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* channelDesc) {
  return channelDesc ? channelDesc->id : 0;
}

aclError acldvppCreateChannel(acldvppChannelDesc* channelDesc) {
  const char* api = "acldvppCreateChannel";
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (!channelDesc) return invalid(api, "channelDesc is a null pointer");
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_channels.count(channelDesc)) return invalid(api, "channelDesc is not from acldvppCreateChannelDesc");
  if (channelDesc->created) return invalid(api, "channel {} is already created", channelDesc->id);
  channelDesc->created = true;
  channelDesc->id = g_next_channel++;
  return ACL_SUCCESS;
}

aclError acldvppDestroyChannel(acldvppChannelDesc* channelDesc) {
  const char* api = "acldvppDestroyChannel";
  if (aclError e = check_channel(api, channelDesc)) return e;
  channelDesc->created = false;
  return ACL_SUCCESS;
}

acldvppPicDesc* acldvppCreatePicDesc(void) { return new acldvppPicDesc; }
aclError acldvppDestroyPicDesc(acldvppPicDesc* picDesc) {
  if (!picDesc) return invalid("acldvppDestroyPicDesc", "picDesc is a null pointer");
  delete picDesc;
  return ACL_SUCCESS;
}

#define NPUVP_PIC_SETTER(Name, field, Type)                                              \
  aclError acldvppSetPicDesc##Name(acldvppPicDesc* picDesc, Type value) {               \
    if (!picDesc) return invalid("acldvppSetPicDesc" #Name, "picDesc is a null pointer"); \
    picDesc->field = value;                                                              \
    return ACL_SUCCESS;                                                                  \
  }
NPUVP_PIC_SETTER(Data, data, void*)
NPUVP_PIC_SETTER(Size, size, uint32_t)
NPUVP_PIC_SETTER(Format, format, acldvppPixelFormat)
NPUVP_PIC_SETTER(Width, width, uint32_t)
NPUVP_PIC_SETTER(Height, height, uint32_t)
NPUVP_PIC_SETTER(WidthStride, width_stride, uint32_t)
NPUVP_PIC_SETTER(HeightStride, height_stride, uint32_t)
NPUVP_PIC_SETTER(RetCode, ret_code, uint32_t)
#undef NPUVP_PIC_SETTER

void* acldvppGetPicDescData(const acldvppPicDesc* d) { return d ? d->data : nullptr; }
uint32_t acldvppGetPicDescSize(const acldvppPicDesc* d) { return d ? d->size : 0; }
acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc* d) { return d ? d->format : PIXEL_FORMAT_YUV_400; }
uint32_t acldvppGetPicDescWidth(const acldvppPicDesc* d) { return d ? d->width : 0; }
uint32_t acldvppGetPicDescHeight(const acldvppPicDesc* d) { return d ? d->height : 0; }
uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc* d) { return d ? d->width_stride : 0; }
uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc* d) { return d ? d->height_stride : 0; }
uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc* d) { return d ? d->ret_code : 0; }

acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top, uint32_t bottom) {
  return new acldvppRoiConfig{left, right, top, bottom};
}
aclError acldvppDestroyRoiConfig(acldvppRoiConfig* roiConfig) {
  if (!roiConfig) return invalid("acldvppDestroyRoiConfig", "roiConfig is a null pointer");
  delete roiConfig;
  return ACL_SUCCESS;
}
aclError acldvppSetRoiConfig(acldvppRoiConfig* config, uint32_t left, uint32_t right, uint32_t top, uint32_t bottom) {
  if (!config) return invalid("acldvppSetRoiConfig", "config is a null pointer");
  *config = {left, right, top, bottom};
  return ACL_SUCCESS;
}

acldvppResizeConfig* acldvppCreateResizeConfig(void) { return new acldvppResizeConfig; }
aclError acldvppDestroyResizeConfig(acldvppResizeConfig* resizeConfig) {
  if (!resizeConfig) return invalid("acldvppDestroyResizeConfig", "resizeConfig is a null pointer");
  delete resizeConfig;
  return ACL_SUCCESS;
}
aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* resizeConfig, uint32_t interpolation) {
  if (!resizeConfig) return invalid("acldvppSetResizeConfigInterpolation", "resizeConfig is a null pointer");
  if (interpolation > 2) {
    return invalid("acldvppSetResizeConfigInterpolation", "interpolation {} is not 0 (default), 1 (bilinear) or 2 "
                   "(nearest neighbour)", interpolation);
  }
  resizeConfig->interpolation = interpolation;
  return ACL_SUCCESS;
}
uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* resizeConfig) {
  return resizeConfig ? resizeConfig->interpolation : 0;
}

acldvppJpegeConfig* acldvppCreateJpegeConfig(void) { return new acldvppJpegeConfig; }
aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* jpegeConfig) {
  if (!jpegeConfig) return invalid("acldvppDestroyJpegeConfig", "jpegeConfig is a null pointer");
  delete jpegeConfig;
  return ACL_SUCCESS;
}
aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* jpegeConfig, uint32_t level) {
  if (!jpegeConfig) return invalid("acldvppSetJpegeConfigLevel", "jpegeConfig is a null pointer");
  if (level > 100) return invalid("acldvppSetJpegeConfigLevel", "level {} is outside [0, 100]", level);
  jpegeConfig->level = level;
  return ACL_SUCCESS;
}
uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* jpegeConfig) { return jpegeConfig ? jpegeConfig->level : 0; }

aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                 int32_t* components) {
  const char* api = "acldvppJpegGetImageInfo";
  if (!data || size == 0) return invalid(api, "data is a null pointer or size is 0");
  try {
    const img::JpegInfo info = img::jpeg_info(static_cast<const uint8_t*>(data), size);
    if (width) *width = info.width;
    if (height) *height = info.height;
    if (components) *components = info.components;
  } catch (const std::exception& e) {
    return invalid(api, "{}", npuvp::error_text(e));
  }
  return ACL_SUCCESS;
}

aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width, uint32_t* height,
                                int32_t* components) {
  const char* api = "acldvppPngGetImageInfo";
  if (!data || dataSize == 0) return invalid(api, "data is a null pointer or dataSize is 0");
  try {
    const img::PngInfo info = img::png_info(static_cast<const uint8_t*>(data), dataSize);
    if (width) *width = info.width;
    if (height) *height = info.height;
    if (components) *components = info.alpha ? 4 : 3;
  } catch (const std::exception& e) {
    return invalid(api, "{}", npuvp::error_text(e));
  }
  return ACL_SUCCESS;
}

namespace {
uint32_t jpegd_width_align() {
  return Device::instance().soc().core(0).product() == npuvp::aicore::Product::Ascend310P ? 64 : 128;
}
}  // namespace

aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize, acldvppPixelFormat outputPixelFormat,
                                   uint32_t* decSize) {
  const char* api = "acldvppJpegPredictDecSize";
  if (!decSize) return invalid(api, "decSize is a null pointer");
  if (!img::is_yuv420sp(outputPixelFormat)) {
    return invalid(api, "output format {} is not YUV420SP (NV12/NV21), the format npuvp's JPEGD writes",
                   uint32_t(outputPixelFormat));
  }
  uint32_t w = 0, h = 0;
  if (aclError e = acldvppJpegGetImageInfo(data, dataSize, &w, &h, nullptr)) return e;
  *decSize = uint32_t(img::picture_bytes(outputPixelFormat, img::align_up(w, jpegd_width_align()), img::align_up(h, 16)));
  return ACL_SUCCESS;
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                acldvppPicDesc* outputDesc, aclrtStream stream) {
  const char* api = "acldvppJpegDecodeAsync";
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (aclError e = check_channel(api, channelDesc)) return e;
  if (!(channelDesc->mode & DVPP_CHNMODE_JPEGD)) return invalid(api, "the channel's mode has no DVPP_CHNMODE_JPEGD");
  if (!data || size == 0) return invalid(api, "data is a null pointer or size is 0");
  if (!outputDesc) return invalid(api, "outputDesc is a null pointer");
  const uint64_t in_address = gm_address(data, size);
  if (!in_address) return invalid(api, "data {} is not device memory (acldvppMalloc)", data);
  img::JpegInfo info;
  try {
    info = img::jpeg_info(static_cast<const uint8_t*>(data), size);
  } catch (const std::exception& e) {
    return invalid(api, "{}", npuvp::error_text(e));
  }
  if (info.width < 32 || info.width > 8192 || info.height < 32 || info.height > 8192) {
    return invalid(api, "the JPEG is {}x{}: JPEGD decodes 32x32 to 8192x8192", info.width, info.height);
  }
  acldvppPicDesc& o = *outputDesc;
  if (!img::is_yuv420sp(o.format)) {
    return invalid(api, "outputDesc format {} ({}): npuvp's JPEGD writes YUV420SP NV12 or NV21", uint32_t(o.format),
                   img::format_name(o.format));
  }
  // The decoder writes the image's own size; a description with another (non-zero) size is refused.
  if ((o.width && o.width != info.width) || (o.height && o.height != info.height)) {
    return invalid(api, "outputDesc is {}x{} but the JPEG is {}x{}", o.width, o.height, info.width, info.height);
  }
  const uint32_t wa = jpegd_width_align();
  if (o.width_stride % wa != 0 || o.width_stride < info.width || o.height_stride % 16 != 0 ||
      o.height_stride < info.height) {
    return invalid(api, "outputDesc strides {}x{}: widthStride must be a multiple of {} and heightStride of 16, at "
                   "least the image's {}x{}", o.width_stride, o.height_stride, wa, info.width, info.height);
  }
  const uint64_t need = img::picture_bytes(o.format, o.width_stride, o.height_stride);
  if (!o.data || o.size < need || !gm_address(o.data, o.size)) {
    return invalid(api, "outputDesc needs {} bytes of device memory (acldvppMalloc); it has {} at {}", need, o.size, o.data);
  }
  o.width = info.width;
  o.height = info.height;
  Dvpp::Job job;
  job.engine = Dvpp::Engine::Jpegd;
  job.what = fmt::format("JpegDecode {}x{} ({} B) -> {}", info.width, info.height, size, img::format_name(o.format));
  job.pixels = double(info.width) * info.height;
  job.reads.push_back({in_address, size});
  job.writes.push_back({gm_address(o.data, need), need});
  const img::Picture out = picture_of(outputDesc);
  const auto* bytes = static_cast<const uint8_t*>(data);
  job.work = [=] { img::jpeg_decode_yuv420sp(bytes, size, out); };
  return npuvp::acl::run_on_stream(stream, api, ACL_ERROR_FAILURE, [&] {
    Device::instance().soc().dvpp().run(std::move(job));
    mark_written(o.data, need);
  });
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                               acldvppPicDesc* outputDesc, aclrtStream stream) {
  const char* api = "acldvppPngDecodeAsync";
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (aclError e = check_channel(api, channelDesc)) return e;
  if (!data || size == 0) return invalid(api, "data is a null pointer or size is 0");
  if (!outputDesc) return invalid(api, "outputDesc is a null pointer");
  const uint64_t in_address = gm_address(data, size);
  if (!in_address) return invalid(api, "data {} is not device memory (acldvppMalloc)", data);
  img::PngInfo info;
  try {
    info = img::png_info(static_cast<const uint8_t*>(data), size);
  } catch (const std::exception& e) {
    return invalid(api, "{}", npuvp::error_text(e));
  }
  if (info.width < 32 || info.width > 4096 || info.height < 32 || info.height > 4096) {
    return invalid(api, "the PNG is {}x{}: PNGD decodes 32x32 to 4096x4096", info.width, info.height);
  }
  acldvppPicDesc& o = *outputDesc;
  if (!img::is_packed_rgb(o.format)) return invalid(api, "outputDesc format {}: npuvp's PNGD writes RGB888", uint32_t(o.format));
  if (o.width_stride % 128 != 0 || o.width_stride < info.width * 3 || o.height_stride % 16 != 0 ||
      o.height_stride < info.height) {
    return invalid(api, "outputDesc strides {}x{}: widthStride must be a multiple of 128 (>= width x 3) and "
                   "heightStride of 16 (>= height)", o.width_stride, o.height_stride);
  }
  const uint64_t need = uint64_t(o.width_stride) * o.height_stride;
  if (!o.data || o.size < need || !gm_address(o.data, o.size)) {
    return invalid(api, "outputDesc needs {} bytes of device memory; it has {}", need, o.size);
  }
  o.width = info.width;
  o.height = info.height;
  Dvpp::Job job;
  job.engine = Dvpp::Engine::Pngd;
  job.what = fmt::format("PngDecode {}x{} ({} B) -> RGB888", info.width, info.height, size);
  job.pixels = double(info.width) * info.height;
  job.reads.push_back({in_address, size});
  job.writes.push_back({gm_address(o.data, need), need});
  const img::Picture out = picture_of(outputDesc);
  const auto* bytes = static_cast<const uint8_t*>(data);
  job.work = [=] { img::png_decode_rgb(bytes, size, out); };
  return npuvp::acl::run_on_stream(stream, api, ACL_ERROR_FAILURE, [&] {
    Device::instance().soc().dvpp().run(std::move(job));
    mark_written(o.data, need);
  });
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc* inputDesc, const acldvppJpegeConfig* config, uint32_t* size) {
  const char* api = "acldvppJpegPredictEncSize";
  if (!inputDesc || !config || !size) return invalid(api, "inputDesc, config or size is a null pointer");
  // A bound, not a prediction: the YUV420SP bytes plus headers (JPEG never needs more at 4:2:0).
  *size = uint32_t(uint64_t(img::align_up(inputDesc->width, 16)) * img::align_up(inputDesc->height, 16) * 3 / 2 + 8192);
  return ACL_SUCCESS;
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, const void* data,
                                uint32_t* size, acldvppJpegeConfig* config, aclrtStream stream) {
  const char* api = "acldvppJpegEncodeAsync";
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (aclError e = check_channel(api, channelDesc)) return e;
  if (!(channelDesc->mode & DVPP_CHNMODE_JPEGE)) return invalid(api, "the channel's mode has no DVPP_CHNMODE_JPEGE");
  if (!inputDesc || !data || !size || !config) return invalid(api, "inputDesc, data, size or config is a null pointer");
  const acldvppPicDesc& i = *inputDesc;
  if (!img::is_yuv420sp(i.format)) return invalid(api, "inputDesc format {}: JPEGE reads YUV420SP NV12/NV21", uint32_t(i.format));
  if (i.width < 32 || i.width > 8192 || i.height < 32 || i.height > 8192) {
    return invalid(api, "inputDesc is {}x{}: JPEGE encodes 32x32 to 8192x8192", i.width, i.height);
  }
  if (i.width_stride % 16 != 0 || i.width_stride < i.width || i.height_stride % 2 != 0 || i.height_stride < i.height) {
    return invalid(api, "inputDesc strides {}x{}: widthStride a multiple of 16, heightStride of 2, at least {}x{}",
                   i.width_stride, i.height_stride, i.width, i.height);
  }
  const uint64_t in_bytes = img::picture_bytes(i.format, i.width_stride, i.height_stride);
  if (!i.data || i.size < in_bytes || !gm_address(i.data, i.size)) {
    return invalid(api, "inputDesc needs {} bytes of device memory; it has {}", in_bytes, i.size);
  }
  const uint64_t out_address = gm_address(data, *size);
  if (!out_address) return invalid(api, "data {} ({} bytes) is not device memory (acldvppMalloc)", data, *size);
  const img::Picture in = picture_of(inputDesc);
  const int quality = std::max<int>(1, int(config->level));
  std::vector<uint8_t> encoded;
  try {
    encoded = img::jpeg_encode_yuv420sp(in, quality);  // the engine's result (its size is known first)
  } catch (const std::exception& e) {
    return invalid(api, "{}", npuvp::error_text(e));
  }
  if (encoded.size() > *size) {
    return invalid(api, "the encoded picture takes {} bytes; the output buffer has {} (acldvppJpegPredictEncSize)",
                   encoded.size(), *size);
  }
  Dvpp::Job job;
  job.engine = Dvpp::Engine::Jpege;
  job.what = fmt::format("JpegEncode {}x{} level {} -> {} B", i.width, i.height, config->level, encoded.size());
  job.pixels = double(i.width) * i.height;
  job.reads.push_back({gm_address(i.data, in_bytes), in_bytes});
  job.writes.push_back({out_address, encoded.size()});
  auto* out = static_cast<uint8_t*>(const_cast<void*>(data));
  job.work = [out, &encoded] { std::memcpy(out, encoded.data(), encoded.size()); };
  const aclError e = npuvp::acl::run_on_stream(stream, api, ACL_ERROR_FAILURE, [&] {
    Device::instance().soc().dvpp().run(std::move(job));
    mark_written(out, encoded.size());
  });
  if (e == ACL_SUCCESS) *size = uint32_t(encoded.size());
  return e;
}

aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                               acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  if (!resizeConfig) return invalid("acldvppVpcResizeAsync", "resizeConfig is a null pointer");
  return vpc("acldvppVpcResizeAsync", channelDesc, inputDesc, outputDesc, nullptr, nullptr, resizeConfig->interpolation,
             stream);
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                             acldvppRoiConfig* cropArea, aclrtStream stream) {
  if (!cropArea) return invalid("acldvppVpcCropAsync", "cropArea is a null pointer");
  return vpc("acldvppVpcCropAsync", channelDesc, inputDesc, outputDesc, cropArea, nullptr, 0, stream);
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                     acldvppRoiConfig* pasteArea, aclrtStream stream) {
  if (!cropArea || !pasteArea) return invalid("acldvppVpcCropAndPasteAsync", "cropArea or pasteArea is a null pointer");
  return vpc("acldvppVpcCropAndPasteAsync", channelDesc, inputDesc, outputDesc, cropArea, pasteArea, 0, stream);
}

}  // extern "C"

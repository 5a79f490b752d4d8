// What the DVPP engines compute (issue 28): plain functions on host byte buffers, used by the
// DVPP block (models/soc/dvpp.h) for its data and by tests for their references. Pixel formats
// are CANN's acldvppPixelFormat values; pictures are laid out with width and height strides
// (CANN's widthStride/heightStride, in bytes of one row and rows of the luma plane).
//
// Colour: JPEG's full-range YCbCr (JFIF) both ways; YUV420SP has its chroma at half width and
// height, interleaved U,V (NV12) or V,U (NV21).
// Errors are npuvp::Error naming "dvpp" and the engine; the ACL layer turns its own parameter
// checks into CANN's error codes before it calls these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npuvp::soc::dvpp {

enum PixelFormat : uint32_t {  // acldvppPixelFormat's values
  kYuv400 = 0,
  kNv12 = 1,  // PIXEL_FORMAT_YUV_SEMIPLANAR_420
  kNv21 = 2,  // PIXEL_FORMAT_YVU_SEMIPLANAR_420
  kRgb888 = 12,
  kBgr888 = 13,
};
bool is_yuv420sp(uint32_t f);
bool is_packed_rgb(uint32_t f);
const char* format_name(uint32_t f);

struct Picture {
  uint32_t format = kNv12;
  uint32_t width = 0, height = 0;                // the image
  uint32_t width_stride = 0, height_stride = 0;  // bytes per row, rows per plane
  uint8_t* data = nullptr;
  uint64_t size = 0;  // bytes the buffer holds
};
// Bytes a picture of this format and strides takes (YUV420SP: stride x hstride x 3 / 2).
uint64_t picture_bytes(uint32_t format, uint32_t width_stride, uint32_t height_stride);
uint32_t align_up(uint32_t v, uint32_t a);

// --- JPEGD ---------------------------------------------------------------------------------
struct JpegInfo {
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  // Sampling of the luma component relative to chroma: 420, 422, 444, 440 or 400 (grey).
  int sampling = 0;
};
// Reads the JPEG header (libjpeg-turbo); raises on a stream that is not a JPEG.
JpegInfo jpeg_info(const uint8_t* data, size_t size);
// Decodes into `out` as YUV420SP (NV12 or NV21) with the given strides: the decoder's own
// component planes (libjpeg-turbo raw output, no chroma upsampling); chroma sampled finer than
// 4:2:0 is averaged down 2x2 (or 2x1), grey gets chroma 0x80. Rows and columns between the
// image and the strides are filled with the image's last row/column.
void jpeg_decode_yuv420sp(const uint8_t* data, size_t size, const Picture& out);

// --- PNGD ----------------------------------------------------------------------------------
struct PngInfo { uint32_t width = 0, height = 0; bool alpha = false; };
PngInfo png_info(const uint8_t* data, size_t size);
// Decodes to packed RGB888 (alpha dropped) with out.width_stride bytes per row (libpng).
void png_decode_rgb(const uint8_t* data, size_t size, const Picture& out);

// --- VPC -----------------------------------------------------------------------------------
enum class Interpolation : uint32_t { Default = 0, Bilinear = 1, Nearest = 2 };
struct Rect { uint32_t left, right, top, bottom; };  // inclusive, as CANN's RoiConfig
// Resizes the `crop` area of `in` into the `paste` area of `out` (the rest of `out` keeps its
// bytes: padding is the caller's fill). Formats: YUV420SP and packed RGB/BGR, either way
// (a conversion when they differ). Bilinear: half-pixel centres, weights in 1/2048 fixed
// point, rounded; nearest: floor((x + 0.5) x scale) (as OpenCV's INTER_NEAREST_EXACT).
void vpc_crop_resize_paste(const Picture& in, const Rect& crop, const Picture& out, const Rect& paste,
                           Interpolation interpolation);

// --- JPEGE ---------------------------------------------------------------------------------
// Encodes a YUV420SP picture at `quality` (1-100, libjpeg's scale) to a baseline JPEG (4:2:0).
std::vector<uint8_t> jpeg_encode_yuv420sp(const Picture& in, int quality);
// Encodes packed RGB888 (used to make sample images).
std::vector<uint8_t> jpeg_encode_rgb(const uint8_t* rgb, uint32_t width, uint32_t height, int quality);

}  // namespace npuvp::soc::dvpp

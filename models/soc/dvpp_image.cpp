#include "models/soc/dvpp_image.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <jpeglib.h>
#include <png.h>

#include "tlm/log.h"

namespace npuvp::soc::dvpp {

bool is_yuv420sp(uint32_t f) { return f == kNv12 || f == kNv21; }
bool is_packed_rgb(uint32_t f) { return f == kRgb888 || f == kBgr888; }
const char* format_name(uint32_t f) {
  switch (f) {
    case kYuv400: return "YUV400";
    case kNv12: return "YUV420SP NV12";
    case kNv21: return "YVU420SP NV21";
    case kRgb888: return "RGB888";
    case kBgr888: return "BGR888";
    default: return "unsupported format";
  }
}

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

uint64_t picture_bytes(uint32_t format, uint32_t width_stride, uint32_t height_stride) {
  const uint64_t plane = uint64_t(width_stride) * height_stride;
  return is_yuv420sp(format) ? plane * 3 / 2 : plane;
}

namespace {

// libjpeg reports errors through error_exit, which must not return: it jumps back here.
struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {};
};
void jpeg_error_exit(j_common_ptr c) {
  auto* e = reinterpret_cast<JpegError*>(c->err);
  (*c->err->format_message)(c, e->message);
  std::longjmp(e->jump, 1);
}
void jpeg_quiet(j_common_ptr, int) {}

struct Decompress {
  jpeg_decompress_struct info{};
  JpegError error;
  Decompress() {
    info.err = jpeg_std_error(&error.mgr);
    error.mgr.error_exit = jpeg_error_exit;
    error.mgr.emit_message = jpeg_quiet;
    jpeg_create_decompress(&info);
  }
  ~Decompress() { jpeg_destroy_decompress(&info); }
};

int sampling_of(const jpeg_decompress_struct& info) {
  if (info.num_components == 1) return 400;
  const int h = info.comp_info[0].h_samp_factor / info.comp_info[1].h_samp_factor;
  const int v = info.comp_info[0].v_samp_factor / info.comp_info[1].v_samp_factor;
  if (h == 2 && v == 2) return 420;
  if (h == 2 && v == 1) return 422;
  if (h == 1 && v == 2) return 440;
  if (h == 1 && v == 1) return 444;
  return 0;  // unusual (4:1:1 ...)
}

uint8_t clamp8(double v) { return static_cast<uint8_t>(std::clamp<long>(std::lround(v), 0, 255)); }

}  // namespace

JpegInfo jpeg_info(const uint8_t* data, size_t size) {
  Decompress d;
  if (setjmp(d.error.jump)) raise("dvpp.jpegd", "not a JPEG stream this decoder reads: {}", d.error.message);
  jpeg_mem_src(&d.info, data, static_cast<unsigned long>(size));
  jpeg_read_header(&d.info, TRUE);
  JpegInfo info;
  info.width = d.info.image_width;
  info.height = d.info.image_height;
  info.components = d.info.num_components;
  info.sampling = sampling_of(d.info);
  return info;
}

void jpeg_decode_yuv420sp(const uint8_t* data, size_t size, const Picture& out) {
  if (!is_yuv420sp(out.format)) raise("dvpp.jpegd", "output format {} is not YUV420SP", format_name(out.format));
  Decompress d;
  std::vector<std::vector<uint8_t>> planes;
  std::vector<uint32_t> plane_stride;
  std::vector<uint32_t> plane_w, plane_h;
  // Plane samples per 4:2:0 chroma sample, each way: read while comp_info is alive
  // (jpeg_finish_decompress frees it with the rest of the image's memory).
  std::vector<uint32_t> plane_rx, plane_ry;
  std::vector<JSAMPROW> rows[3];
  JSAMPARRAY arrays[3];
  int max_h = 1, max_v = 1;
  if (setjmp(d.error.jump)) raise("dvpp.jpegd", "decode failed: {}", d.error.message);
  jpeg_mem_src(&d.info, data, static_cast<unsigned long>(size));
  jpeg_read_header(&d.info, TRUE);
  const int sampling = sampling_of(d.info);
  if (d.info.num_components != 1 && (d.info.num_components != 3 || sampling == 0)) {
    raise("dvpp.jpegd", "unsupported JPEG: {} components, sampling {}x{}", d.info.num_components,
          d.info.comp_info[0].h_samp_factor, d.info.comp_info[0].v_samp_factor);
  }
  if (d.info.image_width != out.width || d.info.image_height != out.height) {
    raise("dvpp.jpegd", "output picture is {}x{} but the JPEG is {}x{}", out.width, out.height, d.info.image_width,
          d.info.image_height);
  }
  if (out.size < picture_bytes(out.format, out.width_stride, out.height_stride) || out.width_stride < out.width ||
      out.height_stride < out.height) {
    raise("dvpp.jpegd", "output buffer of {} bytes with strides {}x{} cannot hold {}x{}", out.size, out.width_stride,
          out.height_stride, out.width, out.height);
  }
  // The decoder's component planes as coded (raw data: no colour conversion, no upsampling).
  d.info.raw_data_out = TRUE;
  d.info.out_color_space = d.info.num_components == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
  jpeg_start_decompress(&d.info);
  max_h = d.info.max_h_samp_factor;
  max_v = d.info.max_v_samp_factor;
  const int n = d.info.num_components;
  const uint32_t mcu_rows = (d.info.image_height + max_v * DCTSIZE - 1) / (max_v * DCTSIZE);
  const uint32_t mcu_cols = (d.info.image_width + max_h * DCTSIZE - 1) / (max_h * DCTSIZE);
  for (int c = 0; c < n; ++c) {
    const auto& ci = d.info.comp_info[c];
    plane_stride.push_back(mcu_cols * ci.h_samp_factor * DCTSIZE);
    planes.emplace_back(size_t(plane_stride.back()) * mcu_rows * ci.v_samp_factor * DCTSIZE);
    plane_w.push_back(ci.downsampled_width);
    plane_h.push_back(ci.downsampled_height);
    plane_rx.push_back(uint32_t(2 / (max_h / ci.h_samp_factor)));
    plane_ry.push_back(uint32_t(2 / (max_v / ci.v_samp_factor)));
  }
  for (uint32_t m = 0; m < mcu_rows && d.info.output_scanline < d.info.output_height; ++m) {
    for (int c = 0; c < n; ++c) {
      const int v = d.info.comp_info[c].v_samp_factor * DCTSIZE;
      rows[c].resize(size_t(v));
      for (int r = 0; r < v; ++r) rows[c][r] = planes[c].data() + size_t(m * v + r) * plane_stride[c];
      arrays[c] = rows[c].data();
    }
    jpeg_read_raw_data(&d.info, arrays, JDIMENSION(max_v * DCTSIZE));
  }
  jpeg_finish_decompress(&d.info);

  const uint32_t w = out.width, h = out.height;
  uint8_t* y = out.data;
  for (uint32_t r = 0; r < out.height_stride; ++r) {
    const uint8_t* src = planes[0].data() + size_t(std::min(r, h - 1)) * plane_stride[0];
    uint8_t* dst = y + size_t(r) * out.width_stride;
    std::memcpy(dst, src, w);
    std::memset(dst + w, src[w - 1], out.width_stride - w);
  }
  // Chroma on the 4:2:0 grid: a sample covers 2x2 luma pixels; finer-sampled chroma is averaged.
  uint8_t* uv = out.data + size_t(out.width_stride) * out.height_stride;
  const uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  const bool nv21 = out.format == kNv21;
  for (uint32_t r = 0; r < out.height_stride / 2; ++r) {
    uint8_t* dst = uv + size_t(r) * out.width_stride;
    const uint32_t cr = std::min(r, ch - 1);
    for (uint32_t x = 0; x < out.width_stride / 2; ++x) {
      const uint32_t cx = std::min(x, cw - 1);
      uint8_t value[2] = {0x80, 0x80};
      if (n == 3) {
        for (int c = 1; c < 3; ++c) {
          const uint32_t rx = plane_rx[c], ry = plane_ry[c];
          unsigned sum = 0;
          for (uint32_t j = 0; j < ry; ++j) {
            const uint32_t py = std::min(cr * ry + j, plane_h[c] - 1);
            for (uint32_t i = 0; i < rx; ++i) {
              const uint32_t px = std::min(cx * rx + i, plane_w[c] - 1);
              sum += planes[c][size_t(py) * plane_stride[c] + px];
            }
          }
          const unsigned count = rx * ry;
          value[c - 1] = static_cast<uint8_t>((sum + count / 2) / count);
        }
      }
      dst[2 * x] = nv21 ? value[1] : value[0];
      dst[2 * x + 1] = nv21 ? value[0] : value[1];
    }
  }
}

// --- PNG -----------------------------------------------------------------------------------

PngInfo png_info(const uint8_t* data, size_t size) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size)) {
    raise("dvpp.pngd", "not a PNG stream this decoder reads: {}", image.message);
  }
  PngInfo info{image.width, image.height, (image.format & PNG_FORMAT_FLAG_ALPHA) != 0};
  png_image_free(&image);
  return info;
}

void png_decode_rgb(const uint8_t* data, size_t size, const Picture& out) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size)) raise("dvpp.pngd", "decode failed: {}", image.message);
  if (image.width != out.width || image.height != out.height) {
    png_image_free(&image);
    raise("dvpp.pngd", "output picture is {}x{} but the PNG is {}x{}", out.width, out.height, image.width, image.height);
  }
  if (out.width_stride < out.width * 3 || out.size < uint64_t(out.width_stride) * out.height) {
    png_image_free(&image);
    raise("dvpp.pngd", "output buffer too small for {}x{} RGB888 with stride {}", out.width, out.height, out.width_stride);
  }
  image.format = out.format == kBgr888 ? PNG_FORMAT_BGR : PNG_FORMAT_RGB;
  if (!png_image_finish_read(&image, nullptr, out.data, static_cast<png_int_32>(out.width_stride), nullptr)) {
    raise("dvpp.pngd", "decode failed: {}", image.message);
  }
}

// --- VPC -----------------------------------------------------------------------------------

namespace {

struct Plane {  // interleaved channels
  uint8_t* data;
  uint32_t stride;    // bytes per row
  uint32_t channels;  // samples per pixel
};

// Source coordinate and 1/2048 weight of destination index `d` (half-pixel centres).
struct Tap { uint32_t i0, i1, w; };
std::vector<Tap> bilinear_taps(uint32_t src_first, uint32_t src_len, uint32_t dst_len) {
  std::vector<Tap> taps(dst_len);
  const double scale = double(src_len) / double(dst_len);
  for (uint32_t d = 0; d < dst_len; ++d) {
    double f = (d + 0.5) * scale - 0.5;
    if (f < 0) f = 0;
    uint32_t i0 = static_cast<uint32_t>(std::floor(f));
    if (i0 > src_len - 1) i0 = src_len - 1;
    const uint32_t i1 = std::min(i0 + 1, src_len - 1);
    const auto w = static_cast<uint32_t>(std::lround((f - i0) * 2048));
    taps[d] = {src_first + i0, src_first + i1, std::min<uint32_t>(w, 2048)};
  }
  return taps;
}
std::vector<Tap> nearest_taps(uint32_t src_first, uint32_t src_len, uint32_t dst_len) {
  std::vector<Tap> taps(dst_len);
  const double scale = double(src_len) / double(dst_len);
  for (uint32_t d = 0; d < dst_len; ++d) {
    const auto i = std::min<uint32_t>(static_cast<uint32_t>(std::floor((d + 0.5) * scale)), src_len - 1);
    taps[d] = {src_first + i, src_first + i, 0};
  }
  return taps;
}

// Resizes the src rectangle (pixels) into the dst rectangle.
void resize_plane(const Plane& src, uint32_t sx, uint32_t sy, uint32_t sw, uint32_t sh, const Plane& dst, uint32_t dx,
                  uint32_t dy, uint32_t dw, uint32_t dh, Interpolation interp) {
  const bool nearest = interp == Interpolation::Nearest;
  const auto tx = nearest ? nearest_taps(sx, sw, dw) : bilinear_taps(sx, sw, dw);
  const auto ty = nearest ? nearest_taps(sy, sh, dh) : bilinear_taps(sy, sh, dh);
  const uint32_t c = src.channels;
  for (uint32_t y = 0; y < dh; ++y) {
    const Tap& v = ty[y];
    const uint8_t* r0 = src.data + size_t(v.i0) * src.stride;
    const uint8_t* r1 = src.data + size_t(v.i1) * src.stride;
    uint8_t* out = dst.data + size_t(dy + y) * dst.stride + size_t(dx) * c;
    for (uint32_t x = 0; x < dw; ++x) {
      const Tap& u = tx[x];
      for (uint32_t k = 0; k < c; ++k) {
        const uint32_t p00 = r0[u.i0 * c + k], p01 = r0[u.i1 * c + k];
        const uint32_t p10 = r1[u.i0 * c + k], p11 = r1[u.i1 * c + k];
        const uint32_t top = p00 * (2048 - u.w) + p01 * u.w;     // < 2^19
        const uint32_t bottom = p10 * (2048 - u.w) + p11 * u.w;
        const uint64_t sum = uint64_t(top) * (2048 - v.w) + uint64_t(bottom) * v.w;  // < 2^30
        out[x * c + k] = static_cast<uint8_t>((sum + (uint64_t(1) << 21)) >> 22);
      }
    }
  }
}

// The picture converted to `format` at its own size (YUV420SP <-> packed RGB/BGR, JFIF).
std::vector<uint8_t> convert(const Picture& in, uint32_t format, Picture& converted) {
  converted = in;
  converted.format = format;
  const uint32_t w = in.width, h = in.height;
  std::vector<uint8_t> bytes;
  if (is_yuv420sp(in.format) && is_packed_rgb(format)) {
    converted.width_stride = w * 3;
    converted.height_stride = h;
    bytes.resize(size_t(w) * 3 * h);
    const uint8_t* uv = in.data + size_t(in.width_stride) * in.height_stride;
    const bool nv21 = in.format == kNv21, bgr = format == kBgr888;
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        const double Y = in.data[size_t(y) * in.width_stride + x];
        const uint8_t* c = uv + size_t(y / 2) * in.width_stride + (x / 2) * 2;
        const double U = double(nv21 ? c[1] : c[0]) - 128, V = double(nv21 ? c[0] : c[1]) - 128;
        const uint8_t r = clamp8(Y + 1.402 * V), g = clamp8(Y - 0.344136 * U - 0.714136 * V), b = clamp8(Y + 1.772 * U);
        uint8_t* o = bytes.data() + (size_t(y) * w + x) * 3;
        o[0] = bgr ? b : r;
        o[1] = g;
        o[2] = bgr ? r : b;
      }
    }
  } else if (is_packed_rgb(in.format) && is_yuv420sp(format)) {
    converted.width_stride = align_up(w, 2);
    converted.height_stride = align_up(h, 2);
    const uint32_t ws = converted.width_stride, hs = converted.height_stride;
    bytes.assign(size_t(ws) * hs * 3 / 2, 0);
    const bool bgr = in.format == kBgr888, nv21 = format == kNv21;
    auto px = [&](uint32_t x, uint32_t y) {
      const uint8_t* p = in.data + size_t(std::min(y, h - 1)) * in.width_stride + size_t(std::min(x, w - 1)) * 3;
      return std::array<double, 3>{double(bgr ? p[2] : p[0]), double(p[1]), double(bgr ? p[0] : p[2])};
    };
    for (uint32_t y = 0; y < hs; ++y) {
      for (uint32_t x = 0; x < ws; ++x) {
        const auto p = px(x, y);
        bytes[size_t(y) * ws + x] = clamp8(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
      }
    }
    uint8_t* uv = bytes.data() + size_t(ws) * hs;
    for (uint32_t y = 0; y < hs / 2; ++y) {
      for (uint32_t x = 0; x < ws / 2; ++x) {
        double u = 0, v = 0;
        for (uint32_t j = 0; j < 4; ++j) {
          const auto p = px(2 * x + j % 2, 2 * y + j / 2);
          u += -0.168736 * p[0] - 0.331264 * p[1] + 0.5 * p[2];
          v += 0.5 * p[0] - 0.418688 * p[1] - 0.081312 * p[2];
        }
        uv[size_t(y) * ws + 2 * x + (nv21 ? 1 : 0)] = clamp8(u / 4 + 128);
        uv[size_t(y) * ws + 2 * x + (nv21 ? 0 : 1)] = clamp8(v / 4 + 128);
      }
    }
  } else {
    raise("dvpp.vpc", "cannot convert {} to {}", format_name(in.format), format_name(format));
  }
  converted.data = bytes.data();
  converted.size = bytes.size();
  return bytes;
}

void swap_pairs(const Picture& out, const Rect& paste, bool yuv) {
  if (yuv) {
    uint8_t* uv = out.data + size_t(out.width_stride) * out.height_stride;
    for (uint32_t y = paste.top / 2; y <= paste.bottom / 2; ++y) {
      for (uint32_t x = paste.left / 2; x <= paste.right / 2; ++x) std::swap(uv[size_t(y) * out.width_stride + 2 * x], uv[size_t(y) * out.width_stride + 2 * x + 1]);
    }
  } else {
    for (uint32_t y = paste.top; y <= paste.bottom; ++y) {
      for (uint32_t x = paste.left; x <= paste.right; ++x) {
        uint8_t* p = out.data + size_t(y) * out.width_stride + size_t(x) * 3;
        std::swap(p[0], p[2]);
      }
    }
  }
}

}  // namespace

void vpc_crop_resize_paste(const Picture& in_picture, const Rect& crop, const Picture& out, const Rect& paste,
                           Interpolation interp) {
  const bool out_yuv = is_yuv420sp(out.format);
  if (!(out_yuv || is_packed_rgb(out.format)) || !(is_yuv420sp(in_picture.format) || is_packed_rgb(in_picture.format))) {
    raise("dvpp.vpc", "{} to {} is not supported (YUV420SP NV12/NV21, RGB888, BGR888)", format_name(in_picture.format),
          format_name(out.format));
  }
  if (crop.right >= in_picture.width || crop.bottom >= in_picture.height || crop.left > crop.right ||
      crop.top > crop.bottom) {
    raise("dvpp.vpc", "crop area [{}, {}] x [{}, {}] is outside the {}x{} input", crop.left, crop.right, crop.top,
          crop.bottom, in_picture.width, in_picture.height);
  }
  if (paste.right >= out.width || paste.bottom >= out.height || paste.left > paste.right || paste.top > paste.bottom) {
    raise("dvpp.vpc", "paste area [{}, {}] x [{}, {}] is outside the {}x{} output", paste.left, paste.right,
          paste.top, paste.bottom, out.width, out.height);
  }
  // Between families, convert first (at the input size), then resize in the output's.
  Picture in = in_picture;
  std::vector<uint8_t> converted;
  if (out_yuv != is_yuv420sp(in.format)) converted = convert(in_picture, out.format, in);
  const uint32_t sw = crop.right - crop.left + 1, sh = crop.bottom - crop.top + 1;
  const uint32_t dw = paste.right - paste.left + 1, dh = paste.bottom - paste.top + 1;
  if (out_yuv) {
    resize_plane({in.data, in.width_stride, 1}, crop.left, crop.top, sw, sh, {out.data, out.width_stride, 1},
                 paste.left, paste.top, dw, dh, interp);
    uint8_t* in_uv = in.data + size_t(in.width_stride) * in.height_stride;
    uint8_t* out_uv = out.data + size_t(out.width_stride) * out.height_stride;
    resize_plane({in_uv, in.width_stride, 2}, crop.left / 2, crop.top / 2, std::max(1u, sw / 2), std::max(1u, sh / 2),
                 {out_uv, out.width_stride, 2}, paste.left / 2, paste.top / 2, std::max(1u, dw / 2),
                 std::max(1u, dh / 2), interp);
  } else {
    resize_plane({in.data, in.width_stride, 3}, crop.left, crop.top, sw, sh, {out.data, out.width_stride, 3},
                 paste.left, paste.top, dw, dh, interp);
  }
  if (in.format != out.format) swap_pairs(out, paste, out_yuv);  // NV12 <-> NV21, RGB <-> BGR
}

// --- JPEGE ---------------------------------------------------------------------------------

namespace {
struct Compress {
  jpeg_compress_struct info{};
  JpegError error;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  Compress() {
    info.err = jpeg_std_error(&error.mgr);
    error.mgr.error_exit = jpeg_error_exit;
    error.mgr.emit_message = jpeg_quiet;
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
  }
  ~Compress() {
    jpeg_destroy_compress(&info);
    std::free(buffer);
  }
};
}  // namespace

std::vector<uint8_t> jpeg_encode_yuv420sp(const Picture& in, int quality) {
  if (!is_yuv420sp(in.format)) raise("dvpp.jpege", "input format {} is not YUV420SP", format_name(in.format));
  const uint32_t w = in.width, h = in.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  // The planes as libjpeg's raw input wants them: whole MCUs (16x16 luma), edges replicated.
  const uint32_t yw = align_up(w, 16), yh = align_up(h, 16), pw = yw / 2, ph = yh / 2;
  std::vector<uint8_t> yp(size_t(yw) * yh), up(size_t(pw) * ph), vp(size_t(pw) * ph);
  const uint8_t* uv = in.data + size_t(in.width_stride) * in.height_stride;
  const bool nv21 = in.format == kNv21;
  for (uint32_t y = 0; y < yh; ++y) {
    for (uint32_t x = 0; x < yw; ++x) yp[size_t(y) * yw + x] = in.data[size_t(std::min(y, h - 1)) * in.width_stride + std::min(x, w - 1)];
  }
  for (uint32_t y = 0; y < ph; ++y) {
    for (uint32_t x = 0; x < pw; ++x) {
      const uint8_t* c = uv + size_t(std::min(y, ch - 1)) * in.width_stride + 2 * std::min(x, cw - 1);
      up[size_t(y) * pw + x] = nv21 ? c[1] : c[0];
      vp[size_t(y) * pw + x] = nv21 ? c[0] : c[1];
    }
  }
  Compress c;
  if (setjmp(c.error.jump)) raise("dvpp.jpege", "encode failed: {}", c.error.message);
  c.info.image_width = w;
  c.info.image_height = h;
  c.info.input_components = 3;
  c.info.in_color_space = JCS_YCbCr;
  jpeg_set_defaults(&c.info);
  jpeg_set_colorspace(&c.info, JCS_YCbCr);
  c.info.raw_data_in = TRUE;
  c.info.comp_info[0].h_samp_factor = c.info.comp_info[0].v_samp_factor = 2;
  for (int k = 1; k < 3; ++k) c.info.comp_info[k].h_samp_factor = c.info.comp_info[k].v_samp_factor = 1;
  jpeg_set_quality(&c.info, std::clamp(quality, 1, 100), TRUE);
  jpeg_start_compress(&c.info, TRUE);
  JSAMPROW yrows[16], urows[8], vrows[8];
  JSAMPARRAY planes[3] = {yrows, urows, vrows};
  for (uint32_t m = 0; m < yh / 16; ++m) {
    for (int r = 0; r < 16; ++r) yrows[r] = yp.data() + size_t(m * 16 + r) * yw;
    for (int r = 0; r < 8; ++r) {
      urows[r] = up.data() + size_t(m * 8 + r) * pw;
      vrows[r] = vp.data() + size_t(m * 8 + r) * pw;
    }
    jpeg_write_raw_data(&c.info, planes, 16);
  }
  jpeg_finish_compress(&c.info);
  return std::vector<uint8_t>(c.buffer, c.buffer + c.size);
}

std::vector<uint8_t> jpeg_encode_rgb(const uint8_t* rgb, uint32_t width, uint32_t height, int quality) {
  Compress c;
  if (setjmp(c.error.jump)) raise("dvpp.jpege", "encode failed: {}", c.error.message);
  c.info.image_width = width;
  c.info.image_height = height;
  c.info.input_components = 3;
  c.info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c.info);
  jpeg_set_quality(&c.info, std::clamp(quality, 1, 100), TRUE);
  jpeg_start_compress(&c.info, TRUE);
  while (c.info.next_scanline < height) {
    JSAMPROW row = const_cast<uint8_t*>(rgb) + size_t(c.info.next_scanline) * width * 3;
    jpeg_write_scanlines(&c.info, &row, 1);
  }
  jpeg_finish_compress(&c.info);
  return std::vector<uint8_t>(c.buffer, c.buffer + c.size);
}

}  // namespace npuvp::soc::dvpp

// What the DVPP engines compute (models/soc/dvpp_image.h, issue 28), against libjpeg-turbo and
// libpng called directly and against plain reference resizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>
#include <jpeglib.h>
#include <png.h>

#include "models/soc/dvpp_image.h"
#include "tests/support/error_of.h"

namespace dvpp_image_test {
namespace img = npuvp::soc::dvpp;
using ::testing::HasSubstr;

std::vector<uint8_t> test_rgb(uint32_t w, uint32_t h) {
  std::vector<uint8_t> rgb(size_t(w) * h * 3);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = &rgb[(size_t(y) * w + x) * 3];
      p[0] = uint8_t((x * 7 + y * 3) ^ (x * y));
      p[1] = uint8_t(x * 2 + (y >> 1) * 5);
      p[2] = uint8_t(255 - x - y * 3);
    }
  }
  return rgb;
}

// A JPEG with the given sampling (h, v of luma; chroma 1x1), or a grey one (components 1).
std::vector<uint8_t> encode(uint32_t w, uint32_t h, int hs, int vs, int components = 3) {
  const auto rgb = test_rgb(w, h);
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &buf, &size);
  c.image_width = w;
  c.image_height = h;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  if (components == 1) jpeg_set_colorspace(&c, JCS_GRAYSCALE);
  jpeg_set_quality(&c, 85, TRUE);
  c.comp_info[0].h_samp_factor = hs;
  c.comp_info[0].v_samp_factor = vs;
  jpeg_start_compress(&c, TRUE);
  for (uint32_t y = 0; y < h; ++y) {
    JSAMPROW row = const_cast<uint8_t*>(&rgb[size_t(y) * w * 3]);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  std::vector<uint8_t> out(buf, buf + size);
  jpeg_destroy_compress(&c);
  free(buf);
  return out;
}

// libjpeg-turbo's raw component planes (no upsampling), each `width x height` of the component.
struct RawPlanes {
  std::vector<std::vector<uint8_t>> plane;
  std::vector<uint32_t> stride, width, height;
};
RawPlanes libjpeg_raw(const std::vector<uint8_t>& jpeg) {
  jpeg_decompress_struct d{};
  jpeg_error_mgr err{};
  d.err = jpeg_std_error(&err);
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, jpeg.data(), jpeg.size());
  jpeg_read_header(&d, TRUE);
  d.raw_data_out = TRUE;
  jpeg_start_decompress(&d);
  RawPlanes r;
  const int mh = d.max_h_samp_factor, mv = d.max_v_samp_factor;
  const uint32_t imcu = (d.image_height + mv * 8 - 1) / (mv * 8), cols = (d.image_width + mh * 8 - 1) / (mh * 8);
  for (int c = 0; c < d.num_components; ++c) {
    r.stride.push_back(cols * d.comp_info[c].h_samp_factor * 8);
    r.plane.emplace_back(size_t(r.stride.back()) * imcu * d.comp_info[c].v_samp_factor * 8);
    r.width.push_back(d.comp_info[c].downsampled_width);
    r.height.push_back(d.comp_info[c].downsampled_height);
  }
  for (uint32_t m = 0; m < imcu; ++m) {
    std::vector<std::vector<JSAMPROW>> rows(size_t(d.num_components));
    JSAMPARRAY arrays[4];
    for (int c = 0; c < d.num_components; ++c) {
      const int v = d.comp_info[c].v_samp_factor * 8;
      for (int y = 0; y < v; ++y) rows[size_t(c)].push_back(&r.plane[size_t(c)][size_t(m * v + y) * r.stride[size_t(c)]]);
      arrays[c] = rows[size_t(c)].data();
    }
    jpeg_read_raw_data(&d, arrays, JDIMENSION(mv * 8));
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  return r;
}

struct Buffer {
  std::vector<uint8_t> bytes;
  img::Picture pic;
  Buffer(uint32_t format, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs, uint8_t fill = 0) {
    bytes.assign(img::picture_bytes(format, ws, hs), fill);
    pic = {format, w, h, ws, hs, bytes.data(), bytes.size()};
  }
  uint8_t y(uint32_t x, uint32_t r) const { return bytes[size_t(r) * pic.width_stride + x]; }
  uint8_t uv(uint32_t x, uint32_t r, int k) const {
    return bytes[size_t(pic.width_stride) * pic.height_stride + size_t(r) * pic.width_stride + 2 * x + k];
  }
};

TEST(DvppImageTest, JpegDecode420IsLibjpegTurbosPlanesBitForBit) {
  const uint32_t w = 101, h = 67;  // odd: the last chroma column and row cover one pixel
  const auto jpeg = encode(w, h, 2, 2);
  const RawPlanes raw = libjpeg_raw(jpeg);
  for (uint32_t format : {img::kNv12, img::kNv21}) {
    Buffer out(format, w, h, 128, 80);
    img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), out.pic);
    for (uint32_t r = 0; r < h; ++r) {
      for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(out.y(x, r), raw.plane[0][size_t(r) * raw.stride[0] + x]) << x << "," << r;
    }
    for (uint32_t r = 0; r < (h + 1) / 2; ++r) {
      for (uint32_t x = 0; x < (w + 1) / 2; ++x) {
        const uint8_t u = raw.plane[1][size_t(r) * raw.stride[1] + x], v = raw.plane[2][size_t(r) * raw.stride[2] + x];
        ASSERT_EQ(out.uv(x, r, 0), format == img::kNv12 ? u : v);
        ASSERT_EQ(out.uv(x, r, 1), format == img::kNv12 ? v : u);
      }
    }
    // Stride padding repeats the last column and row.
    EXPECT_EQ(out.y(127, 10), out.y(w - 1, 10));
    EXPECT_EQ(out.y(5, 79), out.y(5, h - 1));
  }
}

TEST(DvppImageTest, JpegDecode444AveragesChromaAndGreyGets0x80) {
  const uint32_t w = 64, h = 48;
  const auto jpeg = encode(w, h, 1, 1);
  const RawPlanes raw = libjpeg_raw(jpeg);
  Buffer out(img::kNv12, w, h, 64, 48);
  img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), out.pic);
  for (uint32_t r = 0; r < h / 2; ++r) {
    for (uint32_t x = 0; x < w / 2; ++x) {
      for (int k = 0; k < 2; ++k) {
        const auto& p = raw.plane[size_t(k + 1)];
        const uint32_t s = raw.stride[size_t(k + 1)];
        const unsigned sum = p[2 * r * s + 2 * x] + p[2 * r * s + 2 * x + 1] + p[(2 * r + 1) * s + 2 * x] +
                             p[(2 * r + 1) * s + 2 * x + 1];
        ASSERT_EQ(out.uv(x, r, k), (sum + 2) / 4);
      }
    }
  }
  const auto grey = encode(w, h, 1, 1, 1);
  Buffer g(img::kNv21, w, h, 64, 48);
  img::jpeg_decode_yuv420sp(grey.data(), grey.size(), g.pic);
  EXPECT_EQ(g.uv(3, 3, 0), 0x80);
  EXPECT_EQ(g.uv(31, 23, 1), 0x80);
  EXPECT_EQ(img::jpeg_info(grey.data(), grey.size()).components, 1);
}

TEST(DvppImageTest, BadStreamsAndSizesAreClearErrors) {
  const std::vector<uint8_t> junk(100, 0x42);
  EXPECT_THAT(npuvp::testing::error_of([&] { img::jpeg_info(junk.data(), junk.size()); }), HasSubstr("not a JPEG"));
  const auto jpeg = encode(40, 40, 2, 2);
  Buffer small(img::kNv12, 32, 40, 128, 48);
  EXPECT_THAT(npuvp::testing::error_of([&] { img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), small.pic); }),
              HasSubstr("the JPEG is 40x40"));
}

// The documented bilinear (half-pixel centres, 1/2048 weights, rounded) written plainly.
uint8_t bilinear_ref(const uint8_t* src, uint32_t stride, uint32_t channels, uint32_t k, uint32_t sw, uint32_t sh,
                     uint32_t dw, uint32_t dh, uint32_t x, uint32_t y) {
  auto tap = [](uint32_t d, uint32_t s_len, uint32_t d_len, uint32_t& i0, uint32_t& i1, uint32_t& w) {
    double f = (d + 0.5) * double(s_len) / double(d_len) - 0.5;
    if (f < 0) f = 0;
    i0 = std::min<uint32_t>(uint32_t(std::floor(f)), s_len - 1);
    i1 = std::min(i0 + 1, s_len - 1);
    w = std::min<uint32_t>(uint32_t(std::lround((f - i0) * 2048)), 2048);
  };
  uint32_t x0, x1, wx, y0, y1, wy;
  tap(x, sw, dw, x0, x1, wx);
  tap(y, sh, dh, y0, y1, wy);
  auto p = [&](uint32_t xx, uint32_t yy) { return uint64_t(src[size_t(yy) * stride + xx * channels + k]); };
  const uint64_t v = (p(x0, y0) * (2048 - wx) + p(x1, y0) * wx) * (2048 - wy) + (p(x0, y1) * (2048 - wx) + p(x1, y1) * wx) * wy;
  return uint8_t((v + (1u << 21)) >> 22);
}

TEST(DvppImageTest, VpcBilinearResizeMatchesThePlainReference) {
  const uint32_t sw = 96, sh = 64, dw = 40, dh = 150;  // down one way, up the other
  Buffer in(img::kNv12, sw, sh, 96, 64);
  for (size_t i = 0; i < in.bytes.size(); ++i) in.bytes[i] = uint8_t(i * 31 + (i >> 7) * 13);
  Buffer out(img::kNv12, dw, dh, 48, 150, 0xAB);
  img::vpc_crop_resize_paste(in.pic, {0, sw - 1, 0, sh - 1}, out.pic, {0, dw - 1, 0, dh - 1}, img::Interpolation::Bilinear);
  for (uint32_t y = 0; y < dh; ++y) {
    for (uint32_t x = 0; x < dw; ++x) {
      ASSERT_EQ(out.y(x, y), bilinear_ref(in.bytes.data(), 96, 1, 0, sw, sh, dw, dh, x, y)) << x << "," << y;
    }
  }
  const uint8_t* uv = in.bytes.data() + 96 * 64;
  for (uint32_t y = 0; y < dh / 2; ++y) {
    for (uint32_t x = 0; x < dw / 2; ++x) {
      for (uint32_t k = 0; k < 2; ++k) {
        ASSERT_EQ(out.uv(x, y, int(k)), bilinear_ref(uv, 96, 2, k, sw / 2, sh / 2, dw / 2, dh / 2, x, y));
      }
    }
  }
  EXPECT_EQ(out.y(45, 3), 0xAB) << "the stride padding is not written";
}

TEST(DvppImageTest, VpcNearestCropAndPaste) {
  Buffer in(img::kRgb888, 60, 40, 192, 40);
  for (size_t i = 0; i < in.bytes.size(); ++i) in.bytes[i] = uint8_t(i * 7);
  Buffer out(img::kBgr888, 32, 32, 96, 32, 0x11);
  const img::Rect crop{10, 49, 4, 23}, paste{4, 23, 8, 17};  // 40x20 -> 20x10
  img::vpc_crop_resize_paste(in.pic, crop, out.pic, paste, img::Interpolation::Nearest);
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const bool inside = x >= 4 && x <= 23 && y >= 8 && y <= 17;
      for (uint32_t k = 0; k < 3; ++k) {
        const uint8_t got = out.bytes[size_t(y) * 96 + x * 3 + k];
        if (!inside) {
          ASSERT_EQ(got, 0x11) << "outside the paste area";
          continue;
        }
        const uint32_t sx = 10 + std::min<uint32_t>(uint32_t(std::floor((x - 4 + 0.5) * 2.0)), 39);
        const uint32_t sy = 4 + std::min<uint32_t>(uint32_t(std::floor((y - 8 + 0.5) * 2.0)), 19);
        ASSERT_EQ(got, in.bytes[size_t(sy) * 192 + sx * 3 + (2 - k)]) << "RGB in, BGR out";
      }
    }
  }
}

TEST(DvppImageTest, Nv12ToRgbIsCloseToLibjpegsOwnConversion) {
  const uint32_t w = 64, h = 32;
  const auto jpeg = encode(w, h, 2, 2);
  Buffer nv12(img::kNv12, w, h, 64, 32);
  img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), nv12.pic);
  Buffer rgb(img::kRgb888, w, h, 192, 32);
  img::vpc_crop_resize_paste(nv12.pic, {0, w - 1, 0, h - 1}, rgb.pic, {0, w - 1, 0, h - 1}, img::Interpolation::Bilinear);
  // libjpeg's RGB output without fancy upsampling (each chroma sample covers its 2x2 block).
  jpeg_decompress_struct d{};
  jpeg_error_mgr err{};
  d.err = jpeg_std_error(&err);
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, jpeg.data(), jpeg.size());
  jpeg_read_header(&d, TRUE);
  d.do_fancy_upsampling = FALSE;
  d.out_color_space = JCS_RGB;
  jpeg_start_decompress(&d);
  std::vector<uint8_t> want(size_t(w) * h * 3);
  while (d.output_scanline < h) {
    JSAMPROW row = &want[size_t(d.output_scanline) * w * 3];
    jpeg_read_scanlines(&d, &row, 1);
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  int worst = 0;
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(int(rgb.bytes[i]) - int(want[i])));
  EXPECT_LE(worst, 2) << "JFIF conversion, rounding differences only";
}

TEST(DvppImageTest, JpegEncodeRoundTripsAtHighQuality) {
  const uint32_t w = 80, h = 48;
  const auto jpeg = encode(w, h, 2, 2);
  Buffer a(img::kNv21, w, h, 80, 48);
  img::jpeg_decode_yuv420sp(jpeg.data(), jpeg.size(), a.pic);
  const auto again = img::jpeg_encode_yuv420sp(a.pic, 98);
  const auto info = img::jpeg_info(again.data(), again.size());
  EXPECT_EQ(info.width, w);
  EXPECT_EQ(info.sampling, 420);
  Buffer b(img::kNv21, w, h, 80, 48);
  img::jpeg_decode_yuv420sp(again.data(), again.size(), b.pic);
  double se = 0;
  for (size_t i = 0; i < a.bytes.size(); ++i) se += std::pow(double(a.bytes[i]) - double(b.bytes[i]), 2);
  const double psnr = 10 * std::log10(255.0 * 255.0 / (se / double(a.bytes.size())));
  EXPECT_GT(psnr, 38.0);
}

TEST(DvppImageTest, PngDecodeIsLibpngsPixels) {
  const uint32_t w = 37, h = 33;
  const auto rgb = test_rgb(w, h);
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = w;
  image.height = h;
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  ASSERT_TRUE(png_image_write_to_memory(&image, nullptr, &size, 0, rgb.data(), 0, nullptr));
  std::vector<uint8_t> png(size);
  ASSERT_TRUE(png_image_write_to_memory(&image, png.data(), &size, 0, rgb.data(), 0, nullptr));
  Buffer out(img::kRgb888, w, h, 128, 48);
  img::png_decode_rgb(png.data(), size, out.pic);
  for (uint32_t y = 0; y < h; ++y) {
    ASSERT_EQ(0, std::memcmp(&out.bytes[size_t(y) * 128], &rgb[size_t(y) * w * 3], w * 3)) << "row " << y;
  }
}

}  // namespace dvpp_image_test

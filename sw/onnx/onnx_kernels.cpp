#include "sw/onnx/onnx_kernels.h"

#include <fmt/format.h>

#include "platforms/ascend_soc.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

uint32_t vector_core_count() {
  auto& soc = Device::instance().soc();
  uint32_t n = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) n += soc.core(i).core_kind() != aicore::CoreKind::Aic;
  return std::max<uint32_t>(n, 1);
}

bool has_data_copy_pad() { return aicore::is_a2(Device::instance().soc().core(0).product()); }

uint32_t blocks_for(uint64_t work_items) {
  return uint32_t(std::max<uint64_t>(1, std::min<uint64_t>(vector_core_count(), work_items)));
}

void launch_vector(OpContext& ctx, const std::string& kernel, uint64_t work_items, double flops, double bytes,
                   const std::function<void()>& body) {
  LayerLaunch l;
  l.report = ctx.device.launch(kernel, blocks_for(work_items), body);
  l.flops = flops;
  l.bytes = bytes;
  l.unit = "vector";
  ctx.launches.push_back(l);
}

void allow_attributes(const Node& node, const std::vector<std::string>& allowed) {
  for (const auto& [name, value] : node.attributes) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      raise(node.source, "attribute '{}' is not supported by the {} lowering", name, node.op_type);
    }
  }
}

void require_float(const Node& node, const std::vector<TensorDesc>& inputs, const std::vector<TensorDesc>& outputs,
                   const std::vector<size_t>& float_inputs) {
  for (size_t i : float_inputs) {
    if (i < inputs.size() && !inputs[i].name.empty() && inputs[i].type != DType::Float) {
      raise(node.source, "input {} '{}' is {}: only float32 is supported", i, inputs[i].name,
            dtype_name(inputs[i].type));
    }
  }
  for (const auto& out : outputs) {
    if (!out.name.empty() && out.type != DType::Float) {
      raise(node.source, "output '{}' is {}: only float32 is supported", out.name, dtype_name(out.type));
    }
  }
}

int64_t normalized_axis(const Node& node, const char* attribute, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1)) {
    raise(node.source, "attribute '{}' = {} is out of range for rank {}", attribute, axis, rank);
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> constant_ints(const Node& node, const GmTensor* tensor, const char* what) {
  if (!tensor) raise(node.source, "the {} input is missing", what);
  std::vector<int64_t> v(size_t(tensor->desc.elements()));
  for (size_t i = 0; i < v.size(); ++i) {
    if (tensor->desc.type == DType::Int64) {
      v[i] = static_cast<const int64_t*>(tensor->data)[i];
    } else if (tensor->desc.type == DType::Int32) {
      v[i] = static_cast<const int32_t*>(tensor->data)[i];
    } else {
      raise(node.source, "the {} input '{}' must be int64 or int32, not {}", what, tensor->desc.name,
            dtype_name(tensor->desc.type));
    }
  }
  return v;
}

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

std::vector<int64_t> broadcast_shapes(const Node& node, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      raise(node.source, "shapes [{}] and [{}] do not broadcast", fmt::join(a, ","), fmt::join(b, ","));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& out) {
  const std::vector<int64_t> own = strides_of(shape);
  std::vector<int64_t> s(out.size(), 0);
  const size_t lead = out.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) s[lead + i] = shape[i] == 1 ? 0 : own[i];
  return s;
}

namespace {

// Drops unit dimensions and merges neighbours that every operand walks contiguously.
void coalesce(std::vector<int64_t>& shape, std::vector<std::vector<int64_t>*> strides) {
  std::vector<int64_t> s2;
  std::vector<std::vector<int64_t>> st2(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!s2.empty()) {
      bool mergeable = true;
      for (size_t k = 0; k < strides.size(); ++k) mergeable &= st2[k].back() == (*strides[k])[d] * shape[d];
      if (mergeable) {
        s2.back() *= shape[d];
        for (size_t k = 0; k < strides.size(); ++k) st2[k].back() = (*strides[k])[d];
        continue;
      }
    }
    s2.push_back(shape[d]);
    for (size_t k = 0; k < strides.size(); ++k) st2[k].push_back((*strides[k])[d]);
  }
  if (s2.empty()) {
    s2.push_back(1);
    for (auto& st : st2) st.push_back(1);
  }
  shape = s2;
  for (size_t k = 0; k < strides.size(); ++k) *strides[k] = st2[k];
}

// Offset of row r (row-major over shape[0..rank-2]) along `strides`.
int64_t row_offset(int64_t r, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (int d = int(shape.size()) - 2; d >= 0; --d) {
    offset += (r % shape[d]) * strides[d];
    r /= shape[d];
  }
  return offset;
}

// The block's share of `items` work items: [first, end).
void my_items(uint64_t items, uint64_t* first, uint64_t* end) {
  const uint64_t blocks = uint64_t(GetBlockNum()), b = uint64_t(GetBlockIdx());
  const uint64_t per = items / blocks, extra = items % blocks;
  *first = b * per + std::min(b, extra);
  *end = *first + per + (b < extra ? 1 : 0);
}

constexpr uint32_t kCopyBytes = 32 * 1024;  // one UB slot of the copy kernel

template <class T>
void copy_kernel(GM_ADDR in, GM_ADDR out, const CopyView& v, bool pad) {
  GlobalTensor<T> inGm, outGm;
  inGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in));
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> queue;
  pipe.InitBuffer(queue, 2, kCopyBytes);
  const int64_t length = v.shape.back(), step = v.strides.back();
  // Contiguous runs move up to 32 KiB at once; strided ones take 32 B of UB per element.
  const int64_t chunk = step == 1 ? int64_t(kCopyBytes / sizeof(T)) : step > 1 ? int64_t(kCopyBytes / 32) : 1;
  const int64_t chunks = (length + chunk - 1) / chunk;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < v.shape.size(); ++d) rows *= v.shape[d];
  uint64_t first, end;
  my_items(uint64_t(rows * chunks), &first, &end);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t r = int64_t(item) / chunks, c = int64_t(item) % chunks;
    const int64_t n = std::min(chunk, length - c * chunk);
    const int64_t src = v.base + row_offset(r, v.shape, v.strides) + c * chunk * step;
    const int64_t dst = v.out_base + row_offset(r, v.shape, v.out_strides) + c * chunk;
    if (step != 1 && !pad) {  // no strided DMA on these cores: element by element from the scalar unit
      for (int64_t i = 0; i < n; ++i) outGm.SetValue(uint64_t(dst + i), inGm.GetValue(uint64_t(src + i * step)));
      continue;
    }
    LocalTensor<T> t = queue.template AllocTensor<T>();
    if (step == 1) {
      copy_in(t, inGm[src], n, pad);
    } else {
      // n elements `step` apart: one block each, padded to 32 B in UB (n is 1 for step <= 0).
      DataCopyPad(t, inGm[src], DataCopyExtParams(uint16_t(n), sizeof(T), uint32_t((std::max<int64_t>(step, 1) - 1) * sizeof(T)), 0, 0),
                  DataCopyPadExtParams<T>(false, 0, 0, T(0)));
    }
    queue.EnQue(t);
    t = queue.template DeQue<T>();
    if (step == 1) {
      copy_out(outGm[dst], t, n, pad);
    } else {
      DataCopyPad(outGm[dst], t, DataCopyExtParams(uint16_t(n), sizeof(T), 0, 0, 0));
    }
    queue.FreeTensor(t);
  }
}

}  // namespace

void strided_copy(OpContext& ctx, const char* kernel, const void* in, void* out, size_t elem, CopyView view) {
  if (view.out_strides.empty()) view.out_strides = strides_of(view.shape);
  int64_t elements = 1;
  for (int64_t d : view.shape) elements *= d;
  if (elements == 0) return;
  coalesce(view.shape, {&view.strides, &view.out_strides});
  if (view.out_strides.back() != 1) raise(ctx.node.source, "internal: a copy view must write runs contiguously");
  const int64_t step = view.strides.back(), length = view.shape.back();
  const int64_t chunk = step == 1 ? int64_t(kCopyBytes / elem) : step > 1 ? int64_t(kCopyBytes / 32) : 1;
  const uint64_t items = uint64_t(elements / length) * uint64_t((length + chunk - 1) / chunk);
  auto pin = reinterpret_cast<GM_ADDR>(const_cast<void*>(in)), pout = reinterpret_cast<GM_ADDR>(out);
  const bool pad = has_data_copy_pad();
  launch_vector(ctx, kernel, items, 0, 2.0 * double(elements) * double(elem), [=] {
    switch (elem) {
      case 1: copy_kernel<uint8_t>(pin, pout, view, pad); break;
      case 2: copy_kernel<int16_t>(pin, pout, view, pad); break;
      case 4: copy_kernel<float>(pin, pout, view, pad); break;
      default: copy_kernel<int64_t>(pin, pout, view, pad); break;
    }
  });
}

namespace {

struct ElementwisePlan {
  std::vector<int64_t> shape;               // coalesced output shape
  std::vector<int64_t> out_strides;
  std::vector<std::vector<int64_t>> in_strides;
  int64_t rows = 1, length = 1, tiles = 1;  // tiles per row
};

void elementwise_kernel(const std::vector<GM_ADDR>& ins, GM_ADDR out, const ElementwisePlan& p,
                        const ElementwiseCompute& compute, bool pad) {
  constexpr int32_t kTile = kElementwiseTile;
  const size_t k_inputs = ins.size();
  GlobalTensor<float> xGm[2], zGm;
  for (size_t k = 0; k < k_inputs; ++k) xGm[k].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ins[k]));
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQueue[2];
  TQue<TPosition::VECOUT, 2> outQueue;
  TBuf<TPosition::VECCALC> tmpBuf;
  for (size_t k = 0; k < k_inputs; ++k) pipe.InitBuffer(inQueue[k], 2, kTile * sizeof(float));
  pipe.InitBuffer(outQueue, 2, kTile * sizeof(float));
  pipe.InitBuffer(tmpBuf, kElementwiseTmpTiles * kTile * sizeof(float));
  const LocalTensor<float> tmp = tmpBuf.Get<float>();
  uint64_t first, end;
  my_items(uint64_t(p.rows * p.tiles), &first, &end);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t r = int64_t(item) / p.tiles, t = int64_t(item) % p.tiles;
    const int64_t n = std::min<int64_t>(kTile, p.length - t * kTile);
    const int32_t lanes = int32_t((n + 63) / 64 * 64);
    LocalTensor<float> x[2];
    for (size_t k = 0; k < k_inputs; ++k) {
      x[k] = inQueue[k].AllocTensor<float>();
      const int64_t offset = row_offset(r, p.shape, p.in_strides[k]) + t * kTile * p.in_strides[k].back();
      if (p.in_strides[k].back() == 1) {
        copy_in(x[k], xGm[k][offset], n, pad);
      } else {  // broadcast along the row: one value
        Duplicate(x[k], xGm[k].GetValue(offset), lanes);
      }
      inQueue[k].EnQue(x[k]);
    }
    for (size_t k = 0; k < k_inputs; ++k) x[k] = inQueue[k].DeQue<float>();
    LocalTensor<float> z = outQueue.AllocTensor<float>();
    compute(z, x[0], k_inputs > 1 ? x[1] : x[0], tmp, lanes);
    outQueue.EnQue(z);
    for (size_t k = 0; k < k_inputs; ++k) inQueue[k].FreeTensor(x[k]);
    z = outQueue.DeQue<float>();
    const int64_t offset = row_offset(r, p.shape, p.out_strides) + t * kTile;
    copy_out(zGm[offset], z, n, pad);
    outQueue.FreeTensor(z);
  }
}

}  // namespace

void elementwise(OpContext& ctx, const char* kernel, const std::vector<const GmTensor*>& inputs, GmTensor& out,
                 double flops_per_element, const ElementwiseCompute& compute) {
  ElementwisePlan p;
  p.shape = out.desc.shape;
  p.out_strides = strides_of(p.shape);
  double bytes = double(out.desc.bytes());
  for (const GmTensor* in : inputs) {
    p.in_strides.push_back(broadcast_strides(in->desc.shape, p.shape));
    bytes += double(in->desc.bytes());
  }
  if (out.desc.elements() == 0) return;
  std::vector<std::vector<int64_t>*> all{&p.out_strides};
  for (auto& s : p.in_strides) all.push_back(&s);
  coalesce(p.shape, all);
  p.length = p.shape.back();
  p.rows = out.desc.elements() / p.length;
  p.tiles = (p.length + kElementwiseTile - 1) / kElementwiseTile;
  std::vector<GM_ADDR> ins;
  for (const GmTensor* in : inputs) ins.push_back(reinterpret_cast<GM_ADDR>(in->data));
  GM_ADDR z = reinterpret_cast<GM_ADDR>(out.data);
  const bool pad = has_data_copy_pad();
  launch_vector(ctx, kernel, uint64_t(p.rows * p.tiles), flops_per_element * double(out.desc.elements()), bytes,
                [=] { elementwise_kernel(ins, z, p, compute, pad); });
}

}  // namespace npuvp::onnx

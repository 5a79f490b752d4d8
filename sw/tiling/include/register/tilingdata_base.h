// CANN's tiling-data definitions (register/tilingdata_base.h): a host program declares its
// tiling struct once with these macros and gets a class with set_<field>/get_<field>,
// GetDataSize and SaveToBuffer; the kernel reads the same bytes back (GET_TILING_DATA).
//
// npuvp's class is the fields themselves, in declaration order with their natural alignment,
// so the bytes SaveToBuffer writes are the plain struct a kernel declares with the same
// fields (what CANN's generated kernel-side struct is). Public fields are also readable
// directly (tiling.M), as on the kernel side of CANN.
//   BEGIN_TILING_DATA_DEF(Name) ... TILING_DATA_FIELD_DEF(type, field) ...
//   TILING_DATA_FIELD_DEF_ARR(type, count, field), TILING_DATA_FIELD_DEF_STRUCT(Struct, field)
//   END_TILING_DATA_DEF;  REGISTER_TILING_DATA_CLASS(OpType, Name)
// (hiascend.com, Ascend C "TilingData结构定义" / BEGIN_TILING_DATA_DEF.)
// Differs from CANN: no TilingDef base class, no field registry by name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#define BEGIN_TILING_DATA_DEF(class_name)                                                          \
  class class_name {                                                                               \
   public:                                                                                         \
    size_t GetDataSize() const { return sizeof(class_name); }                                      \
    /* Copies the fields into buf; false if it cannot hold them. */                                \
    bool SaveToBuffer(void* buf, size_t capacity) const {                                          \
      if (buf == nullptr || capacity < sizeof(class_name)) return false;                           \
      std::memcpy(buf, static_cast<const void*>(this), sizeof(class_name));                        \
      return true;                                                                                 \
    }                                                                                              \
    void SetDataPtr(void* data) { std::memcpy(static_cast<void*>(this), data, sizeof(class_name)); } \
    uint8_t* GetDataPtr() { return reinterpret_cast<uint8_t*>(this); }

#define TILING_DATA_FIELD_DEF(type, name)                 \
 public:                                                  \
  type name = type();                                     \
  void set_##name(type value) { name = value; }           \
  type get_##name() const { return name; }

#define TILING_DATA_FIELD_DEF_ARR(type, count, name)                                           \
 public:                                                                                       \
  type name[count] = {};                                                                       \
  void set_##name(const type* values) { std::memcpy(name, values, sizeof(type) * (count)); } \
  type* get_##name() { return name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, name) \
 public:                                                \
  struct_type name;                                     \
  struct_type& get_##name() { return name; }

#define END_TILING_DATA_DEF }

// Registers the class for an op type, in the namespace it is written in (CANN's samples:
// optiling). GET_TILING_DATA, in a kernel built into the same program, reads that class.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
  using op_type##TilingDataRegistered = class_name;     \
  using NpuvpRegisteredTilingData = class_name;

// Kernel side: `GET_TILING_DATA(var, tiling)` copies the registered tiling struct from the
// GM address `tiling` into a local `var`; GET_TILING_DATA_WITH_STRUCT names the struct.
#define GET_TILING_DATA_WITH_STRUCT(struct_type, var, tiling_addr)                         \
  struct_type var;                                                                         \
  std::memcpy(static_cast<void*>(&var), reinterpret_cast<const void*>(tiling_addr), sizeof(struct_type))
#define GET_TILING_DATA(var, tiling_addr) \
  GET_TILING_DATA_WITH_STRUCT(::optiling::NpuvpRegisteredTilingData, var, tiling_addr)

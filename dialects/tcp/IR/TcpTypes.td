#ifndef TCP_TYPES_TD
#define TCP_TYPES_TD

include "TcpBase.td"

def Tcp_HbmType : Tcp_Type<"Hbm", "hbm"> {
  let summary = "a tensor in HBM, row-major over its element mapping";
  let description = [{
    `!tcp.hbm<bf16, "[T, N, D]">`: element type and element mapping. The logical axes of the
    tensor are the axes its mapping mentions.
  }];
  let parameters = (ins "::mlir::Type":$elementType, "::rngd::tcp::MappingAttr":$elem);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tcp_DmType : Tcp_Type<"Dm", "dm"> {
  let summary = "a tensor in Data Memory, placed on clusters and slices";
  let description = [{
    `!tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4 # 256", elem = "H % 4">`: each slice
    holds `elem` (at the same per-slice address on every slice, chosen by
    `tcp-allocate-memory`). Axes that the tensor does not have may appear in `cluster` and
    `slice`: the data is replicated along them.
  }];
  let parameters = (ins "::mlir::Type":$elementType, "::rngd::tcp::MappingAttr":$cluster,
                        "::rngd::tcp::MappingAttr":$slice, "::rngd::tcp::MappingAttr":$elem);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tcp_StreamType : Tcp_Type<"Stream", "stream"> {
  let summary = "the data of one Tensor Unit pass: per slice, one packet per time step";
  let description = [{
    `!tcp.stream<f32, cluster = "1 # 2", slice = "H / 8 # 256", time = "1", packet = "H % 8">`.
  }];
  let parameters = (ins "::mlir::Type":$elementType, "::rngd::tcp::MappingAttr":$cluster,
                        "::rngd::tcp::MappingAttr":$slice, "::rngd::tcp::MappingAttr":$time,
                        "::rngd::tcp::MappingAttr":$packet);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tcp_TrfType : Tcp_Type<"Trf", "trf"> {
  let summary = "a tensor in the Tensor Register File: the Contraction Engine's stationary operand";
  let description = [{
    `!tcp.trf<bf16, cluster = "1 # 2", slice = "I / 32 # 256", lane = "I % 8", elem = "[I / 8 % 4, J]">`:
    each slice's TRF holds `lane` (1, 2, 4 or 8 lanes) by `elem`. A slice has 64 KB of TRF
    payload shared by the lanes: at most 64 KB / lanes per lane.
  }];
  let parameters = (ins "::mlir::Type":$elementType, "::rngd::tcp::MappingAttr":$cluster,
                        "::rngd::tcp::MappingAttr":$slice, "::rngd::tcp::MappingAttr":$lane,
                        "::rngd::tcp::MappingAttr":$elem);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tcp_VrfType : Tcp_Type<"Vrf", "vrf"> {
  let summary = "a tensor in the Vector Register File: a Vector Engine operand";
  let description = [{
    `!tcp.vrf<f32, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">`: 8 KB per slice.
  }];
  let parameters = (ins "::mlir::Type":$elementType, "::rngd::tcp::MappingAttr":$cluster,
                        "::rngd::tcp::MappingAttr":$slice, "::rngd::tcp::MappingAttr":$elem);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TCP_TYPES_TD

#ifndef TCP_TYPES_TD
#define TCP_TYPES_TD

include "TcpBase.td"

def Tcp_HbmType : Tcp_Type<"Hbm", "hbm"> {
  let summary = "a tensor in HBM, row-major over its element mapping";
  let description = [{
    `!tcp.hbm<bf16, "[T, N, D]">`: element type and element mapping. The logical axes of the
    tensor are the axes its mapping mentions.
  }];
  let parameters = (ins "::mlir::Type":$elementType, StringRefParameter<>:$elem);
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
  let parameters = (ins "::mlir::Type":$elementType, StringRefParameter<>:$cluster,
                        StringRefParameter<>:$slice, StringRefParameter<>:$elem);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tcp_StreamType : Tcp_Type<"Stream", "stream"> {
  let summary = "the data of one Tensor Unit pass: per slice, one packet per time step";
  let description = [{
    `!tcp.stream<f32, cluster = "1 # 2", slice = "H / 8 # 256", time = "1", packet = "H % 8">`.
  }];
  let parameters = (ins "::mlir::Type":$elementType, StringRefParameter<>:$cluster,
                        StringRefParameter<>:$slice, StringRefParameter<>:$time,
                        StringRefParameter<>:$packet);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TCP_TYPES_TD

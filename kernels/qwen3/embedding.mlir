// Qwen3-0.6B `embedding` stage: the host selects the token's embedding row and passes it as
// `input`; the kernel copies it into the residual stream `out` (HBM -> HBM).
!h = !tcp.hbm<bf16, "H">

module attributes {tcp.axes = {H = 1024}} {
  func.func @embedding(%input: !h {tcp.arg = "in", tcp.name = "input"},
                       %out: !h {tcp.arg = "out", tcp.name = "out"}) {
    tcp.dma %input into %out : !h -> !h
    return
  }
}

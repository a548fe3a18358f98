// y[1, :] = x[2, :] through DM, addressing the rows with views of the arguments.
!x = !tcp.hbm<bf16, "[B, C]">
!y = !tcp.hbm<bf16, "[K, C]">
!row = !tcp.hbm<bf16, "C">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "C / 4 # 256", elem = "C % 4">
module attributes {tcp.axes = {B = 4, K = 2, C = 256}} {
  func.func @tile_copy(%x: !x {tcp.arg = "in", tcp.name = "x"},
                       %y: !y {tcp.arg = "inout", tcp.name = "y"}) {
    %xt = tcp.view %x offset 512 : !x -> !row
    %yt = tcp.view %y offset 256 : !y -> !row
    %d = tcp.dma %xt : !row -> !dm
    tcp.dma %d into %yt : !dm -> !row
    return
  }
}

#!/usr/bin/env python3
"""Writes a kernel of more DMAs than the 64 DMA tags (test/passes/schedule-tags.test):

  many-dmas.py STORES PACKETS > k.mlir

w (PACKETS x 8 bf16) is loaded into slice 0 of cluster 0, a pass of about PACKETS cycles
adds 1 to it and the result is stored into z: the kernel's last DMA, which the scheduler
spreads over cluster 0's engines, idle by then. Meanwhile x (256 bf16) is loaded once and
stored STORES times, into the rows of y: result stores that no DMA waits for, each holding
its tag to the kernel's end unless the scheduler waits for it to free one.
"""
import sys

stores, packets = int(sys.argv[1]), int(sys.argv[2])
row = 256
print(f"""// many-dmas.py {stores} {packets}: {stores + 3} DMAs.
!row = !tcp.hbm<bf16, "C">
!rows = !tcp.hbm<bf16, "[N, C]">
!rowdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "C / 4 # 256", elem = "C % 4">
!long = !tcp.hbm<bf16, "B">
!longdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "B / 8", packet = "B % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 8", packet = "B % 8">
module attributes {{tcp.axes = {{N = {stores}, C = {row}, B = {packets * 8}}}}} {{
  func.func @many_dmas(%x: !row {{tcp.arg = "in", tcp.name = "x"}},
                       %w: !long {{tcp.arg = "in", tcp.name = "w"}},
                       %y: !rows {{tcp.arg = "out", tcp.name = "y"}},
                       %z: !long {{tcp.arg = "out", tcp.name = "z"}}) {{
    %l = tcp.dma %w : !long -> !longdm
    %s = tcp.fetch main %l : !longdm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %k = tcp.cast %v : !f32s -> !bf16s
    %r = tcp.commit %k : !bf16s -> !longdm
    tcp.dma %r into %z : !longdm -> !long
    %d = tcp.dma %x : !row -> !rowdm""")
for i in range(stores):
    print(f"    %y{i} = tcp.view %y offset {i * row} : !rows -> !row")
    print(f"    tcp.dma %d into %y{i} : !rowdm -> !row")
print("""    return
  }
}""")

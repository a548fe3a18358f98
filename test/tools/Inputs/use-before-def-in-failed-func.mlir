!v = !tcp.hbm<bf16, "H">
!vdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">
!xs = !tcp.stream<f32, cluster = "1 # 2", slice = "H / 4", time = "1", packet = "H % 4">
    %s5 = tcp.fetch main %xd : !vdm -> !xs
!ss = !tcp.stream<f32, cluster = "1 # 2", slice = "R", time = "1", packet = "1 # 2">
!sdm = !tcp.dm<f32, cluster = "1 # 2", slice = "R", elem = "1 # 2">
  func.func @rmsnorm(%x: !v {tcp.arg = "in", tcp.name = "x"},
                     %y: !v {tcp.arg = "out", tcp.name = "y % 33"}) {
    %xd = tcp.dma %x : !v -> !vdm
    %c1 = tcp.collect %x1 : !xs
    %sum = tcp.commit %q : !ss -> !sdm
    %s2 = tcp.fetch main %sum : !sdm -> !ss
    %c2 = tcp.collect %s2 : !ss
    %rms = tcp.commit %r : !ss -> !sdm
    %s3 = tcp.fetch sub %rms : !sdm -> !ss
    %c3 = tcp.collect %s3 : !ss

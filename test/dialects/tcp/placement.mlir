// RUN: rngd-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// Placements are compared by where they put each cell, not by how they are spelled:
// "[1 # 2, I / 8 % 32, I / 2 % 4]" puts value I on slice I / 2 % 128 of each half, as
// "[1 # 2, I / 2 % 128]" does, so a pass may commit to either.

!x = !tcp.dm<f32, cluster = "1 # 2", slice = "[1 # 2, I / 2 % 128]", elem = "I % 2">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "[1 # 2, I / 2 % 128]", time = "1", packet = "I % 2">
!y = !tcp.dm<f32, cluster = "1 # 2", slice = "[1 # 2, I / 8 % 32, I / 2 % 4]", elem = "I % 2">
module attributes {tcp.axes = {I = 256}} {
  // CHECK-LABEL: func.func @respelled
  func.func @respelled(%x: !x) {
    %s = tcp.fetch main %x : !x -> !s
    %c = tcp.collect %s : !s
    // The vector result's placement is spelled like the result's, not the input's.
    // CHECK: tcp.vector {{.*}} -> !tcp.stream<f32, cluster = "1 # 2", slice = "[1 # 2, I / 8 % 32, I / 2 % 4]"
    %v = tcp.vector %c [add_f 1.0] : !s -> !tcp.stream<f32, cluster = "1 # 2", slice = "[1 # 2, I / 8 % 32, I / 2 % 4]", time = "1", packet = "I % 2">
    // CHECK: tcp.commit
    %y = tcp.commit %v : !tcp.stream<f32, cluster = "1 # 2", slice = "[1 # 2, I / 8 % 32, I / 2 % 4]", time = "1", packet = "I % 2"> -> !y
    return
  }
}

// -----

// A placement that differs is still refused, with both spellings in the message.
!x = !tcp.dm<f32, cluster = "1 # 2", slice = "[1 # 2, I / 2 % 128]", elem = "I % 2">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "[1 # 2, I / 2 % 128]", time = "1", packet = "I % 2">
!y = !tcp.dm<f32, cluster = "1 # 2", slice = "[1 # 2, I / 2 % 4, I / 8 % 32]", elem = "I % 2">
module attributes {tcp.axes = {I = 256}} {
  func.func @moved(%x: !x) {
    %s = tcp.fetch main %x : !x -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{each slice commits to its own DM: the result's cluster/slice mappings must equal the stream's}}
    %y = tcp.commit %c : !s -> !y
    return
  }
}

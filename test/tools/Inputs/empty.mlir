// A kernel that moves nothing (test/tools/critical-path.test).
module attributes {tcp.axes = {A = 8}} {
  func.func @empty() {
    return
  }
}

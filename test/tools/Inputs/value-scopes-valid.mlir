func.func @f(%x: i32, %y: i32) -> i32 {
  %a, %b = "t.pair"(%x, %y) : (i32, i32) -> (i32, i32)
  %r:2 = "t.two"(%a) : (i32) -> (i32, i32)
  "t.region"() ({
  ^bb0(%z: i32):
    "t.use"(%z, %r#1, %w) : (i32, i32, i32) -> ()
    %w = "t.def"() : () -> i32
  }) : () -> ()
  return %b : i32
}
func.func @g(%x: i32) -> i32 {
  %a = "t.one"(%x) : (i32) -> i32
  return %a : i32
}
// -----
// expected-error @+1 {{use of undeclared SSA value name}}
"t.top"(%v) : (i32) -> ()
// -----
func.func @h(%v: i32) {
  return
}

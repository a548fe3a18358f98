// GPT-2's byte-level alphabet: each of the 256 byte values is written as one printable code
// point (printable bytes as themselves, the others as U+0100 + n), so BPE works on text that
// holds any bytes. Used by the encoder (bytes -> alphabet) and the decoder (alphabet -> bytes).
#pragma once

#include <cstdint>
#include <string>

namespace rngd::qwen3 {

/// The code point that stands for `byte`.
int byteToCodepoint(unsigned char byte);
/// The byte that code point cp stands for, or -1 when cp is not in the alphabet.
int codepointToByte(uint32_t cp);
/// The UTF-8 form of the code point of `byte` (1 or 2 bytes).
const std::string &byteSymbol(unsigned char byte);

} // namespace rngd::qwen3

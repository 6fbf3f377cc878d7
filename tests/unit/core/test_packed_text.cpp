// core/packed_text: a file's text held compressed until matching; every text must come back byte for byte.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "tr2audit/core/packed_text.hpp"

using tr2audit::PackedText;

namespace {

std::string round_trip(const std::string& text) {
  const PackedText packed = PackedText::pack(text);
  CHECK(packed.size() == text.size());
  return packed.unpack();
}

}  // namespace

TEST_CASE("PackedText gives back every text it packed", "[core][packed_text]") {
  CHECK(round_trip("").empty());
  CHECK(round_trip("x") == "x");
  CHECK(round_trip("abcd") == "abcd");
  const std::string runs = std::string(100'000, 'a') + "b" + std::string(300, 'a');  // overlapping matches
  CHECK(round_trip(runs) == runs);
  std::string lengths;  // literal runs and matches across the 15 and 15 + 255 length boundaries
  std::mt19937 rng(7);
  for (int n : {1, 14, 15, 16, 269, 270, 271, 600}) {
    for (int k = 0; k < n; ++k) lengths.push_back(static_cast<char>('a' + rng() % 26));
    lengths += lengths.substr(0, static_cast<std::size_t>(n) + 4);
  }
  CHECK(round_trip(lengths) == lengths);
  std::string far;  // a repeat just inside, and one just past, the 65535-byte window
  for (int k = 0; k < 70'000; ++k) far.push_back(static_cast<char>(rng() % 256));
  far += far.substr(far.size() - 65'535, 64) + far.substr(0, 64);
  CHECK(round_trip(far) == far);
  std::string binary;
  for (int k = 0; k < 5'000; ++k) binary.push_back(static_cast<char>(rng() % 256));
  const PackedText random = PackedText::pack(binary);
  CHECK(random.packed_bytes() <= binary.size());  // incompressible: kept as is
  CHECK(random.unpack() == binary);
}

TEST_CASE("PackedText makes training code several times smaller", "[core][packed_text]") {
  std::string code;
  for (int step = 0; step < 200; ++step) {
    code += "    for batch in loader:\n        loss = model(batch[\"input_ids\"].cuda()).loss\n";
    code += "        loss.backward()\n        if step % " + std::to_string(step + 1) +
            " == 0:\n            print(loss.item())\n        optimizer.step()\n";
  }
  const PackedText packed = PackedText::pack(code);
  CHECK(packed.packed_bytes() * 3 < code.size());
  CHECK(packed.unpack() == code);
}

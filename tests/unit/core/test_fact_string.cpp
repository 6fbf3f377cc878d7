// core/fact_string: the 8-byte string of facts (owned or borrowed from a file's StringPool).
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tr2audit/core/fact_string.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/facts/facts.hpp"

using namespace tr2audit;

TEST_CASE("FactString is one pointer and reads like a string_view", "[core][fact_string]") {
  STATIC_REQUIRE(sizeof(FactString) == sizeof(void*));
  STATIC_REQUIRE(sizeof(QualifiedName) == sizeof(void*));
  const FactString empty;
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  CHECK(std::string(empty.c_str()).empty());
  CHECK(empty == "");

  const FactString item = "loss.item";
  CHECK(item.size() == 9);
  CHECK(item == "loss.item");
  CHECK(item != "loss.items");
  CHECK(item == std::string("loss.item"));
  CHECK(item == std::string_view("loss.item"));
  CHECK(item.starts_with("loss."));
  CHECK(item.ends_with("item"));
  CHECK(item.find('.') == 4);
  CHECK(item.substr(5) == "item");
  CHECK(item.back() == 'm');
  CHECK(item < FactString("loss.z"));
  CHECK("x." + item == "x.loss.item");
  CHECK(item + "()" == "loss.item()");
  const std::string converted = item;
  CHECK(converted == "loss.item");
  CHECK(std::string(item.c_str()) == "loss.item");  // NUL-terminated
}

TEST_CASE("FactString copies: owned ones deep-copy, borrowed ones share the pool's entry", "[core][fact_string]") {
  FactString owned(std::string("torch.cuda.synchronize"));
  FactString copy = owned;
  CHECK(copy == owned);
  CHECK(copy.data() != owned.data());
  owned = FactString("other");  // the copy keeps its own text
  CHECK(copy == "torch.cuda.synchronize");
  FactString moved = std::move(copy);
  CHECK(moved == "torch.cuda.synchronize");
  copy = moved;  // a moved-from string can be assigned again
  CHECK(copy == moved);
  const FactString& self = copy;
  copy = self;  // self-assignment keeps the text
  CHECK(copy == "torch.cuda.synchronize");

  StringPool pool;
  const FactString a = pool.intern("self.model");
  const FactString b = pool.intern(std::string("self.") + "model");
  CHECK(a == "self.model");
  CHECK(a.data() == b.data());  // interned once
  const FactString shared = a;
  CHECK(shared.data() == a.data());  // a borrowed copy points at the same entry
  CHECK(pool.intern("").empty());
}

TEST_CASE("StringPool entries stay put while the pool grows, moves and after seal", "[core][fact_string]") {
  StringPool pool;
  pool.expect(64);
  std::vector<std::pair<FactString, std::string>> kept;
  for (int i = 0; i < 5000; ++i) {
    std::string text = "name_" + std::to_string(i) + std::string(static_cast<std::size_t>(i % 300), 'x');
    kept.emplace_back(pool.intern(text), text);
  }
  StringPool moved = std::move(pool);
  moved.seal();
  const FactString again = moved.intern("name_1x");  // still works after seal (a new entry)
  CHECK(again == "name_1x");
  for (const auto& [fact, text] : kept) REQUIRE(fact == text);
  CHECK(moved.used() <= moved.bytes());
  // The unused end of the chunks stays small against what the entries take.
  CHECK(moved.bytes() - moved.used() < moved.used() / 4);
}

TEST_CASE("FactStrings work as keys of the standard containers", "[core][fact_string]") {
  StringPool pool;
  std::set<FactString> ordered{pool.intern("b"), pool.intern("a"), FactString("b")};
  CHECK(ordered.size() == 2);
  CHECK(*ordered.begin() == "a");
  std::unordered_set<FactString> hashed{pool.intern("x"), FactString("x")};
  CHECK(hashed.size() == 1);
  std::map<std::string, int> by_string;
  by_string[pool.intern("key")] = 1;
  CHECK(by_string.count("key") == 1);
}

TEST_CASE("a file's facts keep their pooled strings valid in copies of the FileFacts", "[core][fact_string]") {
  facts::FileFacts copy;
  facts::CallFact call;
  {
    facts::FileFacts file;
    file.path = file.strings("train.py");
    call.method = file.strings("item");
    call.callee = file.strings.name("torch.cuda.synchronize");
    file.calls.push_back(call);
    copy = file;  // shares the pool
  }
  CHECK(copy.path == "train.py");
  CHECK(copy.calls.at(0).method == "item");
  CHECK(copy.calls.at(0).callee.dotted() == "torch.cuda.synchronize");
  CHECK(copy.calls.at(0).callee.starts_with("torch.cuda"));
  CHECK(copy.calls.at(0).callee.last_segment() == "synchronize");
}

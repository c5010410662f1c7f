//===- ManifestTest.cpp - the manifest's one schema, written and read -----===//
//
// printManifest (what emit-gpu-artifacts writes) read back by parseManifest
// (what the launchers read) gives the same program; and the reader refuses
// each kind of defect with the JSON path of the field at fault, before any
// CUDA call.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/Manifest.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::gpurun;

namespace {

Buffer makeBuffer(std::string name, Role role, unsigned index,
                  superopt::TensorShape shape, Dtype dtype, unsigned storage) {
  Buffer b;
  b.name = std::move(name);
  b.role = role;
  b.index = index;
  b.shape = std::move(shape);
  b.dtype = dtype;
  uint64_t elements = 1;
  for (int64_t d : b.shape)
    elements *= d;
  b.bytes = elements * dtypeSize(dtype);
  b.storage = storage;
  return b;
}

/// Two functions with every role: inputs in another order than their
/// indices, a temp, a view (listed before the buffer it views), an index
/// input, two launches.
Manifest sample() {
  Manifest m;
  m.path = "out/prog.json";
  m.chip = "sm_90";
  m.ptxPath = "out/prog.ptx";
  m.cubinPath = "out/prog.cubin";

  Function f;
  f.name = "mlp";
  f.reference = "func.func @mlp() { return }";
  f.buffers.push_back(makeBuffer("view0", Role::View, 0, {4, 64}, Dtype::F16,
                                 /*storage=*/3));
  f.buffers.push_back(makeBuffer("arg1", Role::Input, 1, {64, 32}, Dtype::BF16, 1));
  f.buffers.push_back(makeBuffer("arg0", Role::Input, 0, {16, 16}, Dtype::F16, 2));
  f.buffers.push_back(makeBuffer("tmp0", Role::Temp, 0, {16, 16}, Dtype::F16, 3));
  f.buffers.push_back(makeBuffer("result0", Role::Output, 0, {4, 32}, Dtype::F32, 4));
  f.buffers.push_back(makeBuffer("arg2", Role::Input, 2, {4}, Dtype::I64, 5));
  f.inputs = {2, 1, 5};
  f.outputs = {4};
  Launch a;
  a.kernel = "mlp_k0";
  a.grid = {8, 2, 1};
  a.block = {128, 1, 1};
  a.dynamicSharedMemory = 49152;
  a.args = {2, 3};
  Launch b;
  b.kernel = "mlp_k1";
  b.grid = {1, 1, 1};
  b.block = {32, 4, 2};
  b.dynamicSharedMemory = 0;
  b.args = {0, 1, 5, 4};
  f.launches = {a, b};
  m.functions.push_back(f);

  Function g;
  g.name = "copy";
  g.reference = "func.func @copy() { return }";
  g.buffers.push_back(makeBuffer("arg0", Role::Input, 0, {3, 0}, Dtype::F32, 0));
  g.buffers.push_back(makeBuffer("result0", Role::Output, 0, {3, 0}, Dtype::F32, 1));
  g.inputs = {0};
  g.outputs = {1};
  Launch c;
  c.kernel = "copy_k0";
  c.grid = {1, 1, 1};
  c.block = {1, 1, 1};
  c.dynamicSharedMemory = 0;
  c.args = {0, 1};
  g.launches = {c};
  m.functions.push_back(g);
  return m;
}

void expectSame(const Manifest &a, const Manifest &b) {
  EXPECT_EQ(a.chip, b.chip);
  EXPECT_EQ(a.ptxPath, b.ptxPath);
  EXPECT_EQ(a.cubinPath, b.cubinPath);
  ASSERT_EQ(a.functions.size(), b.functions.size());
  for (size_t i = 0; i < a.functions.size(); ++i) {
    const Function &f = a.functions[i], &g = b.functions[i];
    EXPECT_EQ(f.name, g.name);
    EXPECT_EQ(f.reference, g.reference);
    ASSERT_EQ(f.buffers.size(), g.buffers.size());
    for (size_t j = 0; j < f.buffers.size(); ++j) {
      const Buffer &x = f.buffers[j], &y = g.buffers[j];
      EXPECT_EQ(x.name, y.name) << f.name << " buffer " << j;
      EXPECT_EQ(x.role, y.role) << x.name;
      EXPECT_EQ(x.index, y.index) << x.name;
      EXPECT_EQ(x.shape, y.shape) << x.name;
      EXPECT_EQ(x.dtype, y.dtype) << x.name;
      EXPECT_EQ(x.bytes, y.bytes) << x.name;
      EXPECT_EQ(x.storage, y.storage) << x.name;
    }
    EXPECT_EQ(f.inputs, g.inputs) << f.name;
    EXPECT_EQ(f.outputs, g.outputs) << f.name;
    ASSERT_EQ(f.launches.size(), g.launches.size());
    for (size_t j = 0; j < f.launches.size(); ++j) {
      const Launch &x = f.launches[j], &y = g.launches[j];
      EXPECT_EQ(x.kernel, y.kernel);
      EXPECT_EQ(x.grid, y.grid) << x.kernel;
      EXPECT_EQ(x.block, y.block) << x.kernel;
      EXPECT_EQ(x.dynamicSharedMemory, y.dynamicSharedMemory) << x.kernel;
      EXPECT_EQ(x.args, y.args) << x.kernel;
    }
  }
}

TEST(ManifestTest, WhatIsWrittenReadsBackTheSame) {
  Manifest m = sample();
  std::string text = printManifest(m);
  llvm::Expected<Manifest> read = parseManifest(text, m.path);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError())
                                       << "\n" << text;
  expectSame(m, *read);
  // Printing what was read gives the same text: nothing is lost or added.
  EXPECT_EQ(printManifest(*read), text);
}

TEST(ManifestTest, FilesAreNamedRelativeToTheManifest) {
  Manifest m = sample();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(printManifest(m));
  ASSERT_TRUE(static_cast<bool>(json));
  const llvm::json::Object *root = json->getAsObject();
  EXPECT_EQ(root->getString("ptx"), std::optional<llvm::StringRef>("prog.ptx"));
  EXPECT_EQ(root->getString("cubin"),
            std::optional<llvm::StringRef>("prog.cubin"));
  EXPECT_EQ(root->getString("format"),
            std::optional<llvm::StringRef>(kManifestFormat));
  EXPECT_EQ(root->getInteger("version"), std::optional<int64_t>(1));

  // Outside the manifest's folder (a sibling whose name starts the same
  // way included), a file keeps its path.
  m.ptxPath = "/abs/prog.ptx";
  m.cubinPath = "outside/prog.cubin";
  std::string text = printManifest(m);
  json = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(json));
  root = json->getAsObject();
  EXPECT_EQ(root->getString("ptx"),
            std::optional<llvm::StringRef>("/abs/prog.ptx"));
  EXPECT_EQ(root->getString("cubin"),
            std::optional<llvm::StringRef>("outside/prog.cubin"));

  // Without a cubin (no ptxas), none is named.
  m.cubinPath.clear();
  json = llvm::json::parse(printManifest(m));
  ASSERT_TRUE(static_cast<bool>(json));
  EXPECT_EQ(json->getAsObject()->get("cubin"), nullptr);
  llvm::Expected<Manifest> read = parseManifest(printManifest(m), m.path);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->cubinPath, "");
}

/// The reader's message for `sample()` with `edit` applied to its JSON.
std::string errorAfter(llvm::function_ref<void(llvm::json::Object &)> edit) {
  Manifest m = sample();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(printManifest(m));
  if (!json)
    return "unparsable: " + llvm::toString(json.takeError());
  edit(*json->getAsObject());
  std::string text;
  llvm::raw_string_ostream(text) << *json;
  llvm::Expected<Manifest> read = parseManifest(text, "m.json");
  if (read)
    return "accepted";
  return llvm::toString(read.takeError());
}

llvm::json::Object &function0(llvm::json::Object &root) {
  return *(*root.getArray("functions"))[0].getAsObject();
}
llvm::json::Object &buffer(llvm::json::Object &root, unsigned i) {
  return *(*function0(root).getArray("buffers"))[i].getAsObject();
}
llvm::json::Object &launch(llvm::json::Object &root, unsigned i) {
  return *(*function0(root).getArray("launches"))[i].getAsObject();
}

TEST(ManifestTest, DefectsAreNamedByTheirJsonPath) {
  struct Case {
    const char *what;
    std::function<void(llvm::json::Object &)> edit;
    const char *message;
  };
  std::vector<Case> cases = {
      {"format", [](auto &r) { r["format"] = "other"; },
       "m.json: format: \"other\" is not \"mirage-gpu-manifest\""},
      {"version", [](auto &r) { r["version"] = 2; },
       "m.json: version: unsupported version 2"},
      {"chip", [](auto &r) { r["chip"] = "sm_61"; }, "m.json: chip: "},
      {"no ptx", [](auto &r) { r.erase("ptx"); }, "m.json: missing \"ptx\""},
      {"no reference",
       [](auto &r) { function0(r).erase("reference"); },
       "m.json: functions[0]: missing \"reference\""},
      {"role", [](auto &r) { buffer(r, 3)["role"] = "scratch"; },
       "functions[0].buffers[3].role: unknown role \"scratch\""},
      {"dtype", [](auto &r) { buffer(r, 2)["dtype"] = "f64"; },
       "functions[0].buffers[2].dtype: unknown dtype \"f64\"; expected "
       "\"f16\", \"bf16\", \"f32\", \"i32\" or \"i64\""},
      {"bytes", [](auto &r) { buffer(r, 2)["bytes"] = 100; },
       "functions[0].buffers[2].bytes: 100, but shape [16, 16] of f16 takes "
       "512 bytes"},
      {"index on a temp", [](auto &r) { buffer(r, 3)["index"] = 0; },
       "functions[0].buffers[3].index: only inputs and outputs have an index"},
      {"duplicate index", [](auto &r) { buffer(r, 1)["index"] = 0; },
       "functions[0].buffers[2].index: input index 0 is also that of "
       "\"arg1\""},
      {"index out of range", [](auto &r) { buffer(r, 5)["index"] = 7; },
       "functions[0].buffers[5].index: 7 is out of range: the 3 inputs have "
       "indices 0 to 2"},
      {"duplicate name", [](auto &r) { buffer(r, 3)["name"] = "arg0"; },
       "functions[0].buffers[3].name: buffer \"arg0\" is also buffers[2]"},
      {"view of nothing", [](auto &r) { buffer(r, 0)["view_of"] = "nope"; },
       "functions[0].buffers[0].view_of: unknown buffer \"nope\""},
      {"view too large",
       [](auto &r) {
         buffer(r, 0)["shape"] = llvm::json::Array{16, 64};
         buffer(r, 0)["bytes"] = 2048;
       },
       "functions[0].buffers[0].view_of: the view takes 2048 bytes, more "
       "than the 512 of \"tmp0\""},
      {"grid", [](auto &r) { launch(r, 0)["grid"] = llvm::json::Array{8, 0, 1}; },
       "functions[0].launches[0].grid[1]: 0 is out of range [1, 65535]"},
      {"block threads",
       [](auto &r) { launch(r, 1)["block"] = llvm::json::Array{64, 32, 1}; },
       "functions[0].launches[1].block: [64, 32, 1] has 2048 threads; a "
       "block has at most 1024"},
      {"shared memory",
       [](auto &r) { launch(r, 0)["dynamic_shared_memory"] = 300000; },
       "functions[0].launches[0].dynamic_shared_memory: 300000 bytes, more "
       "than the 232448 a block of sm_90 may have"},
      {"unknown arg",
       [](auto &r) { launch(r, 1)["args"] = llvm::json::Array{"arg9"}; },
       "functions[0].launches[1].args[0]: unknown buffer \"arg9\""},
      {"no launch",
       [](auto &r) { function0(r)["launches"] = llvm::json::Array{}; },
       "functions[0].launches: no launch: nothing would write the outputs"},
      {"duplicate function",
       [](auto &r) {
         (*(*r.getArray("functions"))[1].getAsObject())["name"] = "mlp";
       },
       "functions[1].name: function \"mlp\" is also functions[0]"},
  };
  for (const Case &c : cases) {
    std::string message = errorAfter(c.edit);
    EXPECT_NE(message.find(c.message), std::string::npos)
        << c.what << ": got " << message;
  }
}

TEST(ManifestTest, EmittedOutputsNeedAnOutputBuffer) {
  std::string message = errorAfter([](llvm::json::Object &r) {
    buffer(r, 4)["role"] = "temp";
    buffer(r, 4).erase("index");
  });
  EXPECT_NE(message.find("functions[0]: no buffer has role \"output\""),
            std::string::npos)
      << message;
}

TEST(ManifestTest, InvalidJsonSaysWhere) {
  llvm::Expected<Manifest> read = parseManifest("{\"format\": ", "m.json");
  ASSERT_FALSE(static_cast<bool>(read));
  EXPECT_NE(llvm::toString(read.takeError()).find("m.json: invalid JSON"),
            std::string::npos);
}

} // namespace

//===- PtxEntries.cpp - the kernels a PTX module defines ------------------===//
//
// A small reader of PTX's module-level syntax: comments and strings are
// skipped, the text is cut into tokens, and only `.target` and the
// signatures and performance directives of `.entry` at brace depth 0 are
// interpreted. Instructions (inside braces) are never looked at.
//
//===----------------------------------------------------------------------===//

#include "Runtime/PtxEntries.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

namespace {

/// PTX without its comments and string literals, cut into tokens: names and
/// directives (".entry", "%r1", "sm_90", "16") and single punctuation
/// characters.
SmallVector<StringRef> tokenize(StringRef ptx) {
  SmallVector<StringRef> tokens;
  auto isWordChar = [](char c) {
    return isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
  };
  size_t i = 0, n = ptx.size();
  while (i < n) {
    char c = ptx[i];
    if (c == '/' && i + 1 < n && ptx[i + 1] == '/') {
      i = ptx.find('\n', i);
      if (i == StringRef::npos)
        break;
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '*') {
      i = ptx.find("*/", i + 2);
      if (i == StringRef::npos)
        break;
      i += 2;
    } else if (c == '"') {
      // File names of .file: skipped whole, "//" in them included.
      size_t end = ptx.find('"', i + 1);
      i = end == StringRef::npos ? n : end + 1;
    } else if (isWordChar(c)) {
      // Directives and their operands are separated by white space or
      // punctuation (".param .u64 p", ".version 7.8").
      size_t start = i;
      while (i < n && isWordChar(ptx[i]))
        ++i;
      tokens.push_back(ptx.slice(start, i));
    } else if (isSpace(c)) {
      ++i;
    } else {
      tokens.push_back(ptx.substr(i, 1));
      ++i;
    }
  }
  return tokens;
}

Error ptxError(StringRef path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           (path + ": " + message).str());
}

/// The 1 to 3 numbers of a .maxntid or .reqntid directive at tokens[i],
/// missing dims as 1; `i` moves past them.
Expected<std::array<unsigned, 3>> readDims(ArrayRef<StringRef> tokens,
                                           size_t &i, StringRef directive,
                                           StringRef entry, StringRef path) {
  std::array<unsigned, 3> dims{1, 1, 1};
  for (unsigned d = 0; d < 3; ++d) {
    unsigned value;
    if (i >= tokens.size() || tokens[i].getAsInteger(10, value) || value == 0)
      return ptxError(path, directive + " of .entry " + entry +
                                " needs 1 to 3 positive integers");
    dims[d] = value;
    ++i;
    if (i >= tokens.size() || tokens[i] != ",")
      break;
    ++i;
  }
  return dims;
}

/// One parameter of an .entry: its tokens between commas.
PtxEntry::Param readParam(ArrayRef<StringRef> tokens) {
  PtxEntry::Param param;
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef t = tokens[i];
    if (t == "[")
      param.isArray = true;
    if (t == ".align") {
      ++i; // its number
      continue;
    }
    // State spaces and qualifiers; the first other directive is the type.
    if (param.type.empty() && t.starts_with(".") &&
        !is_contained({".param", ".ptr", ".global", ".const", ".local",
                       ".shared"},
                      t))
      param.type = t.str();
  }
  return param;
}

std::string formatDims(ArrayRef<unsigned> dims) {
  return join(map_range(dims, [](unsigned d) { return std::to_string(d); }),
              ", ");
}

} // namespace

Expected<PtxModule> gpurun::readPtxEntries(StringRef ptx, StringRef path) {
  SmallVector<StringRef> tokens = tokenize(ptx);
  PtxModule module;
  int depth = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef t = tokens[i];
    if (t == "{") {
      ++depth;
      continue;
    }
    if (t == "}") {
      --depth;
      continue;
    }
    if (depth != 0)
      continue;
    if (t == ".target" && i + 1 < tokens.size()) {
      module.target = tokens[++i].str();
      continue;
    }
    if (t != ".entry")
      continue;
    if (i + 2 >= tokens.size() || tokens[i + 2] != "(")
      return ptxError(path, "an .entry without a parameter list");
    StringRef name = tokens[i + 1];
    PtxEntry entry;
    i += 3;
    SmallVector<StringRef> param;
    for (; i < tokens.size() && tokens[i] != ")"; ++i) {
      if (tokens[i] == ",") {
        entry.params.push_back(readParam(param));
        param.clear();
      } else {
        param.push_back(tokens[i]);
      }
    }
    if (i >= tokens.size())
      return ptxError(path, ".entry " + name + " has no closing ')'");
    if (!param.empty())
      entry.params.push_back(readParam(param));
    // Performance directives up to the body.
    ++i;
    while (i < tokens.size() && tokens[i] != "{" && tokens[i] != ";") {
      StringRef directive = tokens[i++];
      if (directive != ".maxntid" && directive != ".reqntid")
        continue;
      Expected<std::array<unsigned, 3>> dims =
          readDims(tokens, i, directive, name, path);
      if (!dims)
        return dims.takeError();
      (directive == ".maxntid" ? entry.maxntid : entry.reqntid) = *dims;
    }
    --i; // the body's brace is counted above
    module.entries[name] = std::move(entry);
  }
  return module;
}

Error gpurun::checkLaunchesAgainstPtx(const Manifest &manifest,
                                      const PtxModule &module) {
  auto fail = [&](const Twine &where, const Twine &message) {
    return createStringError(
        inconvertibleErrorCode(),
        (manifest.path + ": " + where + ": " + message).str());
  };
  if (!module.target.empty() && module.target != manifest.chip)
    return fail("chip", "\"" + manifest.chip + "\", but the PTX '" +
                            manifest.ptxPath + "' targets " + module.target);
  for (const Function &function : manifest.functions) {
    for (auto [i, launch] : enumerate(function.launches)) {
      std::string where = function.where + ".launches[" + std::to_string(i) +
                          "]";
      auto it = module.entries.find(launch.kernel);
      if (it == module.entries.end()) {
        SmallVector<StringRef> names;
        for (const auto &entry : module.entries)
          names.push_back(entry.getKey());
        sort(names);
        return fail(where + ".kernel",
                    "\"" + launch.kernel + "\" is not an .entry of the PTX '" +
                        manifest.ptxPath + "' (" +
                        (names.empty() ? "it has none"
                                       : "it has " + join(names, ", ")) +
                        ")");
      }
      const PtxEntry &entry = it->second;
      if (entry.params.size() != launch.args.size())
        return fail(where + ".args",
                    Twine(launch.args.size()) + " buffer" +
                        (launch.args.size() == 1 ? "" : "s") + ", but .entry " +
                        launch.kernel + " takes " + Twine(entry.params.size()) +
                        " parameter" + (entry.params.size() == 1 ? "" : "s"));
      for (auto [j, param] : enumerate(entry.params))
        if (param.isArray ||
            !is_contained({".u64", ".b64", ".s64"}, StringRef(param.type)))
          return fail(where + ".args[" + Twine(j) + "]",
                      ".entry " + launch.kernel + " takes " +
                          (param.isArray ? "an array of " + param.type
                                         : param.type) +
                          " as parameter " + Twine(j) +
                          ", not the 64-bit device pointer a buffer is "
                          "passed as");
      ArrayRef<unsigned> block = launch.block;
      std::string blockText = "[" + formatDims(block) + "]";
      if (entry.reqntid && ArrayRef<unsigned>(*entry.reqntid) != block)
        return fail(where + ".block",
                    blockText + ", but .entry " + launch.kernel +
                        " requires .reqntid " + formatDims(*entry.reqntid));
      if (entry.maxntid) {
        const std::array<unsigned, 3> &max = *entry.maxntid;
        uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
        uint64_t allowed = uint64_t(max[0]) * max[1] * max[2];
        if (threads > allowed)
          return fail(where + ".block",
                      blockText + " has " + Twine(threads) +
                          " threads, more than .entry " + launch.kernel +
                          " allows (.maxntid " + formatDims(max) + ")");
      }
    }
  }
  return Error::success();
}

//===- PtxParser.cpp - PTX text to PtxModule ------------------------------===//
//
// A lexer that turns the whole text into tokens with line numbers, then a
// recursive-descent parser over them. The grammar follows the PTX ISA
// ("Syntax", "State Spaces, Types, and Variables", "Directives"); only what
// execution needs is kept, and debug directives are skipped.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/PtxParser.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/bit.h"

using namespace mirage::emulator;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

struct Token {
  enum class Kind {
    Word,      // identifiers, registers, opcodes: ld.shared.b32, %tid.x, $L1
    Directive, // .version, .b32: a dot and a name
    Number,    // 16, 0xff, 0f3F800000, 7.0 (the sign is a separate token)
    String,    // "nounroll", with its quotes
    Punct,     // one of { } ( ) [ ] , ; : + - @ ! | < > =
    End,
  };
  Kind kind;
  StringRef text;
  unsigned line;

  bool is(char punct) const {
    return kind == Kind::Punct && text.size() == 1 && text[0] == punct;
  }
  bool isDirective(StringRef name) const {
    return kind == Kind::Directive && text == name;
  }
};

llvm::Error errorAt(unsigned line, const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "PTX line " + Twine(line) + ": " + message);
}

bool isWordStart(char c) {
  return llvm::isAlpha(c) || c == '_' || c == '$' || c == '%';
}

// Dots belong to words so that opcodes with their modifiers (ld.shared.b32)
// and special registers (%tid.x) are single tokens.
bool isWordChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

Expected<std::vector<Token>> lex(StringRef text) {
  std::vector<Token> tokens;
  unsigned line = 1;
  size_t i = 0, n = text.size();
  auto push = [&](Token::Kind kind, size_t start) {
    tokens.push_back({kind, text.slice(start, i), line});
  };
  while (i < n) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (llvm::isSpace(c)) {
      ++i;
    } else if (text.substr(i).starts_with("//")) {
      while (i < n && text[i] != '\n')
        ++i;
    } else if (text.substr(i).starts_with("/*")) {
      unsigned startLine = line;
      size_t end = text.find("*/", i + 2);
      if (end == StringRef::npos)
        return errorAt(startLine, "unterminated '/*' comment");
      line += text.slice(i, end).count('\n');
      i = end + 2;
    } else if (c == '"') {
      size_t start = i++;
      while (i < n && text[i] != '"' && text[i] != '\n')
        ++i;
      if (i == n || text[i] != '"')
        return errorAt(line, "unterminated string " + text.slice(start, i));
      ++i;
      push(Token::Kind::String, start);
    } else if (c == '.' && i + 1 < n &&
               (llvm::isAlpha(text[i + 1]) || text[i + 1] == '_')) {
      size_t start = i++;
      while (i < n && (llvm::isAlnum(text[i]) || text[i] == '_'))
        ++i;
      push(Token::Kind::Directive, start);
    } else if (isWordStart(c)) {
      size_t start = i;
      // A "::" inside a word belongs to it: the qualified modifiers of
      // ld.global.L1::evict_last and cp.async.bulk.shared::cluster.
      while (i < n && (isWordChar(text[i]) ||
                       (text.substr(i).starts_with("::") && i + 2 < n &&
                        (llvm::isAlnum(text[i + 2]) || text[i + 2] == '_')))) {
        i += text.substr(i).starts_with("::") ? 2 : 1;
      }
      push(Token::Kind::Word, start);
    } else if (llvm::isDigit(c)) {
      size_t start = i;
      // 0x, 0b, 0f and 0d literals may contain 'e' but have no exponent.
      bool prefixed = c == '0' && i + 1 < n && llvm::isAlpha(text[i + 1]);
      while (i < n && (llvm::isAlnum(text[i]) || text[i] == '.' ||
                       // The sign of a decimal exponent: 1.5e-3.
                       (!prefixed && (text[i] == '-' || text[i] == '+') &&
                        (text[i - 1] == 'e' || text[i - 1] == 'E'))))
        ++i;
      push(Token::Kind::Number, start);
    } else if (StringRef("{}()[],;:+-@!|<>=").contains(c)) {
      size_t start = i++;
      push(Token::Kind::Punct, start);
    } else {
      return errorAt(line, "unexpected character '" + Twine(c) + "'");
    }
  }
  tokens.push_back({Token::Kind::End, "end of file", line});
  return tokens;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

bool isTypeDirective(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({".b8", ".b16", ".b32", ".b64", ".b128"}, true)
      .Cases({".u8", ".u16", ".u32", ".u64"}, true)
      .Cases({".s8", ".s16", ".s32", ".s64"}, true)
      .Cases({".f16", ".f16x2", ".bf16", ".bf16x2", ".tf32"}, true)
      .Cases({".f32", ".f64", ".pred"}, true)
      .Default(false);
}

std::optional<PtxStateSpace> variableSpace(StringRef directive) {
  return llvm::StringSwitch<std::optional<PtxStateSpace>>(directive)
      .Case(".global", PtxStateSpace::Global)
      .Case(".shared", PtxStateSpace::Shared)
      .Case(".const", PtxStateSpace::Const)
      .Case(".local", PtxStateSpace::Local)
      .Default(std::nullopt);
}

bool startsOperand(const Token &token) {
  return token.kind == Token::Kind::Word ||
         token.kind == Token::Kind::Number || token.is('!') ||
         token.is('[') || token.is('{') || token.is('-');
}

class Parser {
public:
  explicit Parser(std::vector<Token> tokens) : tokens(std::move(tokens)) {}

  Expected<PtxModule> parseModule();

private:
  std::vector<Token> tokens;
  size_t pos = 0;
  PtxModule module;
  /// Per open `{ }` block of a kernel body, innermost last: the registers
  /// declared in it without a count, each renamed to a kernel-unique name
  /// (PtxKernel has one flat list). Names need no '%' here: LLVM emits
  /// `{ .reg .b16 tmp; mov.b32 {tmp, %rs1}, %r1; }`.
  std::vector<llvm::StringMap<std::string>> blockScopes;
  unsigned scopedRegisters = 0;

  /// The kernel-wide name of the register `name` in the innermost block
  /// that declares it, or none.
  std::optional<std::string> scopedRegister(StringRef name) const {
    for (auto it = blockScopes.rbegin(); it != blockScopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return found->second;
    }
    return std::nullopt;
  }
  bool isRegisterName(StringRef name) const {
    return name.starts_with("%") || scopedRegister(name).has_value();
  }

  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  const Token &next() {
    const Token &token = peek();
    if (token.kind != Token::Kind::End)
      ++pos;
    return token;
  }
  bool consume(char punct) {
    if (!peek().is(punct))
      return false;
    next();
    return true;
  }

  static llvm::Error unexpected(const Token &token, const Twine &context) {
    return errorAt(token.line,
                   "unexpected token '" + token.text + "' in " + context);
  }
  llvm::Error expect(char punct, const Twine &context) {
    if (consume(punct))
      return llvm::Error::success();
    return unexpected(peek(), context + " (expected '" + Twine(punct) + "')");
  }
  Expected<StringRef> expectWord(const Twine &context);
  Expected<uint64_t> expectUnsigned(const Twine &context);

  void skipLine();
  llvm::Error skipSection();
  llvm::Error parsePragma();
  llvm::Error parseVersion();
  llvm::Error parseTarget();
  Expected<PtxVariable> parseVariable(PtxStateSpace space, bool isExtern);
  llvm::Error parseInitializer(PtxVariable &variable);
  llvm::Error parseKernel(bool isVisible);
  Expected<PtxParam> parseParam(const Twine &context);
  llvm::Error parseDimensions(std::vector<unsigned> &dims, const Token &at);
  llvm::Error parseBlock(PtxKernel &kernel);
  llvm::Error parseRegisters(PtxKernel &kernel);
  llvm::Error parseInstruction(PtxKernel &kernel);
  Expected<PtxOperand> parseOperand(const Twine &context);
  Expected<PtxOperand> parseRegister(const Twine &context);
  Expected<PtxOperand> parseAddress(const Twine &context);
  Expected<PtxOperand> parseVector(const Twine &context);
};

Expected<StringRef> Parser::expectWord(const Twine &context) {
  if (peek().kind != Token::Kind::Word)
    return unexpected(peek(), context + " (expected a name)");
  return next().text;
}

Expected<uint64_t> Parser::expectUnsigned(const Twine &context) {
  uint64_t value;
  if (peek().kind != Token::Kind::Number ||
      peek().text.getAsInteger(0, value))
    return unexpected(peek(), context + " (expected an unsigned integer)");
  next();
  return value;
}

/// A number token as an operand; negate for a preceding '-'.
Expected<PtxOperand> parseNumber(const Token &token, bool negate) {
  StringRef text = token.text;
  PtxOperand operand;
  auto hexBits = [&](size_t digits) -> bool {
    StringRef hex = text.drop_front(2);
    return hex.size() == digits && !hex.getAsInteger(16, operand.floatBits);
  };
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    operand.kind = PtxOperand::Kind::Float;
    if (!hexBits(8))
      return errorAt(token.line, "malformed f32 literal '" + text + "'");
    if (negate)
      operand.floatBits ^= uint64_t(1) << 31;
    return operand;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    operand.kind = PtxOperand::Kind::Float;
    operand.isDouble = true;
    if (!hexBits(16))
      return errorAt(token.line, "malformed f64 literal '" + text + "'");
    if (negate)
      operand.floatBits ^= uint64_t(1) << 63;
    return operand;
  }
  bool hex = text.starts_with_insensitive("0x");
  if (!hex && text.find_first_of(".eE") != StringRef::npos) {
    double value;
    if (text.getAsDouble(value))
      return errorAt(token.line, "malformed float literal '" + text + "'");
    operand.kind = PtxOperand::Kind::Float;
    operand.isDouble = true; // PTX reads decimal floats as f64
    operand.floatBits = llvm::bit_cast<uint64_t>(negate ? -value : value);
    return operand;
  }
  // An unsigned suffix changes nothing here: the instruction type decides.
  StringRef digits = text;
  if (digits.ends_with("U") || digits.ends_with("u"))
    digits = digits.drop_back();
  uint64_t value;
  if (digits.getAsInteger(0, value))
    return errorAt(token.line, "malformed integer literal '" + text + "'");
  operand.kind = PtxOperand::Kind::Integer;
  operand.intValue = static_cast<int64_t>(negate ? 0 - value : value);
  return operand;
}

// `.section .debug_info { .b8 1 ... }` (§11.4.2): the DWARF data that
// Triton and `nvcc -lineinfo -G` append; nothing a kernel runs reads it.
llvm::Error Parser::skipSection() {
  unsigned line = next().line; // .section
  const Token &name = peek();
  if (name.kind != Token::Kind::Directive && name.kind != Token::Kind::Word)
    return unexpected(name, ".section");
  next();
  if (auto err = expect('{', ".section " + name.text))
    return err;
  for (unsigned depth = 1; depth;) {
    const Token &token = next();
    if (token.kind == Token::Kind::End)
      return errorAt(line, "missing '}' at the end of .section " + name.text);
    depth += token.is('{');
    depth -= token.is('}');
  }
  return llvm::Error::success();
}

void Parser::skipLine() {
  unsigned line = next().line;
  while (peek().kind != Token::Kind::End && peek().line == line)
    next();
}

// `.pragma "nounroll";`: hints that do not change what a kernel computes.
llvm::Error Parser::parsePragma() {
  next();
  while (peek().kind == Token::Kind::String)
    next();
  return expect(';', ".pragma");
}

llvm::Error Parser::parseVersion() {
  const Token &token = next(); // .version
  const Token &number = peek();
  auto [major, minor] = number.text.split('.');
  if (number.kind != Token::Kind::Number ||
      major.getAsInteger(10, module.versionMajor) ||
      minor.getAsInteger(10, module.versionMinor))
    return unexpected(number, token.text + " (expected major.minor)");
  next();
  return llvm::Error::success();
}

llvm::Error Parser::parseTarget() {
  next(); // .target
  auto target = expectWord(".target");
  if (!target)
    return target.takeError();
  module.target = target->str();
  while (consume(',')) {
    auto option = expectWord(".target");
    if (!option)
      return option.takeError();
    module.targetOptions.push_back(option->str());
  }
  return llvm::Error::success();
}

// After the state space: [.align N] [.vN] .type name [N]... [= init] ;
Expected<PtxVariable> Parser::parseVariable(PtxStateSpace space,
                                            bool isExtern) {
  PtxVariable variable;
  variable.space = space;
  variable.isExtern = isExtern;
  const char *context = "variable declaration";
  while (peek().kind == Token::Kind::Directive) {
    const Token &directive = next();
    if (directive.text == ".align") {
      auto alignment = expectUnsigned(".align");
      if (!alignment)
        return alignment.takeError();
      variable.alignment = *alignment;
    } else if (directive.text == ".v2" || directive.text == ".v4" ||
               directive.text == ".v8") {
      variable.vectorWidth = directive.text.back() - '0';
    } else if (isTypeDirective(directive.text) && variable.type.empty()) {
      variable.type = directive.text.str();
    } else {
      return unexpected(directive, context);
    }
  }
  if (variable.type.empty())
    return unexpected(peek(), Twine(context) + " (expected a type)");
  auto name = expectWord(context);
  if (!name)
    return name.takeError();
  variable.name = name->str();
  while (consume('[')) {
    if (consume(']')) {
      variable.dimensions.push_back(std::nullopt);
      continue;
    }
    auto size = expectUnsigned("array size of '" + variable.name + "'");
    if (!size)
      return size.takeError();
    variable.dimensions.push_back(*size);
    if (auto err = expect(']', "array size of '" + variable.name + "'"))
      return std::move(err);
  }
  if (consume('='))
    if (auto err = parseInitializer(variable))
      return std::move(err);
  if (auto err = expect(';', "declaration of '" + variable.name + "'"))
    return std::move(err);
  return variable;
}

// `= v` or `= {v, ...}`, braces nesting for multi-dimensional arrays;
// flattened in order.
llvm::Error Parser::parseInitializer(PtxVariable &variable) {
  std::string context = "initializer of '" + variable.name + "'";
  if (consume('{')) {
    do {
      if (auto err = parseInitializer(variable))
        return err;
    } while (consume(','));
    return expect('}', context);
  }
  bool negate = consume('-');
  if (peek().kind != Token::Kind::Number)
    return unexpected(peek(), context);
  auto value = parseNumber(next(), negate);
  if (!value)
    return value.takeError();
  variable.initializer.push_back(std::move(*value));
  return llvm::Error::success();
}

Expected<PtxModule> Parser::parseModule() {
  while (peek().kind != Token::Kind::End) {
    const Token &token = peek();
    if (token.isDirective(".version")) {
      if (auto err = parseVersion())
        return std::move(err);
      continue;
    }
    if (token.isDirective(".target")) {
      if (auto err = parseTarget())
        return std::move(err);
      continue;
    }
    if (token.isDirective(".address_size")) {
      next();
      auto size = expectUnsigned(".address_size");
      if (!size)
        return size.takeError();
      module.addressSize = *size;
      continue;
    }
    if (token.isDirective(".file") || token.isDirective(".loc")) {
      skipLine();
      continue;
    }
    if (token.isDirective(".section")) {
      if (auto err = skipSection())
        return std::move(err);
      continue;
    }
    if (token.isDirective(".pragma")) {
      if (auto err = parsePragma())
        return std::move(err);
      continue;
    }
    // Linkage, then a kernel, a device function or a variable.
    bool isVisible = false, isExtern = false;
    while (peek().isDirective(".visible") || peek().isDirective(".weak") ||
           peek().isDirective(".extern")) {
      isVisible |= peek().text == ".visible";
      isExtern |= peek().text == ".extern";
      next();
    }
    const Token &what = peek();
    if (what.isDirective(".entry")) {
      next();
      if (auto err = parseKernel(isVisible))
        return std::move(err);
    } else if (what.isDirective(".func")) {
      // The name follows the return value's parenthesized declaration.
      size_t ahead = 1;
      if (peek(ahead).is('('))
        while (!peek(ahead++).is(')') && peek(ahead).kind != Token::Kind::End)
          ;
      StringRef name = peek(ahead).text;
      return errorAt(what.line, "device function '" + name +
                                    "' is not supported (.func)");
    } else if (auto space = variableSpace(what.text);
               space && what.kind == Token::Kind::Directive) {
      next();
      auto variable = parseVariable(*space, isExtern);
      if (!variable)
        return variable.takeError();
      module.variables.push_back(std::move(*variable));
    } else if (what.kind == Token::Kind::Directive) {
      return errorAt(what.line, "unknown directive '" + what.text +
                                    "' at module scope");
    } else {
      return unexpected(what, "module scope");
    }
  }
  return std::move(module);
}

// `.param [.align N] .type [.ptr [.space] [.align N]] name [N]`.
Expected<PtxParam> Parser::parseParam(const Twine &context) {
  if (!peek().isDirective(".param"))
    return unexpected(peek(), context + " (expected .param)");
  next();
  PtxParam param;
  while (peek().kind == Token::Kind::Directive) {
    const Token &directive = next();
    if (directive.text == ".align") {
      auto alignment = expectUnsigned(".align");
      if (!alignment)
        return alignment.takeError();
      // After .ptr, .align is the pointee's alignment.
      (param.isPointer ? param.pointeeAlignment : param.alignment) =
          *alignment;
    } else if (directive.text == ".ptr" && !param.isPointer) {
      param.isPointer = true;
    } else if (param.isPointer && variableSpace(directive.text)) {
      param.pointerSpace = directive.text.str();
    } else if (isTypeDirective(directive.text) && param.type.empty()) {
      param.type = directive.text.str();
    } else {
      return unexpected(directive, context);
    }
  }
  if (param.type.empty())
    return unexpected(peek(), context + " (expected a type)");
  auto name = expectWord(context);
  if (!name)
    return name.takeError();
  param.name = name->str();
  if (consume('[')) {
    auto size = expectUnsigned("array size of '" + param.name + "'");
    if (!size)
      return size.takeError();
    param.arraySize = *size;
    if (auto err = expect(']', "array size of '" + param.name + "'"))
      return std::move(err);
  }
  return param;
}

// `.maxntid x[, y[, z]]` and `.reqntid`.
llvm::Error Parser::parseDimensions(std::vector<unsigned> &dims,
                                    const Token &at) {
  dims.clear();
  do {
    auto value = expectUnsigned(at.text);
    if (!value)
      return value.takeError();
    dims.push_back(*value);
  } while (dims.size() < 3 && consume(','));
  return llvm::Error::success();
}

llvm::Error Parser::parseKernel(bool isVisible) {
  PtxKernel kernel;
  kernel.isVisible = isVisible;
  auto name = expectWord(".entry");
  if (!name)
    return name.takeError();
  kernel.name = name->str();
  std::string signature = "signature of kernel '" + kernel.name + "'";
  if (consume('(') && !consume(')')) {
    do {
      auto param = parseParam(signature);
      if (!param)
        return param.takeError();
      kernel.params.push_back(std::move(*param));
    } while (consume(','));
    if (auto err = expect(')', signature))
      return err;
  }
  while (!peek().is('{')) {
    if (peek().isDirective(".pragma")) {
      if (auto err = parsePragma())
        return err;
      continue;
    }
    const Token &directive = next();
    llvm::Error err = llvm::Error::success();
    if (directive.isDirective(".maxntid")) {
      err = parseDimensions(kernel.maxntid, directive);
    } else if (directive.isDirective(".reqntid")) {
      err = parseDimensions(kernel.reqntid, directive);
    } else if (directive.isDirective(".minnctapersm") ||
               directive.isDirective(".maxnreg")) {
      auto value = expectUnsigned(directive.text);
      if (!value)
        return value.takeError();
      (directive.text == ".maxnreg" ? kernel.maxnreg : kernel.minnctapersm) =
          *value;
    } else {
      return unexpected(directive, signature);
    }
    if (err)
      return err;
  }
  if (auto err = parseBlock(kernel))
    return err;
  module.kernels.push_back(std::move(kernel));
  return llvm::Error::success();
}

// `{ statement* }`; nested blocks share the kernel's lists (see PtxKernel).
llvm::Error Parser::parseBlock(PtxKernel &kernel) {
  std::string context = "body of kernel '" + kernel.name + "'";
  if (auto err = expect('{', context))
    return err;
  blockScopes.emplace_back();
  llvm::scope_exit popScope([&] { blockScopes.pop_back(); });
  while (!consume('}')) {
    const Token &token = peek();
    if (token.kind == Token::Kind::End)
      return errorAt(token.line, "missing '}' at the end of " + context);
    llvm::Error err = llvm::Error::success();
    if (token.is('{')) {
      err = parseBlock(kernel);
    } else if (token.isDirective(".reg")) {
      err = parseRegisters(kernel);
    } else if (token.isDirective(".shared") || token.isDirective(".local")) {
      next();
      auto variable = parseVariable(*variableSpace(token.text), false);
      if (!variable)
        return variable.takeError();
      kernel.variables.push_back(std::move(*variable));
    } else if (token.isDirective(".loc") || token.isDirective(".file")) {
      skipLine();
    } else if (token.isDirective(".pragma")) {
      err = parsePragma();
    } else if (token.kind == Token::Kind::Word && peek(1).is(':')) {
      if (!kernel.labels.try_emplace(token.text, kernel.instructions.size())
               .second)
        return errorAt(token.line, "label '" + token.text + "' redefined");
      next();
      next();
    } else if (token.kind == Token::Kind::Word || token.is('@')) {
      err = parseInstruction(kernel);
    } else if (token.kind == Token::Kind::Directive) {
      return errorAt(token.line, "unknown directive '" + token.text +
                                     "' in " + context);
    } else {
      return unexpected(token, context);
    }
    if (err)
      return err;
  }
  return llvm::Error::success();
}

// `.reg .type %r<N>, %x;`
llvm::Error Parser::parseRegisters(PtxKernel &kernel) {
  const Token &reg = next();
  const Token &type = next();
  if (!isTypeDirective(type.text))
    return unexpected(type, "register declaration (expected a type)");
  do {
    const Token &name = peek();
    if (name.kind != Token::Kind::Word ||
        (!name.text.starts_with("%") && peek(1).is('<')))
      return unexpected(name, "register declaration (expected %name)");
    next();
    PtxRegisterDeclaration declaration{type.text.str(), name.text.str(),
                                       std::nullopt};
    if (!peek().is('<') && !blockScopes.empty()) {
      // A name in a nested block may shadow one outside it: give it a
      // name of its own ('#' appears in no PTX identifier).
      std::string unique = name.text.str();
      if (blockScopes.size() > 1 || !name.text.starts_with("%"))
        unique += "#" + std::to_string(scopedRegisters++);
      blockScopes.back()[name.text] = unique;
      declaration.name = unique;
    }
    if (consume('<')) {
      auto count = expectUnsigned("register declaration");
      if (!count)
        return count.takeError();
      declaration.count = *count;
      if (auto err = expect('>', "register declaration"))
        return err;
    }
    kernel.registers.push_back(std::move(declaration));
  } while (consume(','));
  if (!peek().is(';'))
    return errorAt(reg.line, "missing ';' after register declaration "
                             "(unexpected '" + peek().text + "')");
  next();
  return llvm::Error::success();
}

llvm::Error Parser::parseInstruction(PtxKernel &kernel) {
  PtxInstruction instruction;
  if (consume('@')) {
    bool negated = consume('!');
    auto predicate = parseRegister("guard");
    if (!predicate)
      return predicate.takeError();
    instruction.guard = PtxGuard{predicate->name, negated};
  }
  const Token &opcode = peek();
  if (opcode.kind != Token::Kind::Word || opcode.text.starts_with("%"))
    return unexpected(opcode, "instruction (expected an opcode)");
  next();
  instruction.line = opcode.line;
  llvm::SmallVector<StringRef> parts;
  opcode.text.split(parts, '.');
  instruction.opcode = parts.front().str();
  for (StringRef part : llvm::ArrayRef(parts).drop_front())
    instruction.modifiers.push_back(part.str());

  std::string context = "instruction '" + opcode.text.str() + "'";
  if (!consume(';')) {
    if (startsOperand(peek())) {
      do {
        auto operand = parseOperand(context);
        if (!operand)
          return operand.takeError();
        instruction.operands.push_back(std::move(*operand));
      } while (consume(','));
    }
    // Report a missing ';' where the instruction starts: the token found
    // instead is usually the next statement.
    if (!peek().is(';'))
      return errorAt(opcode.line,
                     "missing ';' after " + context + " (unexpected '" +
                         peek().text + "' on line " + Twine(peek().line) +
                         ")");
    next();
  }
  kernel.instructions.push_back(std::move(instruction));
  return llvm::Error::success();
}

// Registers are recognized by their '%', which nvcc and LLVM always emit, or as
// names a block declares (see blockScopes).
Expected<PtxOperand> Parser::parseRegister(const Twine &context) {
  const Token &token = peek();
  if (token.kind != Token::Kind::Word || !isRegisterName(token.text))
    return unexpected(token, context + " (expected a register)");
  next();
  PtxOperand operand;
  operand.kind = PtxOperand::Kind::Register;
  operand.name = scopedRegister(token.text).value_or(token.text.str());
  return operand;
}

Expected<PtxOperand> Parser::parseOperand(const Twine &context) {
  const Token &token = peek();
  if (consume('!')) {
    auto operand = parseRegister(context);
    if (operand)
      operand->negated = true;
    return operand;
  }
  if (token.is('['))
    return parseAddress(context);
  if (token.is('{'))
    return parseVector(context);
  if (token.is('-') || token.kind == Token::Kind::Number) {
    bool negate = consume('-');
    if (peek().kind != Token::Kind::Number)
      return unexpected(peek(), context);
    return parseNumber(next(), negate);
  }
  if (token.kind != Token::Kind::Word)
    return unexpected(token, context);
  PtxOperand operand;
  if (token.text == "_") {
    next();
    operand.kind = PtxOperand::Kind::Sink;
    return operand;
  }
  if (!isRegisterName(token.text)) {
    next();
    operand.kind = PtxOperand::Kind::Symbol;
    operand.name = token.text.str();
    return operand;
  }
  auto first = parseRegister(context);
  if (!first || !consume('|'))
    return first;
  auto second = parseRegister(context);
  if (!second)
    return second.takeError();
  operand.kind = PtxOperand::Kind::RegisterPair;
  operand.elements = {std::move(*first), std::move(*second)};
  return operand;
}

// `[base]`, `[base+off]`, `[base+-off]`, `[base-off]`; base a register or a
// symbol.
Expected<PtxOperand> Parser::parseAddress(const Twine &context) {
  next(); // [
  const Token &base = peek();
  if (base.kind != Token::Kind::Word)
    return unexpected(base, context + " (expected an address base)");
  next();
  PtxOperand operand;
  operand.kind = PtxOperand::Kind::Address;
  operand.baseIsSymbol = !isRegisterName(base.text);
  operand.name = scopedRegister(base.text).value_or(base.text.str());
  bool plus = consume('+');
  bool negate = consume('-');
  if (plus || negate) {
    if (peek().kind != Token::Kind::Number)
      return unexpected(peek(), context + " (expected an address offset)");
    auto offset = parseNumber(next(), negate);
    if (!offset)
      return offset.takeError();
    if (offset->kind != PtxOperand::Kind::Integer)
      return errorAt(base.line, "address offset of " + context +
                                    " is not an integer");
    operand.intValue = offset->intValue;
  }
  if (auto err = expect(']', context))
    return std::move(err);
  return operand;
}

// `{%r1, %r2, _}`; a stored vector may hold immediates (`{%r1, 0}`, as
// Triton writes its padding).
Expected<PtxOperand> Parser::parseVector(const Twine &context) {
  next(); // {
  PtxOperand operand;
  operand.kind = PtxOperand::Kind::Vector;
  do {
    if (peek().kind == Token::Kind::Word && peek().text == "_") {
      next();
      PtxOperand sink;
      sink.kind = PtxOperand::Kind::Sink;
      operand.elements.push_back(std::move(sink));
      continue;
    }
    if (peek().kind == Token::Kind::Number || peek().is('-')) {
      bool negate = consume('-');
      if (peek().kind != Token::Kind::Number)
        return unexpected(peek(), context);
      auto number = parseNumber(next(), negate);
      if (!number)
        return number.takeError();
      operand.elements.push_back(std::move(*number));
      continue;
    }
    auto element = parseRegister(context);
    if (!element)
      return element.takeError();
    operand.elements.push_back(std::move(*element));
  } while (consume(','));
  if (auto err = expect('}', context))
    return std::move(err);
  return operand;
}

} // namespace

Expected<PtxModule> mirage::emulator::parsePtx(StringRef text) {
  auto tokens = lex(text);
  if (!tokens)
    return tokens.takeError();
  return Parser(std::move(*tokens)).parseModule();
}

#include "compiler/pipelines/SourceChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace rngd {
namespace {

mlir::Location locationOf(const llvm::SourceMgr &sources, mlir::MLIRContext *context,
                          const char *at) {
  const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(sources.getMainFileID());
  auto [line, column] = sources.getLineAndColumn(llvm::SMLoc::getFromPointer(at));
  return mlir::FileLineColLoc::get(context, buffer->getBufferIdentifier(), line, column);
}

bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

/// The tokens the scope scan needs; everything else is `Other`.
struct Token {
  enum Kind { Value, Symbol, Label, Word, Number, Punct, Split, Other } kind;
  llvm::StringRef text; // a value's name without its `#N`; a punctuation's one character
};

/// MLIR text as tokens, comments and strings skipped (a comment starting with `splitMarker`
/// is a Split token).
std::vector<Token> lex(llvm::StringRef text, llvm::StringRef splitMarker) {
  std::vector<Token> tokens;
  size_t i = 0;
  auto idEnd = [&](size_t from) {
    while (from < text.size() && isIdChar(text[from]))
      ++from;
    return from;
  };
  while (i < text.size()) {
    char c = text[i];
    size_t start = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (text.substr(i).starts_with("//")) {
      if (!splitMarker.empty() && text.substr(i).starts_with(splitMarker))
        tokens.push_back({Token::Split, text.substr(i, 2)});
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        i += text[i] == '\\';
      i = std::min(i + 1, text.size());
      tokens.push_back({Token::Other, text.substr(start, i - start)});
    } else if (c == '%' || c == '@' || c == '^') {
      i = idEnd(i + 1);
      Token::Kind kind = c == '%' ? Token::Value : c == '@' ? Token::Symbol : Token::Label;
      tokens.push_back({kind, text.substr(start, i - start)});
      if (c == '%' && i + 1 < text.size() && text[i] == '#' &&
          std::isdigit(static_cast<unsigned char>(text[i + 1])))
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));)
          ++i; // %a#1 names %a
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      i = idEnd(i);
      tokens.push_back({Token::Number, text.substr(start, i - start)});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      i = idEnd(i);
      tokens.push_back({Token::Word, text.substr(start, i - start)});
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      i += 2;
      tokens.push_back({Token::Other, text.substr(start, 2)});
    } else {
      ++i;
      bool punct = llvm::StringRef("{}(),=:").contains(c);
      tokens.push_back({punct ? Token::Punct : Token::Other, text.substr(start, 1)});
    }
  }
  return tokens;
}

using Path = llvm::SmallVector<unsigned, 8>;

/// True when the region at `outer` is `inner` or encloses it.
bool encloses(const Path &outer, const Path &inner) {
  return outer.size() <= inner.size() && std::equal(outer.begin(), outer.end(), inner.begin());
}

/// Follows which region each SSA name is defined in, and the uses waiting for a definition,
/// the way MLIR 19's parser binds them.
class ScopeScan {
public:
  ScopeScan(const llvm::SourceMgr &sources, mlir::MLIRContext *context)
      : sources_(sources), context_(context) {
    reset();
  }

  mlir::LogicalResult run(const std::vector<Token> &tokens);

private:
  enum class Parens { Plain, SymbolArgs, BlockArgs };
  struct Name {
    llvm::StringRef name;
    const char *at;
    bool typed; // followed by `: type`
  };
  struct Paren {
    Parens kind;
    std::vector<Name> names;
  };
  struct Waiting {
    Path path;
    const char *at;
  };

  void reset() {
    scope_.clear();
    definedPerScope_.assign(1, {});
    parens_.clear();
    regionArgs_.clear();
    alive_.clear();
    waiting_.clear();
  }
  /// A `{`: a region, or an attribute dictionary (which holds no values).
  mlir::LogicalResult openRegion(bool isAttributeDictionary);
  void closeRegion();
  mlir::LogicalResult define(const Name &name, const Path &path);
  void use(const Name &name) {
    if (alive_.lookup(name.name) == 0)
      waiting_[name.name].push_back({scope_, name.at});
  }

  const llvm::SourceMgr &sources_;
  mlir::MLIRContext *context_;
  Path scope_;                                        // the open regions, outermost first
  unsigned nextScope_ = 0;                            // a fresh id per region
  std::vector<std::vector<llvm::StringRef>> definedPerScope_; // root first
  std::vector<Paren> parens_;
  std::vector<Name> regionArgs_; // a signature's arguments, for the next region at its level
  size_t regionArgsParens_ = 0;  // the paren depth of that signature
  size_t regionArgsScope_ = 0;   // and its region depth
  llvm::StringMap<unsigned> alive_;                   // visible definitions per name
  llvm::StringMap<std::vector<Waiting>> waiting_;     // forward references per name
};

mlir::LogicalResult ScopeScan::openRegion(bool isAttributeDictionary) {
  scope_.push_back(nextScope_++);
  definedPerScope_.emplace_back();
  bool forArgs = !regionArgs_.empty() && parens_.size() == regionArgsParens_ &&
                 scope_.size() == regionArgsScope_ + 1 && !isAttributeDictionary;
  if (!forArgs)
    return mlir::success();
  std::vector<Name> args = std::move(regionArgs_);
  regionArgs_.clear();
  for (const Name &arg : args)
    if (failed(define(arg, scope_)))
      return mlir::failure();
  return mlir::success();
}

void ScopeScan::closeRegion() {
  if (scope_.empty())
    return;
  for (llvm::StringRef name : definedPerScope_.back())
    --alive_[name];
  definedPerScope_.pop_back();
  scope_.pop_back();
  if (scope_.size() < regionArgsScope_)
    regionArgs_.clear();
}

mlir::LogicalResult ScopeScan::define(const Name &name, const Path &path) {
  auto found = waiting_.find(name.name);
  if (found != waiting_.end()) {
    std::vector<Waiting> uses = std::move(found->second);
    waiting_.erase(found);
    for (const Waiting &waiting : uses) {
      if (encloses(path, waiting.path))
        continue;
      auto diag = mlir::emitError(locationOf(sources_, context_, waiting.at))
                  << "use of " << name.name
                  << " before its definition, which is inside a region that does not enclose "
                     "this use (a value defined in a region is visible only inside it)";
      diag.attachNote(locationOf(sources_, context_, name.at))
          << name.name << " is defined here";
      return mlir::failure();
    }
  }
  ++alive_[name.name];
  definedPerScope_[path.size()].push_back(name.name);
  return mlir::success();
}

mlir::LogicalResult ScopeScan::run(const std::vector<Token> &tokens) {
  auto is = [&](size_t k, char punct) {
    return k < tokens.size() && tokens[k].kind == Token::Punct && tokens[k].text[0] == punct;
  };
  auto isCount = [&](size_t k) { return is(k, ':') && k + 1 < tokens.size() &&
                                        tokens[k + 1].kind == Token::Number; };
  for (size_t k = 0; k < tokens.size(); ++k) {
    const Token &token = tokens[k];
    if (token.kind == Token::Split) {
      reset();
    } else if (is(k, '{')) {
      if (failed(openRegion(k > 0 && tokens[k - 1].kind == Token::Word &&
                            tokens[k - 1].text == "attributes")))
        return mlir::failure();
    } else if (is(k, '}')) {
      closeRegion();
    } else if (is(k, '(')) {
      Token::Kind before = k > 0 ? tokens[k - 1].kind : Token::Other;
      parens_.push_back({before == Token::Symbol  ? Parens::SymbolArgs
                         : before == Token::Label ? Parens::BlockArgs
                                                  : Parens::Plain,
                         {}});
    } else if (is(k, ')') && !parens_.empty()) {
      Paren paren = std::move(parens_.back());
      parens_.pop_back();
      if (paren.kind == Parens::BlockArgs) { // `^bb(%a: t):` defines, `^bb(%a : t)` uses
        for (const Name &name : paren.names)
          if (is(k + 1, ':') ? failed(define(name, scope_)) : (use(name), false))
            return mlir::failure();
      } else if (paren.kind == Parens::SymbolArgs && !paren.names.empty()) {
        regionArgs_ = std::move(paren.names);
        regionArgsParens_ = parens_.size();
        regionArgsScope_ = scope_.size();
      }
    } else if (token.kind == Token::Value) {
      // `%a, %b:2 =` defines results; otherwise this one name is a use or an argument.
      size_t end = k + 1 + (isCount(k + 1) ? 2 : 0);
      while (is(end, ',') && end + 1 < tokens.size() && tokens[end + 1].kind == Token::Value)
        end += 2 + (isCount(end + 2) ? 2 : 0);
      if (is(end, '=')) {
        for (size_t j = k; j < end; ++j)
          if (tokens[j].kind == Token::Value &&
              failed(define({tokens[j].text, tokens[j].text.data(), false}, scope_)))
            return mlir::failure();
        k = end;
        continue;
      }
      Name name{token.text, token.text.data(), is(k + 1, ':') && !isCount(k + 1)};
      Parens kind = parens_.empty() ? Parens::Plain : parens_.back().kind;
      if (kind == Parens::BlockArgs || (kind == Parens::SymbolArgs && name.typed))
        parens_.back().names.push_back(name);
      else
        use(name);
    }
  }
  return mlir::success();
}

} // namespace

static llvm::StringRef mainText(const llvm::SourceMgr &sources) {
  return sources.getMemoryBuffer(sources.getMainFileID())->getBuffer();
}

/// checkNesting over the main buffer's tokens.
static mlir::LogicalResult checkNesting(const llvm::SourceMgr &sources,
                                        mlir::MLIRContext *context,
                                        const std::vector<Token> &tokens) {
  const char *begin = mainText(sources).data();
  auto isName = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  unsigned depth = 0;
  for (const Token &token : tokens) { // comments and strings are not tokens
    if (token.text.size() != 1)
      continue; // `->` (one token) closes nothing
    const char *at = token.text.data();
    char c = *at;
    bool open = c == '(' || c == '[' || c == '{' ||
                (c == '<' && at > begin && isName(at[-1]));
    bool close = c == ')' || c == ']' || c == '}' || c == '>';
    if (close && depth > 0)
      --depth;
    if (open && ++depth > kMaxNesting)
      return mlir::emitError(locationOf(sources, context, at))
             << "brackets nest deeper than " << kMaxNesting << " levels";
  }
  return mlir::success();
}

mlir::LogicalResult checkNesting(const llvm::SourceMgr &sources, mlir::MLIRContext *context) {
  return checkNesting(sources, context, lex(mainText(sources), ""));
}

mlir::LogicalResult checkValueScopes(const llvm::SourceMgr &sources, mlir::MLIRContext *context,
                                     llvm::StringRef splitMarker) {
  return ScopeScan(sources, context).run(lex(mainText(sources), splitMarker));
}

mlir::LogicalResult checkSource(const llvm::SourceMgr &sources, mlir::MLIRContext *context,
                                llvm::StringRef splitMarker) {
  std::vector<Token> tokens = lex(mainText(sources), splitMarker); // lexed once for both
  if (mlir::failed(checkNesting(sources, context, tokens)))
    return mlir::failure();
  return ScopeScan(sources, context).run(tokens);
}

} // namespace rngd

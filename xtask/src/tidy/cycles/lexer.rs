//! The little Rust lexing the cycle check needs: comments, doc comments, string and character
//! literals blanked out, the rest cut into tokens with their brace depth, `#[cfg(test)]` items
//! dropped, and `use` trees expanded into one path per imported name.
//!
//! It is not a parser: it knows the shapes of items, attributes and `use` declarations, which
//! is enough to read module structure and import paths from formatted, compiling code.

/// A token of code outside comments and literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Token<'a> {
    pub(super) text: &'a str,
    /// Byte offset in the text: a string token spans the literal's quotes.
    pub(super) start: usize,
    /// How many `{` enclose the token (a `{` or `}` counts as outside its own block).
    pub(super) depth: usize,
}

impl Token<'_> {
    pub(super) fn is_ident(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    }

    pub(super) fn is_string(&self) -> bool {
        self.text.starts_with('"')
    }
}

fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// `text` with every comment (line, block, doc) and the contents of every string, raw string
/// and character literal replaced by spaces (line breaks kept), so that byte offsets still
/// point into `text`. A string keeps its two quotes, so its contents can be read back from
/// `text`; a character literal becomes spaces entirely (its quotes could pass for lifetimes).
pub(super) fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to.min(bytes.len())] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while i < bytes.len() {
        let preceded = i > 0 && is_ident_byte(bytes[i - 1]);
        match bytes[i] {
            b'/' if at(i + 1) == b'/' => {
                let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if at(i + 1) == b'*' => {
                let (mut j, mut depth) = (i + 2, 1);
                while j < bytes.len() && depth > 0 {
                    if bytes[j] == b'/' && at(j + 1) == b'*' {
                        depth += 1;
                        j += 2;
                    } else if bytes[j] == b'*' && at(j + 1) == b'/' {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' | b'b' | b'c' if !preceded && raw_string_quote(bytes, i).is_some() => {
                let (quote, hashes) = raw_string_quote(bytes, i).unwrap_or((i, 0));
                let closing: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let close = bytes[quote + 1..]
                    .windows(closing.len())
                    .position(|window| window == closing.as_slice())
                    .map_or(bytes.len(), |n| quote + 1 + n);
                blank(&mut out, i, quote);
                blank(&mut out, quote + 1, close);
                blank(&mut out, close + 1, close + closing.len());
                i = close + closing.len();
            }
            b'"' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j);
                i = j + 1;
            }
            b'\'' => {
                let close = if at(i + 1) == b'\\' {
                    text[(i + 3).min(bytes.len())..]
                        .find('\'')
                        .map(|n| i + 3 + n)
                } else {
                    let width = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (at(i + 1 + width) == b'\'').then_some(i + 1 + width)
                };
                match close {
                    Some(close) => {
                        blank(&mut out, i, close + 1);
                        i = close + 1;
                    }
                    None => i += 1, // a lifetime or a label
                }
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were written, over whole characters: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// For a raw string starting at `i` (`r"`, `r#"`, `br"`, `cr#"`, …): where its opening quote
/// is and how many `#` it has.
fn raw_string_quote(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let r = if bytes[i] == b'r' { i } else { i + 1 };
    if bytes.get(r) != Some(&b'r') {
        return None;
    }
    let hashes = bytes[r + 1..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(r + 1 + hashes) == Some(&b'"')).then_some((r + 1 + hashes, hashes))
}

/// The tokens of stripped code: identifiers (a raw `r#name` as `name`), numbers, string
/// literals (quotes included), `::`, and single punctuation characters.
pub(super) fn tokens(code: &str) -> Vec<Token<'_>> {
    let bytes = code.as_bytes();
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let start = i;
        if byte.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if byte == b'r'
            && bytes.get(i + 1) == Some(&b'#')
            && bytes.get(i + 2).is_some_and(|&b| is_ident_byte(b))
        {
            i += 2;
            let name_start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            tokens.push(Token {
                text: &code[name_start..i],
                start,
                depth,
            });
            continue;
        }
        if is_ident_byte(byte) {
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
        } else if byte == b'"' {
            i = code[i + 1..].find('"').map_or(bytes.len(), |n| i + n + 2);
        } else if byte == b':' && bytes.get(i + 1) == Some(&b':') {
            i += 2;
        } else {
            i += 1;
        }
        let token_depth = match byte {
            b'{' => {
                depth += 1;
                depth - 1
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                depth
            }
            _ => depth,
        };
        tokens.push(Token {
            text: &code[start..i],
            start,
            depth: token_depth,
        });
    }
    tokens
}

/// Keywords that start an item (after attributes and visibility).
const ITEM_KEYWORDS: &[&str] = &[
    "mod",
    "fn",
    "use",
    "impl",
    "struct",
    "enum",
    "const",
    "static",
    "type",
    "trait",
    "union",
    "unsafe",
    "async",
    "extern",
    "macro_rules",
];

/// The tokens without the items under a `#[cfg(…test…)]` attribute (not `cfg(not(test))`):
/// test modules, test-only functions, imports and impls. A `#[cfg(test)]` on something that is
/// not an item (a field, a variant, a statement) is left alone.
pub(super) fn without_test_items<'a>(tokens: &[Token<'a>]) -> Vec<Token<'a>> {
    let mut kept = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some(close) = attribute_end(tokens, i)
            && is_cfg_test(&tokens[i + 2..close])
            && let Some(end) = item_end(tokens, close + 1)
        {
            i = end + 1;
            continue;
        }
        kept.push(tokens[i]);
        i += 1;
    }
    kept
}

/// When an outer attribute `#[…]` starts at `i`, the index of its closing `]`.
pub(super) fn attribute_end(tokens: &[Token<'_>], i: usize) -> Option<usize> {
    if tokens.get(i)?.text != "#" || tokens.get(i + 1)?.text != "[" {
        return None;
    }
    matching(tokens, i + 1)
}

/// The index of the bracket closing the one at `open` (`(`, `[` or `{`).
fn matching(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate().skip(open) {
        match token.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(index);
                }
            }
            _ => {}
        }
    }
    None
}

fn is_cfg_test(attribute: &[Token<'_>]) -> bool {
    attribute.first().is_some_and(|token| token.text == "cfg")
        && attribute.iter().any(|token| token.text == "test")
        && !attribute.iter().any(|token| token.text == "not")
}

/// The index of the last token of the item starting at `i` (after any further attributes),
/// or `None` when no item starts there.
fn item_end(tokens: &[Token<'_>], mut i: usize) -> Option<usize> {
    while let Some(close) = attribute_end(tokens, i) {
        i = close + 1;
    }
    if tokens.get(i)?.text == "pub" {
        i += 1;
        if tokens.get(i)?.text == "(" {
            i = matching(tokens, i)? + 1;
        }
    }
    let keyword = tokens.get(i)?.text;
    if !ITEM_KEYWORDS.contains(&keyword) {
        return None;
    }
    let mut j = i;
    while let Some(token) = tokens.get(j) {
        match token.text {
            ";" => return Some(j),
            "{" if keyword != "use" => return matching(tokens, j),
            "(" | "[" | "{" => j = matching(tokens, j)?,
            _ => {}
        }
        j += 1;
    }
    None
}

/// One name a `use` declaration imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Import {
    /// The full path, ending with the imported name, or with `*` for a glob.
    pub(super) path: Vec<String>,
    /// The name it is bound to here (its last segment, or the `as` alias); `None` for a glob.
    pub(super) binding: Option<String>,
}

/// The imports of the `use` tree that starts at `tokens[0]` (after the `use` keyword), and
/// the number of tokens read up to and including the closing `;`.
pub(super) fn use_tree(tokens: &[Token<'_>]) -> (Vec<Import>, usize) {
    let mut imports = Vec::new();
    let mut at = 0;
    tree(tokens, &mut at, &[], &mut imports);
    let end = tokens[at.min(tokens.len())..]
        .iter()
        .position(|token| token.text == ";")
        .map_or(tokens.len(), |n| at + n + 1);
    (imports, end)
}

fn tree(tokens: &[Token<'_>], at: &mut usize, prefix: &[String], out: &mut Vec<Import>) {
    let mut path = prefix.to_vec();
    let text = |at: usize| tokens.get(at).map_or("", |token| token.text);
    if text(*at) == "::" {
        // `use ::name::…`: an external crate, never a module of ours.
        path.push("::".to_owned());
        *at += 1;
    }
    loop {
        match text(*at) {
            "{" => {
                *at += 1;
                while !matches!(text(*at), "}" | "") {
                    tree(tokens, at, &path, out);
                    if text(*at) == "," {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                *at += 1;
                path.push("*".to_owned());
                out.push(Import {
                    path,
                    binding: None,
                });
                return;
            }
            name if tokens.get(*at).is_some_and(Token::is_ident) => {
                *at += 1;
                let group_self = name == "self" && !prefix.is_empty() && path == prefix;
                if !group_self {
                    path.push(name.to_owned());
                }
                if !group_self && text(*at) == "::" {
                    *at += 1;
                    continue;
                }
                let mut binding = path.last().cloned().unwrap_or_default();
                if text(*at) == "as" {
                    binding = text(*at + 1).to_owned();
                    *at += 2;
                }
                out.push(Import {
                    path,
                    binding: Some(binding),
                });
                return;
            }
            _ => return,
        }
    }
}

#[cfg(test)]
mod checks {
    use super::*;

    fn texts(code: &str) -> Vec<&str> {
        tokens(code).iter().map(|token| token.text).collect()
    }

    #[test]
    fn strip_blanks_comments_and_literals_but_keeps_offsets() {
        let text = "a /* x /* nested */ crate::b */ c // crate::d\n\
                    /// crate::e\ns = \"crate::f\\\"\"; r = r#\"crate::\"g\"#; \
                    c = '{'; l: &'a str; q = '\\''; z = b'}';";
        let code = strip(text);
        assert_eq!(code.len(), text.len());
        assert!(!code.contains("crate"), "{code}");
        assert!(!code.contains(['{', '}']), "{code}");
        assert!(code.contains("&'a str"), "{code}");
        // The string keeps its quotes, so its contents can be read from the text.
        let string = tokens(&code).into_iter().find(Token::is_string).unwrap();
        assert_eq!(
            &text[string.start..string.start + string.text.len()],
            "\"crate::f\\\"\""
        );
    }

    #[test]
    fn tokens_carry_their_brace_depth() {
        let code = "mod a { fn b() { c::d } }";
        let depths: Vec<(&str, usize)> = tokens(code)
            .iter()
            .map(|token| (token.text, token.depth))
            .collect();
        assert_eq!(depths[0], ("mod", 0));
        assert_eq!(depths[2], ("{", 0));
        assert!(depths.contains(&("c", 2)));
        assert_eq!(depths.last(), Some(&("}", 0)));
        assert_eq!(texts("r#type::x"), ["type", "::", "x"]);
    }

    #[test]
    fn test_items_are_dropped_and_other_attributes_kept() {
        let code = "use a::b;\n#[cfg(test)]\n#[allow(x)]\npub(crate) mod tests { use super::*; }\n\
                    #[cfg(test)] mod t2;\n#[cfg(all(test, feature = \"x\"))] fn f() -> u8 { 1 }\n\
                    #[cfg(test)] use c::{d, e};\n#[cfg(not(test))] fn g() {}\n\
                    enum V { A, #[cfg(test)] B }\nfn h() {}";
        let kept = without_test_items(&tokens(code));
        let kept: Vec<&str> = kept.iter().map(|token| token.text).collect();
        assert_eq!(
            kept.join(" "),
            "use a :: b ; # [ cfg ( not ( test ) ) ] fn g ( ) { } \
             enum V { A , # [ cfg ( test ) ] B } fn h ( ) { }"
        );
    }

    #[test]
    fn use_trees_expand_to_one_path_per_name() {
        let code = "crate::{a::{b, c as d}, e::*, f::{self, G}};";
        let (imports, end) = use_tree(&tokens(code));
        let shown: Vec<String> = imports
            .iter()
            .map(|import| {
                format!(
                    "{} as {}",
                    import.path.join("::"),
                    import.binding.as_deref().unwrap_or("-")
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "crate::a::b as b",
                "crate::a::c as d",
                "crate::e::* as -",
                "crate::f as f",
                "crate::f::G as G",
            ]
        );
        assert_eq!(end, tokens(code).len());
        let (imports, _) = use_tree(&tokens("::ext::H;"));
        assert_eq!(imports[0].path, ["::", "ext", "H"]);
    }
}

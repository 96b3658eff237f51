//! The little JSON a host needs without a JSON library: quoting a string for an answer,
//! unquoting one from the state, the items of an array and the members of an object as JSON
//! texts (borrowed from the text read), and the tokens of a JSON Pointer. `Store::take_requests`,
//! `parse_patch` and the other readers of the library's reports are built on `Reader`.

use crate::sys;
use crate::Error;

/// `text` as a JSON string: `quote("a\"b")` is `"\"a\\\"b\""`.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text of a JSON string (`"\"a\\nb\""` gives `"a\nb"`). `Error` with TCA_ERR_JSON_SHAPE if
/// `json` is JSON but not a string, TCA_ERR_JSON_SYNTAX if it is not JSON.
pub fn unquote(json: &str) -> Result<String, Error> {
    let mut reader = Reader::new(json, "tca::unquote");
    if reader.peek() != b'"' {
        return Err(reader.wrong("a JSON string"));
    }
    let text = reader.text()?;
    reader.end()?;
    Ok(text)
}

/// The items of a JSON array, each as JSON text borrowed from `json`:
/// `items(r#"[1,"a",[2]]"#)` is `["1", "\"a\"", "[2]"]`. `Error` with TCA_ERR_JSON_SHAPE (not
/// an array) or TCA_ERR_JSON_SYNTAX (not JSON).
pub fn items(json: &str) -> Result<Vec<&str>, Error> {
    let mut reader = Reader::new(json, "tca::items");
    let mut out = Vec::new();
    reader.array(|reader| {
        out.push(reader.value()?);
        Ok(())
    })?;
    reader.end()?;
    Ok(out)
}

/// The members of a JSON object, in order: each name (decoded) and its value as JSON text
/// borrowed from `json`. `members(r#"{"count":1}"#)` is `[("count".to_string(), "1")]`.
/// `Error` with TCA_ERR_JSON_SHAPE (not an object) or TCA_ERR_JSON_SYNTAX (not JSON).
pub fn members(json: &str) -> Result<Vec<(String, &str)>, Error> {
    let mut reader = Reader::new(json, "tca::members");
    let mut out = Vec::new();
    reader.object(|reader, name| {
        out.push((name, reader.value()?));
        Ok(())
    })?;
    reader.end()?;
    Ok(out)
}

/// The reference tokens of a JSON Pointer (RFC 6901), unescaped: `"/todos/0/a~1b"` gives
/// `["todos", "0", "a/b"]`; `""` (the whole document) gives `[]`. `Error` with
/// TCA_ERR_INVALID_ARGUMENT for a pointer that does not start with '/' or has a bad '~'.
pub fn pointer_tokens(pointer: &str) -> Result<Vec<String>, Error> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let bad = |why: &str| {
        Error::new(
            sys::TCA_ERR_INVALID_ARGUMENT,
            format!("tca::pointer_tokens: {} in {}", why, quote(pointer)),
        )
    };
    let rest = pointer.strip_prefix('/').ok_or_else(|| bad("no leading '/'"))?;
    let mut tokens = Vec::new();
    for part in rest.split('/') {
        let mut token = String::with_capacity(part.len());
        let mut chars = part.chars();
        while let Some(c) = chars.next() {
            if c != '~' {
                token.push(c);
                continue;
            }
            match chars.next() {
                Some('0') => token.push('~'),
                Some('1') => token.push('/'),
                _ => return Err(bad("a '~' not followed by 0 or 1")),
            }
        }
        tokens.push(token);
    }
    Ok(tokens)
}

/// Reads JSON text strictly (RFC 8259; nesting up to 512, as the library), handing out the text
/// of each value it checked. Errors: TCA_ERR_JSON_SYNTAX for text that is not JSON,
/// TCA_ERR_JSON_SHAPE for JSON of another type than expected; the message names `who`, the byte
/// and the start of the text.
pub(crate) struct Reader<'a> {
    json: &'a str,
    bytes: &'a [u8],
    at: usize,
    who: &'static str,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(json: &'a str, who: &'static str) -> Reader<'a> {
        Reader { json, bytes: json.as_bytes(), at: 0, who }
    }

    fn fail(&self, status: sys::tca_status, expected: &str) -> Error {
        // NB: the start of the text, cut after 20 bytes at a character's boundary, as the
        // library's own messages show input.
        let mut cut = self.json.len().min(20);
        while !self.json.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut shown = quote(&self.json[..cut]);
        if cut < self.json.len() {
            shown.insert(shown.len() - 1, '…');
        }
        Error::new(
            status,
            format!("{}: expected {} at byte {} of {}", self.who, expected, self.at, shown),
        )
    }
    fn syntax(&self, expected: &str) -> Error {
        self.fail(sys::TCA_ERR_JSON_SYNTAX, expected)
    }
    pub(crate) fn shape(&self, expected: &str) -> Error {
        self.fail(sys::TCA_ERR_JSON_SHAPE, expected)
    }
    /// Not what was `expected` here: a syntax error if it is not JSON either, else a shape error.
    fn wrong(&mut self, expected: &str) -> Error {
        let start = self.at;
        if let Err(error) = self.value() {
            return error;
        }
        self.at = start;
        self.shape(expected)
    }

    /// Skips whitespace; the next byte, or 0 at the end.
    pub(crate) fn peek(&mut self) -> u8 {
        while self.at < self.bytes.len()
            && matches!(self.bytes[self.at], b' ' | b'\n' | b'\t' | b'\r')
        {
            self.at += 1;
        }
        self.bytes.get(self.at).copied().unwrap_or(0)
    }
    fn next_is(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), Error> {
        if self.next_is(c) {
            Ok(())
        } else {
            Err(self.syntax(&format!("'{}'", c as char)))
        }
    }
    /// Nothing but whitespace is left.
    pub(crate) fn end(&mut self) -> Result<(), Error> {
        if self.peek() == 0 && self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.syntax("the end of the text"))
        }
    }

    /// One value, checked; its text.
    pub(crate) fn value(&mut self) -> Result<&'a str, Error> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: u32) -> Result<&'a str, Error> {
        if depth > 512 {
            return Err(self.syntax("nesting at most 512 deep"));
        }
        let first = self.peek();
        let start = self.at;
        match first {
            b'{' => self.object(|reader, _| reader.value_at(depth + 1).map(|_| ()))?,
            b'[' => self.array(|reader| reader.value_at(depth + 1).map(|_| ()))?,
            b'"' => {
                self.string()?;
            }
            b't' => self.literal("true")?,
            b'f' => self.literal("false")?,
            b'n' => self.literal("null")?,
            _ => self.number()?,
        }
        Ok(&self.json[start..self.at])
    }

    /// An array: `each` is called with the reader at each item, which it must read.
    pub(crate) fn array(
        &mut self,
        mut each: impl FnMut(&mut Reader<'a>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.peek() != b'[' {
            return Err(self.wrong("an array"));
        }
        self.at += 1;
        if self.next_is(b']') {
            return Ok(());
        }
        loop {
            each(self)?;
            if !self.next_is(b',') {
                break;
            }
        }
        self.expect(b']')
    }

    /// An object: `each` is called with each member's name (decoded) and the reader at its
    /// value, which it must read.
    pub(crate) fn object(
        &mut self,
        mut each: impl FnMut(&mut Reader<'a>, String) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.peek() != b'{' {
            return Err(self.wrong("an object"));
        }
        self.at += 1;
        if self.next_is(b'}') {
            return Ok(());
        }
        loop {
            if self.peek() != b'"' {
                return Err(self.syntax("a member's name"));
            }
            let name = self.text()?;
            self.expect(b':')?;
            each(self, name)?;
            if !self.next_is(b',') {
                break;
            }
        }
        self.expect(b'}')
    }

    /// A string, checked; its text with the quotes.
    fn string(&mut self) -> Result<&'a str, Error> {
        if self.peek() != b'"' {
            return Err(self.wrong("a string"));
        }
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.syntax("the end of a string")),
                Some(b'"') => break,
                Some(&c) if c < 0x20 => {
                    return Err(self.syntax("no control character in a string"))
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.bytes.get(self.at) {
                        Some(b'u') => {
                            for _ in 0..4 {
                                self.at += 1;
                                if !self
                                    .bytes
                                    .get(self.at)
                                    .map_or(false, |h| h.is_ascii_hexdigit())
                                {
                                    return Err(self.syntax("4 hex digits"));
                                }
                            }
                        }
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                        _ => return Err(self.syntax("an escape")),
                    }
                }
                Some(_) => {}
            }
            self.at += 1;
        }
        self.at += 1;
        Ok(&self.json[start..self.at])
    }

    /// A string, decoded: its text.
    pub(crate) fn text(&mut self) -> Result<String, Error> {
        let quoted = self.string()?;
        let inner = &quoted[1..quoted.len() - 1];
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        // NB: `string` checked every escape: 4 hex digits follow each \u.
        let hex = |chars: &mut std::str::Chars| {
            chars.by_ref().take(4).fold(0u32, |n, h| n * 16 + h.to_digit(16).unwrap_or(0))
        };
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{c}'),
                Some('u') => {
                    let mut code = hex(&mut chars);
                    if (0xD800..0xDC00).contains(&code) {
                        let low = if chars.as_str().starts_with("\\u") {
                            chars.next();
                            chars.next();
                            hex(&mut chars)
                        } else {
                            0
                        };
                        if !(0xDC00..0xE000).contains(&low) {
                            return Err(self.syntax("no lone surrogate"));
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    out.push(
                        char::from_u32(code).ok_or_else(|| self.syntax("no lone surrogate"))?,
                    );
                }
                Some(other) => out.push(other),
                None => return Err(self.syntax("an escape")),
            }
        }
        Ok(out)
    }

    /// A non-negative integer that fits 64 bits (request ids).
    pub(crate) fn u64(&mut self) -> Result<u64, Error> {
        self.peek();
        let start = self.at;
        let mut number = 0u64;
        while let Some(&c) = self.bytes.get(self.at).filter(|c| c.is_ascii_digit()) {
            number = number
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(c - b'0')))
                .ok_or_else(|| self.shape("an integer of 64 bits"))?;
            self.at += 1;
        }
        if self.at == start {
            return Err(self.wrong("an integer"));
        }
        Ok(number)
    }

    fn literal(&mut self, word: &str) -> Result<(), Error> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.syntax("a value"))
        }
    }

    fn digits(&mut self) -> Result<usize, Error> {
        let start = self.at;
        while self.bytes.get(self.at).map_or(false, |c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start {
            Err(self.syntax("a value"))
        } else {
            Ok(self.at - start)
        }
    }

    fn number(&mut self) -> Result<(), Error> {
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let integer = self.at;
        if self.digits()? > 1 && self.bytes[integer] == b'0' {
            return Err(self.syntax("no leading zero"));
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            self.digits()?;
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.digits()?;
        }
        Ok(())
    }
}

//! The little JSON a host needs without a JSON library: quoting a string for an answer,
//! unquoting one from the state, and reading the array of `Store::take_requests`.

use crate::{Error, Pending, Request, RequestKind};

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

/// The text of a JSON string (`"\"a\\nb\""` gives `"a\nb"`); `Error` with TCA_ERR_JSON_SHAPE if
/// `json` is not one.
pub fn unquote(json: &str) -> Result<String, Error> {
    let bad = || {
        let shown: String = json.chars().take(40).collect();
        Error::new(crate::sys::TCA_ERR_JSON_SHAPE, format!("tca::unquote: expected a JSON string, found {}", shown))
    };
    let inner = json
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|_| json.len() >= 2)
        .ok_or_else(bad)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    let hex = |chars: &mut std::str::Chars| -> Option<u32> {
        let digits: String = chars.by_ref().take(4).collect();
        if digits.len() != 4 {
            return None;
        }
        u32::from_str_radix(&digits, 16).ok()
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next().ok_or_else(bad)? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'u' => {
                let mut code = hex(&mut chars).ok_or_else(bad)?;
                if (0xD800..0xDC00).contains(&code) {
                    if chars.next() != Some('\\') || chars.next() != Some('u') {
                        return Err(bad());
                    }
                    let low = hex(&mut chars).ok_or_else(bad)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(bad());
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                out.push(char::from_u32(code).ok_or_else(bad)?);
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Reads the array `tca_store_take_requests` returns (a fixed shape: objects of numbers, strings
/// and one JSON payload each).
pub(crate) fn read_requests(json: &str) -> Result<Vec<Pending>, Error> {
    let mut reader = Reader { json: json.as_bytes(), at: 0 };
    reader.requests()
}

struct Reader<'a> {
    json: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn fail(&self) -> Error {
        Error::new(
            crate::sys::TCA_ERR_JSON_SYNTAX,
            format!("tca::Store::take_requests: unexpected JSON at byte {}", self.at),
        )
    }
    fn peek(&mut self) -> u8 {
        while self.at < self.json.len() && self.json[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        self.json.get(self.at).copied().unwrap_or(0)
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
        if self.next_is(c) { Ok(()) } else { Err(self.fail()) }
    }
    fn text(&self, start: usize) -> Result<&'a str, Error> {
        std::str::from_utf8(&self.json[start..self.at]).map_err(|_| self.fail())
    }
    fn string(&mut self) -> Result<String, Error> {
        if self.peek() != b'"' {
            return Err(self.fail());
        }
        let start = self.at;
        self.at += 1;
        while self.at < self.json.len() && self.json[self.at] != b'"' {
            if self.json[self.at] == b'\\' {
                self.at += 1;
            }
            self.at += 1;
        }
        if self.at >= self.json.len() {
            return Err(self.fail());
        }
        self.at += 1;
        unquote(self.text(start)?)
    }
    fn number(&mut self) -> Result<u64, Error> {
        self.peek();
        let start = self.at;
        while self.at < self.json.len() && self.json[self.at].is_ascii_digit() {
            self.at += 1;
        }
        self.text(start)?.parse().map_err(|_| self.fail())
    }
    fn skip_value(&mut self) -> Result<(), Error> {
        match self.peek() {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0i32;
                loop {
                    match self.json.get(self.at) {
                        None => return Err(self.fail()),
                        Some(b'"') => {
                            self.string()?;
                            continue;
                        }
                        Some(b'{') | Some(b'[') => depth += 1,
                        Some(b'}') | Some(b']') => depth -= 1,
                        _ => {}
                    }
                    self.at += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                while self.at < self.json.len() && !b",}]".contains(&self.json[self.at]) {
                    self.at += 1;
                }
            }
        }
        Ok(())
    }
    fn requests(&mut self) -> Result<Vec<Pending>, Error> {
        let mut out = Vec::new();
        self.expect(b'[')?;
        if self.next_is(b']') {
            return Ok(out);
        }
        loop {
            out.push(self.object()?);
            if !self.next_is(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Ok(out)
    }
    fn object(&mut self) -> Result<Pending, Error> {
        let mut request = Request { id: 0, name: String::new(), payload: String::new(), kind: RequestKind::OneShot };
        let mut cancelled = None;
        self.expect(b'{')?;
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            match key.as_str() {
                "id" => request.id = self.number()?,
                "cancelled" => cancelled = Some(self.number()?),
                "name" => request.name = self.string()?,
                "kind" => {
                    request.kind = match self.string()?.as_str() {
                        "stream" => RequestKind::Stream,
                        "fireAndForget" => RequestKind::FireAndForget,
                        _ => RequestKind::OneShot,
                    }
                }
                other => {
                    self.peek();
                    let start = self.at;
                    self.skip_value()?;
                    if other == "payload" {
                        request.payload = self.text(start)?.to_string();
                    }
                }
            }
            if !self.next_is(b',') {
                break;
            }
        }
        self.expect(b'}')?;
        Ok(match cancelled {
            Some(id) => Pending::Cancelled(id),
            None => Pending::Request(request),
        })
    }
}

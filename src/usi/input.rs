//! Reading client lines as bytes: invalid UTF-8 is decoded lossily, and a line longer than
//! [`MAX_LINE`] is skipped as a whole (with its length reported) instead of growing a buffer without
//! bound.

use std::io::{self, BufRead};

/// Longest line accepted. A `position` of a 1000-ply game is about 6 KB; anything near this size is
/// garbage, and refusing it keeps a stream without newlines from eating memory.
pub const MAX_LINE: usize = 1 << 20;

/// One unit of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line of this many bytes, over [`MAX_LINE`], was dropped.
    TooLong(usize),
}

/// Reads lines from `reader`; `Ok(None)` at end of input.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            buf: Vec::new(),
        }
    }

    pub fn next_input(&mut self) -> io::Result<Option<Input>> {
        self.buf.clear();
        let mut total = 0usize;
        let mut saw_any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                // End of input: a last line without newline still counts.
                return Ok(saw_any.then(|| self.finish(total)));
            }
            saw_any = true;
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let body = if done { used - 1 } else { used };
            total += body;
            if total <= MAX_LINE {
                self.buf.extend_from_slice(&chunk[..body]);
            }
            self.reader.consume(used);
            if done {
                return Ok(Some(self.finish(total)));
            }
        }
    }

    fn finish(&mut self, total: usize) -> Input {
        if total > MAX_LINE {
            Input::TooLong(total)
        } else {
            Input::Line(String::from_utf8_lossy(&self.buf).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Input> {
        let mut r = LineReader::new(io::BufReader::with_capacity(7, bytes));
        let mut out = Vec::new();
        while let Some(i) = r.next_input().unwrap() {
            out.push(i);
        }
        out
    }

    #[test]
    fn lines_crlf_lossy_and_last_line() {
        assert_eq!(
            all(b"usi\r\nis\xffready\n\nquit"),
            vec![
                Input::Line("usi\r".into()),
                Input::Line("is\u{fffd}ready".into()),
                Input::Line(String::new()),
                Input::Line("quit".into()),
            ]
        );
        assert_eq!(all(b""), vec![]);
    }

    #[test]
    fn overlong_line_is_skipped_whole() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nisready\n");
        assert_eq!(
            all(&data),
            vec![Input::TooLong(MAX_LINE + 10), Input::Line("isready".into())]
        );
    }
}

//! Text echoed back to the user, made safe to print: a message may quote what was typed
//! (a key, a value, a file's content), and neither a terminal nor the page should be
//! steered by it. Control characters (ESC, CR, NUL…) and the Unicode bidirectional and
//! invisible formatting characters (U+202E and its kin) are written as `\u{…}`, and a text
//! longer than its limit is cut in the middle with the count of what was left out.

/// The most characters of a field path shown in a message.
pub(crate) const MAX_PATH_CHARS: usize = 120;
/// The most characters of one message shown.
pub(crate) const MAX_MESSAGE_CHARS: usize = 600;

/// `text` with control and formatting characters escaped (newlines kept: messages have
/// lines) and shortened to about `max_chars` characters.
pub fn shown(text: &str, max_chars: usize) -> String {
    let escaped: Vec<String> = text
        .chars()
        .map(|c| if c != '\n' && is_hidden(c) { format!("\\u{{{:x}}}", c as u32) } else { c.to_string() })
        .collect();
    if escaped.len() <= max_chars {
        return escaped.concat();
    }
    let head = max_chars * 2 / 3;
    let tail = max_chars - head;
    format!(
        "{}… ({} characters left out) …{}",
        escaped[..head].concat(),
        escaped.len() - head - tail,
        escaped[escaped.len() - tail..].concat()
    )
}

/// Characters that change how the rest is displayed rather than showing themselves.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}' // zero-width space, joiners, LRM, RLM
            | '\u{2028}'..='\u{202e}' // line/paragraph separators, bidi embeddings and overrides
            | '\u{2060}'..='\u{2069}' // word joiner, invisible operators, bidi isolates
            | '\u{feff}' // byte-order mark, zero-width no-break space
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_long_texts_cut() {
        assert_eq!(shown("a\u{1b}[31mb\rc\u{202e}d\ne", 100), "a\\u{1b}[31mb\\u{d}c\\u{202e}d\ne");
        let long = "x".repeat(120_000);
        let s = shown(&long, 60);
        assert!(s.contains("(119940 characters left out)"), "{s}");
        assert!(s.chars().count() < 120, "{s}");
        assert_eq!(shown("routing.algorithm: unknown", 600), "routing.algorithm: unknown");
    }
}

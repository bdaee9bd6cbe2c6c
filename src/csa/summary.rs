//! The `BEGIN Game_Summary` block: read line by line into a [`GameSummary`], or an error that says
//! which line was wrong (the block is still read to its end, so the game can be refused by id).
//!
//! Facts used (protocol 1.2.1; shogi-server's `game.rb` sends exactly this order):
//! ```text
//! BEGIN Game_Summary
//! Protocol_Version:1.2
//! Protocol_Mode:Server
//! Format:Shogi 1.0
//! Declaration:Jishogi 1.1
//! Game_ID:<id>
//! Name+:<black>
//! Name-:<white>
//! Your_Turn:+
//! Rematch_On_Draw:NO
//! To_Move:+
//! Max_Moves:256
//! BEGIN Time
//! Time_Unit:1sec
//! Total_Time:600
//! Byoyomi:10
//! Increment:0
//! Least_Time_Per_Move:0
//! END Time
//! BEGIN Position
//! P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
//! ...
//! +
//! +7776FU,T12
//! END Position
//! END Game_Summary
//! ```
//! The time block may instead come per side, `BEGIN Time+` ... `END Time+` and `BEGIN Time-` ...
//! `END Time-`. `Time_Unit` is a count and `sec`, `min` or `msec`; `Time_Roundup` is `YES` or
//! `NO`. `Declaration:Jishogi 1.1` is the CSA 27-point entering-king rule. `Max_Moves:0` or no
//! line means no move limit. The position block may end with moves already played, each with the
//! time it was charged.

use super::clock::TimeRule;
use crate::core::Color;

/// A game offer, read and checked for shape (the position is the game's to check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub protocol_version: Option<String>,
    pub declaration: Option<String>,
    pub game_id: String,
    /// `Name+`, `Name-` (indexed by colour; `?` when absent).
    pub names: [String; 2],
    pub your_turn: Color,
    pub to_move: Option<Color>,
    pub rematch_on_draw: Option<String>,
    /// `Max_Moves`; `None` for no limit.
    pub max_moves: Option<u32>,
    /// Indexed by colour.
    pub time: [TimeRule; 2],
    /// The lines between `BEGIN Position` and `END Position`, as sent.
    pub position: Vec<String>,
    /// Lines of keys this client does not know (kept for the log).
    pub unknown: Vec<String>,
}

impl GameSummary {
    /// The entering-king rule the server plays by: declarations are ours to make only when it
    /// names one we know.
    pub fn declares_jishogi(&self) -> bool {
        self.declaration.as_deref().map(str::trim) == Some("Jishogi 1.1")
    }
}

/// What is wrong with a summary.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SummaryError {
    #[error("summary line '{0}' is not 'Key:Value' or a BEGIN/END line")]
    BadLine(String),
    #[error("summary line '{line}': '{value}' is not a {what}")]
    BadValue {
        line: String,
        value: String,
        what: &'static str,
    },
    #[error("'{0}' does not close the open block")]
    Unbalanced(String),
    #[error("the summary has no {0}")]
    Missing(&'static str),
    #[error("the game id '{0}' is empty or holds spaces")]
    BadGameId(String),
    #[error("Format '{0}' is not 'Shogi 1.0', the only game this client plays")]
    Format(String),
    #[error("Protocol_Mode '{0}' is not 'Server'")]
    Mode(String),
}

/// Where the reader is inside the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Summary,
    /// `None` for a shared `BEGIN Time`, else the side of `BEGIN Time+`/`Time-`.
    Time(Option<Color>),
    Position,
    Done,
}

/// What one more line did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feed {
    More,
    /// `END Game_Summary` came: the summary, or the first problem found (and the game id, when
    /// one was read, to refuse the game by).
    Done(Box<Result<GameSummary, (Option<String>, SummaryError)>>),
}

/// Reads a summary from the line after `BEGIN Game_Summary` to `END Game_Summary`.
#[derive(Clone, Debug)]
pub struct SummaryReader {
    block: Block,
    error: Option<SummaryError>,
    fields: Fields,
}

#[derive(Clone, Debug, Default)]
struct Fields {
    protocol_version: Option<String>,
    protocol_mode: Option<String>,
    format: Option<String>,
    declaration: Option<String>,
    game_id: Option<String>,
    names: [Option<String>; 2],
    your_turn: Option<Color>,
    to_move: Option<Color>,
    rematch_on_draw: Option<String>,
    max_moves: Option<u32>,
    time: [TimeRule; 2],
    position: Option<Vec<String>>,
    unknown: Vec<String>,
}

impl Default for SummaryReader {
    fn default() -> SummaryReader {
        SummaryReader::new()
    }
}

impl SummaryReader {
    pub fn new() -> SummaryReader {
        SummaryReader {
            block: Block::Summary,
            error: None,
            fields: Fields::default(),
        }
    }

    /// The game id read so far.
    pub fn game_id(&self) -> Option<&str> {
        self.fields.game_id.as_deref()
    }

    pub fn feed(&mut self, raw: &str) -> Feed {
        let line = raw.trim_end_matches(['\r', '\n']);
        let result = match self.block {
            Block::Position => {
                self.position_line(line);
                Ok(())
            }
            Block::Done => Ok(()),
            _ => self.header_line(line.trim()),
        };
        if let Err(e) = result {
            self.error.get_or_insert(e);
        }
        if self.block == Block::Done {
            let fields = std::mem::take(&mut self.fields);
            let id = fields.game_id.clone();
            let outcome = match self.error.take() {
                Some(e) => Err((id, e)),
                None => fields.finish().map_err(|e| (id, e)),
            };
            return Feed::Done(Box::new(outcome));
        }
        Feed::More
    }

    fn position_line(&mut self, line: &str) {
        if line.trim() == "END Position" {
            self.block = Block::Summary;
        } else if line.trim() == "END Game_Summary" {
            // A block left open: end here rather than read the next game's lines as a position.
            self.error
                .get_or_insert(SummaryError::Unbalanced(line.to_string()));
            self.block = Block::Done;
        } else {
            self.fields
                .position
                .get_or_insert_with(Vec::new)
                .push(line.to_string());
        }
    }

    fn header_line(&mut self, line: &str) -> Result<(), SummaryError> {
        if line.is_empty() {
            return Ok(());
        }
        let in_time = matches!(self.block, Block::Time(_));
        match line {
            "END Game_Summary" => {
                let open = self.block != Block::Summary;
                self.block = Block::Done;
                return if open {
                    Err(SummaryError::Unbalanced(line.to_string()))
                } else {
                    Ok(())
                };
            }
            "BEGIN Time" | "BEGIN Time+" | "BEGIN Time-" | "BEGIN Position" if in_time => {
                return Err(SummaryError::Unbalanced(line.to_string()));
            }
            "BEGIN Time" => self.block = Block::Time(None),
            "BEGIN Time+" => self.block = Block::Time(Some(Color::Black)),
            "BEGIN Time-" => self.block = Block::Time(Some(Color::White)),
            "BEGIN Position" => {
                self.fields.position = Some(Vec::new());
                self.block = Block::Position;
            }
            "END Time" | "END Time+" | "END Time-" => {
                let expected = match self.block {
                    Block::Time(None) => "END Time",
                    Block::Time(Some(Color::Black)) => "END Time+",
                    Block::Time(Some(Color::White)) => "END Time-",
                    _ => "",
                };
                if line != expected {
                    return Err(SummaryError::Unbalanced(line.to_string()));
                }
                self.block = Block::Summary;
            }
            _ => {
                let (key, value) = line
                    .split_once(':')
                    .ok_or_else(|| SummaryError::BadLine(line.to_string()))?;
                match self.block {
                    Block::Time(side) => self.time_field(line, key, value.trim(), side)?,
                    _ => self.summary_field(line, key, value.trim())?,
                }
            }
        }
        Ok(())
    }

    fn summary_field(&mut self, line: &str, key: &str, value: &str) -> Result<(), SummaryError> {
        let f = &mut self.fields;
        let text = || Some(value.to_string());
        match key {
            "Protocol_Version" => f.protocol_version = text(),
            "Protocol_Mode" => f.protocol_mode = text(),
            "Format" => f.format = text(),
            "Declaration" => f.declaration = text(),
            "Game_ID" => f.game_id = text(),
            "Name+" => f.names[0] = text(),
            "Name-" => f.names[1] = text(),
            "Your_Turn" => f.your_turn = Some(parse_color(line, value)?),
            "To_Move" => f.to_move = Some(parse_color(line, value)?),
            "Rematch_On_Draw" => f.rematch_on_draw = text(),
            "Max_Moves" => f.max_moves = Some(parse_number(line, value)?),
            _ => f.unknown.push(line.to_string()),
        }
        Ok(())
    }

    fn time_field(
        &mut self,
        line: &str,
        key: &str,
        value: &str,
        side: Option<Color>,
    ) -> Result<(), SummaryError> {
        let sides: &[usize] = match side {
            None => &[0, 1],
            Some(Color::Black) => &[0],
            Some(Color::White) => &[1],
        };
        let mut set = |apply: &dyn Fn(&mut TimeRule)| {
            for &i in sides {
                apply(&mut self.fields.time[i]);
            }
        };
        match key {
            "Time_Unit" => {
                let ms = parse_unit(line, value)?;
                set(&|r| r.unit_ms = ms);
            }
            "Total_Time" => {
                let n = parse_number(line, value)?;
                set(&|r| r.total = n);
            }
            "Byoyomi" => {
                let n = parse_number(line, value)?;
                set(&|r| r.byoyomi = n);
            }
            "Increment" => {
                let n = parse_number(line, value)?;
                set(&|r| r.increment = n);
            }
            "Delay" => {
                let n = parse_number(line, value)?;
                set(&|r| r.delay = n);
            }
            "Least_Time_Per_Move" => {
                let n = parse_number(line, value)?;
                set(&|r| r.least_per_move = n);
            }
            "Time_Roundup" => {
                let up = match value {
                    "YES" => true,
                    "NO" => false,
                    _ => return Err(bad_value(line, value, "YES or NO")),
                };
                set(&|r| r.roundup = up);
            }
            // %%SHOW's extra lines (a game in progress), and anything newer: noted, not used.
            _ => self.fields.unknown.push(line.to_string()),
        }
        Ok(())
    }
}

impl Fields {
    fn finish(self) -> Result<GameSummary, SummaryError> {
        if let Some(mode) = self.protocol_mode.filter(|m| m != "Server") {
            return Err(SummaryError::Mode(mode));
        }
        if let Some(format) = self.format.filter(|f| f != "Shogi 1.0") {
            return Err(SummaryError::Format(format));
        }
        let game_id = self.game_id.ok_or(SummaryError::Missing("Game_ID"))?;
        if game_id.is_empty() || game_id.contains(char::is_whitespace) {
            return Err(SummaryError::BadGameId(game_id));
        }
        let your_turn = self.your_turn.ok_or(SummaryError::Missing("Your_Turn"))?;
        let position = self
            .position
            .ok_or(SummaryError::Missing("BEGIN Position block"))?;
        let [black, white] = self.names;
        Ok(GameSummary {
            protocol_version: self.protocol_version,
            declaration: self.declaration,
            game_id,
            names: [
                black.unwrap_or_else(|| "?".into()),
                white.unwrap_or_else(|| "?".into()),
            ],
            your_turn,
            to_move: self.to_move,
            rematch_on_draw: self.rematch_on_draw,
            max_moves: self.max_moves.filter(|&n| n > 0),
            time: self.time,
            position,
            unknown: self.unknown,
        })
    }
}

fn bad_value(line: &str, value: &str, what: &'static str) -> SummaryError {
    SummaryError::BadValue {
        line: line.to_string(),
        value: value.to_string(),
        what,
    }
}

fn parse_color(line: &str, value: &str) -> Result<Color, SummaryError> {
    match value {
        "+" => Ok(Color::Black),
        "-" => Ok(Color::White),
        _ => Err(bad_value(line, value, "side ('+' or '-')")),
    }
}

fn parse_number<T: std::str::FromStr>(line: &str, value: &str) -> Result<T, SummaryError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_value(line, value, "whole number"));
    }
    value
        .parse()
        .map_err(|_| bad_value(line, value, "whole number in range"))
}

/// `1sec`, `1min`, `1msec`, `10msec`... in milliseconds (a bare `sec` counts one).
fn parse_unit(line: &str, value: &str) -> Result<u64, SummaryError> {
    let what = "time unit (a count and sec, min or msec)";
    let (count, scale) = if let Some(n) = value.strip_suffix("msec") {
        (n, 1)
    } else if let Some(n) = value.strip_suffix("sec") {
        (n, 1000)
    } else if let Some(n) = value.strip_suffix("min") {
        (n, 60_000)
    } else {
        return Err(bad_value(line, value, what));
    };
    let count: u64 = if count.is_empty() {
        1
    } else {
        parse_number(line, count).map_err(|_| bad_value(line, value, what))?
    };
    if count == 0 {
        return Err(bad_value(line, value, what));
    }
    count
        .checked_mul(scale)
        .ok_or_else(|| bad_value(line, value, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What floodgate sends (shogi-server's `propose_message`), for Black.
    pub const FLOODGATE: &str = "\
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:wdoor+floodgate-300-10F+tokin+other+20261201120000
Name+:tokin
Name-:other
Your_Turn:+
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary";

    fn read(text: &str) -> Result<GameSummary, (Option<String>, SummaryError)> {
        let mut reader = SummaryReader::new();
        for line in text.lines() {
            if let Feed::Done(result) = reader.feed(line) {
                return *result;
            }
        }
        panic!("no END Game_Summary in {text}");
    }

    #[test]
    fn floodgates_summary() {
        let s = read(FLOODGATE).unwrap();
        assert_eq!(
            s.game_id,
            "wdoor+floodgate-300-10F+tokin+other+20261201120000"
        );
        assert_eq!(s.names, ["tokin".to_string(), "other".to_string()]);
        assert_eq!(s.your_turn, Color::Black);
        assert_eq!(s.to_move, Some(Color::Black));
        assert_eq!(s.max_moves, Some(256));
        assert!(s.declares_jishogi());
        let rule = TimeRule {
            unit_ms: 1000,
            total: 300,
            increment: 10,
            ..TimeRule::default()
        };
        assert_eq!(s.time, [rule, rule]);
        assert_eq!(s.position.len(), 10);
        // Board rows keep their trailing blanks.
        assert_eq!(s.position[1], "P2 * -HI *  *  *  *  * -KA * ");
        assert!(s.unknown.is_empty());
    }

    #[test]
    fn time_per_side_units_and_moves_played() {
        let text = "\
Game_ID:g2
Your_Turn:-
To_Move:-
Max_Moves:0
BEGIN Time+
Time_Unit:1min
Total_Time:15
Byoyomi:1
END Time+
BEGIN Time-
Time_Unit:500msec
Total_Time:6
Least_Time_Per_Move:1
Time_Roundup:YES
Delay:2
Remaining_Time-:3
END Time-
BEGIN Position
PI
+
+7776FU,T12
END Position
Future_Key:whatever
END Game_Summary";
        let s = read(text).unwrap();
        assert_eq!(s.max_moves, None);
        assert_eq!(
            s.time[0],
            TimeRule {
                unit_ms: 60_000,
                total: 15,
                byoyomi: 1,
                ..TimeRule::default()
            }
        );
        assert_eq!(
            s.time[1],
            TimeRule {
                unit_ms: 500,
                total: 6,
                least_per_move: 1,
                roundup: true,
                delay: 2,
                ..TimeRule::default()
            }
        );
        assert_eq!(s.position, ["PI", "+", "+7776FU,T12"]);
        assert_eq!(s.unknown, ["Remaining_Time-:3", "Future_Key:whatever"]);
        assert_eq!(s.names, ["?".to_string(), "?".to_string()]);
        assert!(!s.declares_jishogi());
    }

    #[test]
    fn bad_summaries_name_the_line_and_keep_the_game_id() {
        let with = |from: &str, to: &str| read(&FLOODGATE.replace(from, to)).unwrap_err();
        let id = Some("wdoor+floodgate-300-10F+tokin+other+20261201120000".to_string());
        assert_eq!(
            with("Time_Unit:1sec", "Time_Unit:1hour"),
            (
                id.clone(),
                SummaryError::BadValue {
                    line: "Time_Unit:1hour".into(),
                    value: "1hour".into(),
                    what: "time unit (a count and sec, min or msec)"
                }
            )
        );
        for (from, to) in [
            ("Time_Unit:1sec", "Time_Unit:0sec"),
            ("Total_Time:300", "Total_Time:-5"),
            ("Total_Time:300", "Total_Time:lots"),
            ("Total_Time:300", "Total_Time:99999999999999999999999"),
            ("Your_Turn:+", "Your_Turn:black"),
            ("Max_Moves:256", "Max_Moves:x"),
            ("Least_Time_Per_Move:0", "Time_Roundup:MAYBE"),
        ] {
            let (got_id, e) = with(from, to);
            assert_eq!(got_id, id, "{to}");
            assert!(matches!(e, SummaryError::BadValue { .. }), "{to}: {e:?}");
        }
        assert_eq!(
            with("Format:Shogi 1.0", "Format:Chess 1.0").1,
            SummaryError::Format("Chess 1.0".into())
        );
        assert_eq!(
            with("Protocol_Mode:Server", "Protocol_Mode:Direct").1,
            SummaryError::Mode("Direct".into())
        );
        assert_eq!(
            with("Your_Turn:+\n", "").1,
            SummaryError::Missing("Your_Turn")
        );
        assert_eq!(
            read(&FLOODGATE.replace(
                "Game_ID:wdoor+floodgate-300-10F+tokin+other+20261201120000\n",
                ""
            ))
            .unwrap_err(),
            (None, SummaryError::Missing("Game_ID"))
        );
        assert_eq!(
            with("Rematch_On_Draw:NO", "garbage").1,
            SummaryError::BadLine("garbage".into())
        );
        assert_eq!(
            with("END Time", "END Time+").1,
            SummaryError::Unbalanced("END Time+".into())
        );
        assert_eq!(
            with("END Time", "BEGIN Position").1,
            SummaryError::Unbalanced("BEGIN Position".into())
        );
        // An unclosed position block ends at END Game_Summary.
        assert_eq!(
            with("END Position\n", "").1,
            SummaryError::Unbalanced("END Game_Summary".into())
        );
        let no_position = FLOODGATE
            .split("BEGIN Position")
            .next()
            .unwrap()
            .to_string()
            + "END Game_Summary";
        assert_eq!(
            read(&no_position).unwrap_err().1,
            SummaryError::Missing("BEGIN Position block")
        );
        assert_eq!(
            with(
                "Game_ID:wdoor+floodgate-300-10F+tokin+other+20261201120000",
                "Game_ID:a b"
            )
            .1,
            SummaryError::BadGameId("a b".into())
        );
    }
}

//! One game as the server runs it: the position (with its history, for repetitions), every move
//! with the time the server charged, both clocks, and how the game ended. Moves enter only when the
//! server echoes them: the server is the referee, and its echo is the move having happened.

use super::clock::Clock;
use super::message::{EndReason, MoveLine, Verdict};
use super::summary::GameSummary;
use crate::core::csa::{self, CsaMoveError, CsaPositionError};
use crate::core::position::{EnteringKingRule, GameResult};
use crate::core::{Color, Move, Position};
use std::time::SystemTime;

/// One move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub csa: String,
    pub mv: Move,
    /// Units charged (none for moves the summary gave without a time).
    pub time: Option<u64>,
    /// Our floodgate comment, on our own moves.
    pub comment: Option<String>,
}

/// Why a summary cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("position block: {0}")]
    Position(#[from] CsaPositionError),
    #[error("position block: move {index} '{line}': {source}")]
    Move {
        index: usize,
        line: String,
        source: CsaMoveError,
    },
    #[error("position block: move line '{0}' is not a move with an optional ,T time")]
    MoveLine(String),
    #[error("To_Move says {to_move:?} but the position has {actual:?} to move")]
    ToMove { to_move: Color, actual: Color },
}

/// A problem with what the server sent during the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("server sent move '{line}' at ply {ply}: {source}")]
    Illegal {
        line: String,
        ply: usize,
        source: CsaMoveError,
    },
}

/// How a game ended, from the server's lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// `%TORYO` / `%KACHI` sent with the result, by the side to move.
    pub special: Option<String>,
    pub reasons: Vec<EndReason>,
    pub verdict: Option<Verdict>,
}

impl Ending {
    /// The game is over: a verdict came, or `#CHUDAN` (which has none).
    pub fn is_final(&self) -> bool {
        self.verdict.is_some() || self.reasons.contains(&EndReason::Chudan)
    }

    /// `#RESIGN #WIN`, as the server said it.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(s) = &self.special {
            parts.push(format!("%{s}"));
        }
        parts.extend(self.reasons.iter().map(EndReason::token));
        if let Some(v) = self.verdict {
            parts.push(v.token().to_string());
        }
        parts.join(" ")
    }
}

#[derive(Debug)]
pub struct Game {
    pub summary: GameSummary,
    pub us: Color,
    /// The position the block set up, before its moves.
    pub start: Position,
    pub pos: Position,
    pub plies: Vec<Ply>,
    /// How many of `plies` came with the summary.
    pub initial_plies: usize,
    pub clock: Clock,
    /// The entering-king rule the server plays by (`None` when it names none we know).
    pub declaration_rule: EnteringKingRule,
    /// Our move line sent and not yet echoed, with its comment.
    pub pending: Option<(String, Option<String>)>,
    pub ending: Ending,
    /// When `START` came, and when the game ended (for the record).
    pub started: Option<SystemTime>,
    pub ended: Option<SystemTime>,
    /// Disagreements between the server and the rules core, for the log and the record.
    pub warnings: Vec<String>,
}

impl Game {
    /// Sets the game up from a summary: the position, the moves already played (each charged to
    /// its side's clock), and checks `To_Move`.
    pub fn from_summary(summary: GameSummary) -> Result<Game, SetupError> {
        crate::core::attacks::init();
        // The block's moves follow its side-to-move line.
        let split = summary
            .position
            .iter()
            .position(|l| matches!(l.trim(), "+" | "-"))
            .map_or(summary.position.len(), |i| i + 1);
        let (board, moves) = summary.position.split_at(split);
        let start = csa::parse_position(board)?;
        let mut pos = start.clone();
        let mut clock = Clock::new(summary.time);
        let mut plies = Vec::new();
        for (i, raw) in moves.iter().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('\'') {
                continue;
            }
            let parsed = super::message::parse_move_line(line)
                .map_err(|_| SetupError::MoveLine(line.to_string()))?;
            let mv = csa::parse_move(&pos, &parsed.csa).map_err(|source| SetupError::Move {
                index: i + 1,
                line: line.to_string(),
                source,
            })?;
            if let Some(t) = parsed.time {
                clock.charge(pos.side_to_move(), t);
            }
            pos.do_move(mv);
            plies.push(Ply {
                csa: parsed.csa,
                mv,
                time: parsed.time,
                comment: None,
            });
        }
        clock.cap_at_total();
        if let Some(to_move) = summary.to_move {
            // Servers differ on whether To_Move is the side to move before or after the block's
            // moves (shogi-server: after); either is consistent.
            if to_move != pos.side_to_move() && to_move != start.side_to_move() {
                return Err(SetupError::ToMove {
                    to_move,
                    actual: pos.side_to_move(),
                });
            }
        }
        let declaration_rule = if summary.declares_jishogi() {
            EnteringKingRule::Csa27
        } else {
            EnteringKingRule::None
        };
        Ok(Game {
            us: summary.your_turn,
            initial_plies: plies.len(),
            summary,
            start,
            pos,
            plies,
            clock,
            declaration_rule,
            pending: None,
            ending: Ending::default(),
            started: None,
            ended: None,
            warnings: Vec::new(),
        })
    }

    pub fn our_turn(&self) -> bool {
        self.pos.side_to_move() == self.us
    }

    /// Plays a move the server echoed, charging its time. Returns the move.
    pub fn server_move(&mut self, line: &MoveLine) -> Result<Move, PlayError> {
        let mover = self.pos.side_to_move();
        let mv = csa::parse_move(&self.pos, &line.csa).map_err(|source| PlayError::Illegal {
            line: line.csa.clone(),
            ply: self.plies.len() + 1,
            source,
        })?;
        let mut comment = None;
        if mover == self.us {
            match self.pending.take() {
                Some((sent, c)) if sent == line.csa => comment = c,
                Some((sent, _)) => self.warnings.push(format!(
                    "we sent {sent} but the server played {} for us",
                    line.csa
                )),
                None => self.warnings.push(format!(
                    "the server played {} for us before we sent a move",
                    line.csa
                )),
            }
        }
        if let Some(t) = line.time {
            self.clock.charge(mover, t);
        }
        self.pos.do_move(mv);
        self.plies.push(Ply {
            csa: line.csa.clone(),
            mv,
            time: line.time,
            comment,
        });
        Ok(mv)
    }

    /// Our result, when the game is over.
    pub fn verdict(&self) -> Option<Verdict> {
        self.ending.verdict
    }

    /// Compares the server's result with what the rules core says of the final position; returns
    /// a line for each disagreement (also kept in `warnings`).
    pub fn check_ending(&mut self) -> Vec<String> {
        let mut found = Vec::new();
        let pos = &self.pos;
        let verdict = self.ending.verdict;
        let we_won = verdict == Some(Verdict::Win);
        for reason in &self.ending.reasons {
            match reason {
                EndReason::Sennichite if pos.sennichite() != Some(GameResult::Draw) => {
                    found.push(format!(
                        "the server called sennichite, but the rules core finds {:?} here",
                        pos.sennichite()
                    ));
                }
                EndReason::OuteSennichite => match pos.sennichite() {
                    Some(GameResult::Win(winner)) if (winner == self.us) == we_won => {}
                    other => found.push(format!(
                        "the server called sennichite by perpetual check ({}), the rules core \
                         finds {other:?}",
                        verdict.map_or("no verdict", Verdict::token)
                    )),
                },
                EndReason::Jishogi => {
                    // The declarer is the side to move; the server says whether it won.
                    let declarer_won = (pos.side_to_move() == self.us) == we_won;
                    let valid = pos.can_declare(EnteringKingRule::Csa27);
                    if valid != declarer_won {
                        found.push(format!(
                            "the declaration was {} by the server but {} by the 27-point rule",
                            if declarer_won { "accepted" } else { "refused" },
                            if valid { "valid" } else { "invalid" }
                        ));
                    }
                }
                EndReason::MaxMoves => {
                    let limit = self.summary.max_moves.unwrap_or(0) as usize;
                    if self.plies.len() != limit {
                        found.push(format!(
                            "the server called the move limit after {} plies; Max_Moves is {limit}",
                            self.plies.len()
                        ));
                    }
                }
                EndReason::IllegalMove if verdict == Some(Verdict::Lose) => {
                    found.push("the server ruled our move or declaration illegal".to_string());
                }
                EndReason::TimeUp if verdict == Some(Verdict::Lose) => {
                    found.push("we lost on time".to_string());
                }
                _ => {}
            }
        }
        self.warnings.extend(found.iter().cloned());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csa::clock::TimeRule;
    use crate::csa::message::parse_move_line;

    fn summary(position: &[&str], time: TimeRule, to_move: Option<Color>) -> GameSummary {
        GameSummary {
            protocol_version: Some("1.2".into()),
            declaration: Some("Jishogi 1.1".into()),
            game_id: "g".into(),
            names: ["b".into(), "w".into()],
            your_turn: Color::White,
            to_move,
            rematch_on_draw: None,
            max_moves: Some(256),
            time: [time; 2],
            position: position.iter().map(|s| s.to_string()).collect(),
            unknown: Vec::new(),
        }
    }

    const RULE: TimeRule = TimeRule {
        unit_ms: 1000,
        total: 600,
        byoyomi: 10,
        increment: 0,
        delay: 0,
        least_per_move: 0,
        roundup: false,
    };

    #[test]
    fn moves_in_the_summary_are_played_and_charged() {
        let s = summary(
            &["PI", "+", "+7776FU,T12", "-3334FU,T5", "+2726FU,T30"],
            RULE,
            Some(Color::White),
        );
        let g = Game::from_summary(s).unwrap();
        assert_eq!(g.initial_plies, 3);
        assert!(g.our_turn());
        assert_eq!(g.clock.remaining(Color::Black), 600 - 42);
        assert_eq!(g.clock.remaining(Color::White), 595);
        assert_eq!(
            g.pos.to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4"
        );
        // shogi-server says To_Move of the position after the moves; the side of the block's own
        // line is accepted too.
        let s = summary(&["PI", "+", "+7776FU"], RULE, Some(Color::Black));
        assert!(Game::from_summary(s).is_ok());
    }

    #[test]
    fn bad_blocks_are_refused_with_the_reason() {
        let bad = |lines: &[&str], to_move| {
            Game::from_summary(summary(lines, RULE, to_move))
                .err()
                .unwrap()
        };
        assert!(matches!(
            bad(&["PI", "+", "+7776FU,T1", "+3334FU,T1"], None),
            SetupError::Move { index: 2, .. }
        ));
        assert!(matches!(
            bad(&["PI", "+", "+7775FU"], None),
            SetupError::Move { index: 1, .. }
        ));
        assert!(matches!(
            bad(&["PI", "+", "+7776FU,X"], None),
            SetupError::MoveLine(_)
        ));
        assert!(matches!(bad(&["PI"], None), SetupError::Position(_)));
        // Two moves played: Black is to move both before and after; White is neither.
        assert_eq!(
            bad(&["PI", "+", "+7776FU", "-3334FU"], Some(Color::White)),
            SetupError::ToMove {
                to_move: Color::White,
                actual: Color::Black
            }
        );
    }

    #[test]
    fn echoes_advance_the_game_and_the_clock() {
        let mut g = Game::from_summary(summary(&["PI", "+"], RULE, None)).unwrap();
        assert!(!g.our_turn());
        g.server_move(&parse_move_line("+7776FU,T3").unwrap())
            .unwrap();
        assert!(g.our_turn());
        g.pending = Some(("-3334FU".into(), Some("* 10".into())));
        g.server_move(&parse_move_line("-3334FU,T4").unwrap())
            .unwrap();
        assert_eq!(g.plies[1].comment.as_deref(), Some("* 10"));
        assert_eq!(g.clock.remaining(Color::White), 596);
        assert!(g.warnings.is_empty());
        let err = g
            .server_move(&parse_move_line("+7776FU,T1").unwrap())
            .unwrap_err();
        assert!(matches!(err, PlayError::Illegal { ply: 3, .. }));
        // The illegal echo changed nothing.
        assert_eq!(g.plies.len(), 2);
    }

    #[test]
    fn the_servers_result_is_checked_against_the_rules() {
        let mut g = Game::from_summary(summary(&["PI", "+"], RULE, None)).unwrap();
        for m in ["+2838HI", "-8272HI", "+3828HI", "-7282HI"].repeat(3) {
            g.server_move(&parse_move_line(m).unwrap()).unwrap();
        }
        g.ending.reasons.push(EndReason::Sennichite);
        g.ending.verdict = Some(Verdict::Draw);
        assert!(g.check_ending().is_empty(), "{:?}", g.warnings);
        // One cycle short.
        let mut g = Game::from_summary(summary(&["PI", "+"], RULE, None)).unwrap();
        for m in ["+2838HI", "-8272HI", "+3828HI", "-7282HI"].repeat(2) {
            g.server_move(&parse_move_line(m).unwrap()).unwrap();
        }
        g.ending.reasons.push(EndReason::Sennichite);
        assert_eq!(g.check_ending().len(), 1);
    }
}

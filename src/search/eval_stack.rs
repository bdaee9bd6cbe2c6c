//! The evaluation's state along the search's line: one per ply, brought up to date only when the
//! position at that ply is evaluated or makes moves (cutoff leaves never are), from the nearest
//! ready ply up the line and the moves made since. For the hand-written evaluation the state is its
//! piece-square sums, for NNUE the accumulators.

use super::score::EVAL_MAX;
use crate::core::{Move, Position};
use crate::eval::Evaluator;

pub(crate) struct EvalStack<E: Evaluator> {
    eval: E,
    plies: Vec<Ply<E>>,
}

/// One ply's evaluation state, kept together so that a lookup is one bounds check.
struct Ply<E: Evaluator> {
    state: E::State,
    ready: bool,
    /// The delta of the move made at this ply; `None` for a null move or none yet.
    delta: Option<E::Delta>,
}

impl<E: Evaluator> EvalStack<E> {
    pub fn new(eval: E, plies: usize) -> EvalStack<E> {
        let plies = (0..plies)
            .map(|_| Ply {
                state: eval.blank_state(),
                ready: false,
                delta: None,
            })
            .collect();
        EvalStack { eval, plies }
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Replaces the evaluator by one of the same kind (states are recomputed from the next root).
    pub fn set_evaluator(&mut self, eval: E) {
        self.eval = eval;
        for p in &mut self.plies {
            p.ready = false;
        }
    }

    /// Starts a line at `root` (ply 0).
    pub fn set_root(&mut self, root: &Position) {
        for p in &mut self.plies {
            p.ready = false;
        }
        self.eval.compute(root, &mut self.plies[0].state);
        self.plies[0].ready = true;
    }

    /// `m` is about to be made at `ply` on `pos`.
    #[inline]
    pub fn make(&mut self, ply: usize, pos: &Position, m: Move) {
        let delta = self.eval.delta(pos, m);
        let [now, next] = &mut self.plies[ply..ply + 2] else {
            unreachable!("two plies")
        };
        now.delta = Some(delta);
        next.ready = false;
    }

    /// A null move is about to be made at `ply`.
    #[inline]
    pub fn make_null(&mut self, ply: usize) {
        let [now, next] = &mut self.plies[ply..ply + 2] else {
            unreachable!("two plies")
        };
        now.delta = None;
        next.ready = false;
    }

    /// Brings the state of `ply` (whose position is `pos`) up to date. A node calls this when it
    /// evaluates and before its move loop, so a child finds its parent's state ready and updates it
    /// by one move (two past a null move). (Updating in `make` instead, for every child, cost more
    /// on the bench; calling this from `make` cost more instruction-cache misses.)
    #[inline]
    pub fn ready(&mut self, ply: usize, pos: &Position) {
        let (done, rest) = self.plies.split_at_mut(ply);
        let Some(now) = rest.first_mut() else {
            return;
        };
        if now.ready {
            return;
        }
        // The root's state is always ready; the search never leaves ply 0 without it.
        match done.iter().rposition(|p| p.ready) {
            Some(k) => {
                let deltas = done[k..].iter().filter_map(|p| p.delta);
                self.eval
                    .update(&done[k].state, pos, deltas, &mut now.state);
            }
            None => self.eval.compute(pos, &mut now.state),
        }
        now.ready = true;
    }

    /// The static evaluation of `pos`, the position at `ply`, clamped clear of the mate range.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        self.ready(ply, pos);
        self.eval
            .evaluate(pos, &self.plies[ply].state)
            .clamp(-EVAL_MAX, EVAL_MAX)
    }
}

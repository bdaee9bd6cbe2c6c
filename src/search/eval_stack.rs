//! The evaluation's state along the search's line: one per ply, brought up to date only when the
//! position at that ply is evaluated or makes moves (cutoff leaves never are), from the nearest
//! ready ply up the line and the moves made since. For the hand-written evaluation the state is its
//! piece-square sums, for NNUE the accumulators.

use super::score::EVAL_MAX;
use crate::core::{Move, Position};
use crate::eval::Evaluator;

pub(crate) struct EvalStack<E: Evaluator> {
    eval: E,
    states: Vec<E::State>,
    ready: Vec<bool>,
    /// The delta of the move made at each ply; `None` for a null move or none yet.
    deltas: Vec<Option<E::Delta>>,
}

impl<E: Evaluator> EvalStack<E> {
    pub fn new(eval: E, plies: usize) -> EvalStack<E> {
        EvalStack {
            states: vec![eval.blank_state(); plies],
            ready: vec![false; plies],
            deltas: vec![None; plies],
            eval,
        }
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Replaces the evaluator by one of the same kind (states are recomputed from the next root).
    pub fn set_evaluator(&mut self, eval: E) {
        self.eval = eval;
        self.ready.fill(false);
    }

    /// Starts a line at `root` (ply 0).
    pub fn set_root(&mut self, root: &Position) {
        self.eval.compute(root, &mut self.states[0]);
        self.ready.fill(false);
        self.ready[0] = true;
    }

    /// `m` is about to be made at `ply` on `pos`.
    #[inline]
    pub fn make(&mut self, ply: usize, pos: &Position, m: Move) {
        self.deltas[ply] = Some(self.eval.delta(pos, m));
        self.ready[ply + 1] = false;
    }

    /// A null move is about to be made at `ply`.
    #[inline]
    pub fn make_null(&mut self, ply: usize) {
        self.deltas[ply] = None;
        self.ready[ply + 1] = false;
    }

    /// Brings the state of `ply` (whose position is `pos`) up to date. A node calls this when it
    /// evaluates and before its move loop, so a child finds its parent's state ready and updates it
    /// by one move (two past a null move). (Updating in `make` instead, for every child, cost more
    /// on the bench; calling this from `make` cost more instruction-cache misses.)
    #[inline]
    pub fn ready(&mut self, ply: usize, pos: &Position) {
        if self.ready[ply] {
            return;
        }
        // The root's state is always ready; the search never leaves ply 0 without it.
        match (0..ply).rev().find(|&k| self.ready[k]) {
            Some(k) => {
                let (done, rest) = self.states.split_at_mut(ply);
                let deltas = self.deltas[k..ply].iter().filter_map(|d| *d);
                self.eval.update(&done[k], pos, deltas, &mut rest[0]);
            }
            None => self.eval.compute(pos, &mut self.states[ply]),
        }
        self.ready[ply] = true;
    }

    /// The static evaluation of `pos`, the position at `ply`, clamped clear of the mate range.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        self.ready(ply, pos);
        self.eval
            .evaluate(pos, &self.states[ply])
            .clamp(-EVAL_MAX, EVAL_MAX)
    }
}

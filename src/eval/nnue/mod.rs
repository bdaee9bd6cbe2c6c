//! NNUE evaluation that reads the network files shogi players own: YaneuraOu's "standard NNUE"
//! layout, HalfKP(Friend) 256x2-32-32 (`nn.bin`, 64,217,066 bytes: the Suisho, tanuki- and Hao
//! families), giving the same numbers as YaneuraOu on every position.
//!
//! - [`features`]: which inputs a position turns on, and which a move changes;
//! - [`architecture`]: layer sizes and the hash words, sizes and description they imply;
//! - [`builtin`]: the network built into the binary;
//! - [`file`]: reading and writing the file, with a clear error for every way it can be wrong;
//! - [`network`]: the weights in memory, the accumulator and the forward pass;
//! - [`simd`]: the instruction sets, chosen once at load time.
//!
//! [`Nnue`] is the evaluation the search runs: per ply it keeps both perspectives' accumulators,
//! brought up to date lazily from the features a move changed (a perspective whose king moved is
//! recomputed), and evaluates as YaneuraOu does: the network's output divided by `FV_SCALE`,
//! truncated toward zero.

pub mod architecture;
pub mod builtin;
pub mod features;
pub mod file;
pub mod network;
pub mod simd;

#[cfg(test)]
mod tests;

pub use architecture::Architecture;
pub use file::{LoadError, NetworkError, RawNetwork};
pub use network::{Accumulator, Network, ShapeError};

use super::{Evaluator, HandWritten, EVAL_MAX};
use crate::core::position::Position;
use crate::core::stack_vec::StackVec;
use crate::core::{Color, Move};
use features::FeatureDelta;
use std::path::Path;
use std::sync::Arc;

/// `FV_SCALE`'s default (YaneuraOu's; some networks, Suisho 5 for one, play best at 24).
pub const DEFAULT_FV_SCALE: i32 = 16;

/// Hidden layers shift their sums right by this many bits before clipping (`kWeightScaleBits`).
pub const WEIGHT_SCALE_BITS: u32 = 6;

/// The file name YaneuraOu looks for in `EvalDir`.
pub const FILE_NAME: &str = "nn.bin";

/// The standard shape.
pub type StandardNetwork = Network<256, 32, 32>;

/// Every shape this build evaluates, listed once: the enum of loaded networks, the list of
/// supported architectures and the dispatch to code compiled for each shape (the search is
/// compiled once per shape) all come from this list.
macro_rules! shapes {
    ($($name:ident: $l1:literal x $l2:literal x $l3:literal, $what:literal;)*) => {
        /// A network of any shape this build evaluates.
        #[derive(Clone)]
        pub enum AnyNetwork {
            $(#[doc = $what] $name(Arc<Network<$l1, $l2, $l3>>),)*
        }

        /// Every shape this build reads.
        pub const SUPPORTED: &[Architecture] = &[$(Network::<$l1, $l2, $l3>::ARCHITECTURE),*];

        impl AnyNetwork {
            /// The network in `raw`, using instruction set `isa` (or the portable one where
            /// the CPU lacks it).
            pub fn from_raw_with(raw: RawNetwork, isa: simd::Isa) -> Result<AnyNetwork, ShapeError> {
                $(if raw.architecture == Network::<$l1, $l2, $l3>::ARCHITECTURE {
                    return Ok(AnyNetwork::$name(Arc::new(Network::from_raw_with(raw, isa)?)));
                })*
                Err(ShapeError::Unsupported(raw.architecture))
            }

            /// Runs `visitor` on the network with its shape as constants.
            pub fn visit<V: NetworkVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(AnyNetwork::$name(n) => visitor.visit(Arc::clone(n)),)*
                }
            }

            /// The instruction set the network runs on.
            pub fn isa(&self) -> simd::Isa {
                match self {
                    $(AnyNetwork::$name(n) => n.isa(),)*
                }
            }

            /// Whether the evaluation is the hand-written one plus this network's (`Residual`).
            pub fn residual(&self) -> bool {
                match self {
                    $(AnyNetwork::$name(n) => n.residual(),)*
                }
            }

            /// Whether both are the same loaded network (not merely equal weights).
            pub fn same(&self, other: &AnyNetwork) -> bool {
                match (self, other) {
                    $((AnyNetwork::$name(a), AnyNetwork::$name(b)) => Arc::ptr_eq(a, b),)*
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }
        }
    };
}

shapes! {
    Standard: 256 x 32 x 32, "HalfKP 256x2-32-32, the standard nn.bin of the field.";
    Small: 64 x 32 x 32, "HalfKP 64x2-32-32: Tokin's own built-in size (16 MB).";
}

/// Code generic over a network's shape, run by [`AnyNetwork::visit`].
pub trait NetworkVisitor {
    type Output;
    fn visit<const L1: usize, const L2: usize, const L3: usize>(
        self,
        network: Arc<Network<L1, L2, L3>>,
    ) -> Self::Output;
}

impl AnyNetwork {
    /// The network in `raw`, on the best instruction set of this CPU.
    pub fn from_raw(raw: RawNetwork) -> Result<AnyNetwork, ShapeError> {
        Self::from_raw_with(raw, simd::Isa::detect())
    }

    /// Loads the file at `path`; the warnings (hash mismatches) go with it.
    pub fn load(path: &Path) -> Result<(AnyNetwork, Vec<String>), LoadError> {
        let loaded = RawNetwork::load(path, SUPPORTED)?;
        let network = AnyNetwork::from_raw(loaded.raw).map_err(|e| LoadError {
            path: path.to_path_buf(),
            error: NetworkError::Shape(e),
        })?;
        Ok((network, loaded.warnings))
    }

    pub fn architecture(&self) -> Architecture {
        struct Shape;
        impl NetworkVisitor for Shape {
            type Output = Architecture;
            fn visit<const L1: usize, const L2: usize, const L3: usize>(
                self,
                _: Arc<Network<L1, L2, L3>>,
            ) -> Architecture {
                Network::<L1, L2, L3>::ARCHITECTURE
            }
        }
        self.visit(Shape)
    }

    /// YaneuraOu's evaluation of `pos` (side to move's view): the output divided by `fv_scale`,
    /// truncated toward zero, not clamped (for a residual network, plus the hand-written
    /// evaluation). `None` when a king is missing.
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Option<i32> {
        struct Evaluate<'a>(&'a Position, i32);
        impl NetworkVisitor for Evaluate<'_> {
            type Output = Option<i32>;
            fn visit<const L1: usize, const L2: usize, const L3: usize>(
                self,
                n: Arc<Network<L1, L2, L3>>,
            ) -> Option<i32> {
                let residual = n.residual();
                let own = Nnue::new(n, self.1).evaluate_unclamped(self.0)?;
                Some(
                    own + if residual {
                        HandWritten.evaluate_fresh(self.0)
                    } else {
                        0
                    },
                )
            }
        }
        self.visit(Evaluate(pos, fv_scale))
    }
}

/// The network as the search's evaluation.
pub struct Nnue<const L1: usize, const L2: usize, const L3: usize> {
    network: Arc<Network<L1, L2, L3>>,
    fv_scale: i32,
}

impl<const L1: usize, const L2: usize, const L3: usize> Clone for Nnue<L1, L2, L3> {
    fn clone(&self) -> Self {
        Nnue {
            network: Arc::clone(&self.network),
            fv_scale: self.fv_scale,
        }
    }
}

/// Changed features one lazy update applies at most before a refresh is cheaper (and fits).
const MAX_CHANGES: usize = 16;

impl<const L1: usize, const L2: usize, const L3: usize> Nnue<L1, L2, L3> {
    pub fn new(network: Arc<Network<L1, L2, L3>>, fv_scale: i32) -> Self {
        Nnue {
            network,
            fv_scale: fv_scale.max(1),
        }
    }

    /// Both perspectives' accumulators of `pos`, from scratch (a perspective without a king is left
    /// as it was: such a position is not evaluated by the network).
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator<L1>) {
        for p in Color::ALL {
            if let Some(king) = features::king_bucket(pos, p) {
                self.network
                    .refresh(pos, p, king, &mut acc.values[p.index()]);
            }
        }
    }

    /// The accumulators of `pos`, reached from the position of `before` by moves with `deltas`.
    pub fn update(
        &self,
        before: &Accumulator<L1>,
        pos: &Position,
        deltas: impl Iterator<Item = FeatureDelta> + Clone,
        after: &mut Accumulator<L1>,
    ) {
        for p in Color::ALL {
            let Some(king) = features::king_bucket(pos, p) else {
                continue;
            };
            let out = &mut after.values[p.index()];
            let mut removed = StackVec::<u32, MAX_CHANGES>::new();
            let mut added = StackVec::<u32, MAX_CHANGES>::new();
            let mut incremental = true;
            for d in deltas.clone() {
                let changes = d.changes(p);
                if d.king_moved() == Some(p) || removed.len() + changes.len() > MAX_CHANGES {
                    incremental = false;
                    break;
                }
                for &(old, new) in changes {
                    removed.push(features::index(king, u32::from(old)));
                    added.push(features::index(king, u32::from(new)));
                }
            }
            if incremental {
                self.network.update(
                    &before.values[p.index()],
                    out,
                    removed.as_slice(),
                    added.as_slice(),
                );
                #[cfg(debug_assertions)]
                {
                    let mut fresh = network::Half::ZERO;
                    self.network.refresh(pos, p, king, &mut fresh);
                    assert!(
                        *out == fresh,
                        "incremental accumulator differs from a refresh in {}",
                        pos.to_sfen()
                    );
                }
            } else {
                self.network.refresh(pos, p, king, out);
            }
        }
    }

    /// The evaluation of `pos` given its accumulators, unclamped; `None` without both kings.
    #[inline]
    pub fn evaluate_with(&self, pos: &Position, acc: &Accumulator<L1>) -> Option<i32> {
        if pos.king_square(Color::Black).is_none() || pos.king_square(Color::White).is_none() {
            return None;
        }
        Some(self.network.propagate(acc, pos.side_to_move()) / self.fv_scale)
    }

    /// The evaluation of `pos` from scratch, unclamped.
    pub fn evaluate_unclamped(&self, pos: &Position) -> Option<i32> {
        let mut acc = Box::new(Accumulator::ZERO);
        self.refresh(pos, &mut acc);
        self.evaluate_with(pos, &acc)
    }

    pub fn network(&self) -> &Network<L1, L2, L3> {
        &self.network
    }
}

impl<const L1: usize, const L2: usize, const L3: usize> Evaluator for Nnue<L1, L2, L3> {
    type State = Accumulator<L1>;
    type Delta = FeatureDelta;

    #[inline]
    fn blank_state(&self) -> Accumulator<L1> {
        Accumulator::ZERO
    }

    #[inline]
    fn delta(&self, pos: &Position, m: Move) -> FeatureDelta {
        FeatureDelta::new(pos, m)
    }

    #[inline]
    fn compute(&self, pos: &Position, state: &mut Accumulator<L1>) {
        self.refresh(pos, state);
    }

    #[inline]
    fn update(
        &self,
        before: &Accumulator<L1>,
        pos: &Position,
        deltas: impl Iterator<Item = FeatureDelta> + Clone,
        after: &mut Accumulator<L1>,
    ) {
        Nnue::update(self, before, pos, deltas, after);
    }

    /// A position without both kings (a mate problem set up without one) falls back to the
    /// hand-written evaluation: the network's features are relative to the kings.
    #[inline]
    fn evaluate(&self, pos: &Position, state: &Accumulator<L1>) -> i32 {
        match self.evaluate_with(pos, state) {
            Some(score) => score.clamp(-EVAL_MAX, EVAL_MAX),
            None => HandWritten.evaluate_fresh(pos),
        }
    }
}

/// A residual network as the search's evaluation: the hand-written evaluation plus the network's
/// correction, each kept up to date along the line as it would be alone.
pub struct Residual<const L1: usize, const L2: usize, const L3: usize> {
    nnue: Nnue<L1, L2, L3>,
}

impl<const L1: usize, const L2: usize, const L3: usize> Clone for Residual<L1, L2, L3> {
    fn clone(&self) -> Self {
        Residual {
            nnue: self.nnue.clone(),
        }
    }
}

impl<const L1: usize, const L2: usize, const L3: usize> Residual<L1, L2, L3> {
    pub fn new(nnue: Nnue<L1, L2, L3>) -> Self {
        Residual { nnue }
    }
}

impl<const L1: usize, const L2: usize, const L3: usize> Evaluator for Residual<L1, L2, L3> {
    type State = (<HandWritten as Evaluator>::State, Accumulator<L1>);
    type Delta = (<HandWritten as Evaluator>::Delta, FeatureDelta);

    #[inline]
    fn blank_state(&self) -> Self::State {
        (HandWritten.blank_state(), Accumulator::ZERO)
    }

    #[inline]
    fn delta(&self, pos: &Position, m: Move) -> Self::Delta {
        (HandWritten.delta(pos, m), FeatureDelta::new(pos, m))
    }

    #[inline]
    fn compute(&self, pos: &Position, state: &mut Self::State) {
        HandWritten.compute(pos, &mut state.0);
        self.nnue.refresh(pos, &mut state.1);
    }

    #[inline]
    fn update(
        &self,
        before: &Self::State,
        pos: &Position,
        deltas: impl Iterator<Item = Self::Delta> + Clone,
        after: &mut Self::State,
    ) {
        HandWritten.update(&before.0, pos, deltas.clone().map(|d| d.0), &mut after.0);
        self.nnue
            .update(&before.1, pos, deltas.map(|d| d.1), &mut after.1);
    }

    /// Without both kings the network says nothing: the hand-written evaluation alone.
    #[inline]
    fn evaluate(&self, pos: &Position, state: &Self::State) -> i32 {
        let hand = HandWritten.evaluate(pos, &state.0);
        match self.nnue.evaluate_with(pos, &state.1) {
            Some(correction) => (hand + correction).clamp(-EVAL_MAX, EVAL_MAX),
            None => hand,
        }
    }
}

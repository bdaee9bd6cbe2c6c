//! The trainer end to end on small networks: it learns (loss falls, on held-out samples too), its
//! quantised network evaluates as the float model does, and a run resumed from a checkpoint is
//! the run that was not interrupted.

use super::*;
use crate::core::movegen::legal_moves;
use crate::core::{Position, Variant};
use crate::eval::nnue::{Accumulator, Architecture, Network, Nnue};
use crate::eval::{Evaluator, HandWritten};
use crate::rng::Rng;
use std::sync::Arc;

const TINY: Architecture = Architecture {
    l1: 64,
    l2: 8,
    l3: 8,
};

/// Positions of random play, each labelled with the hand-written evaluation as its score.
fn samples(seed: u64, count: usize) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos(Variant::Shogi);
        let plies = 10 + rng.below(80);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let list = moves.as_slice();
            pos.do_move(list[rng.below(list.len())]);
        }
        if legal_moves(&pos).is_empty() {
            continue;
        }
        let score = HandWritten.evaluate_fresh(&pos).clamp(-3000, 3000) as i16;
        let result = if score > 300 {
            1
        } else if score < -300 {
            -1
        } else {
            0
        };
        out.extend(Sample::new(&pos, score, result));
    }
    out
}

fn config(threads: usize) -> TrainConfig {
    TrainConfig {
        batch_size: 256,
        learning_rate: 3e-3,
        lr_decay: 0.95,
        lambda: 1.0,
        scale: 600.0,
        threads,
        seed: 5,
        mirror: true,
    }
}

#[test]
fn training_lowers_the_loss_on_held_out_samples() {
    let train = samples(1, 3000);
    let held_out = samples(2, 500);
    let mut t = Trainer::new(TINY, config(2)).unwrap();
    let before = (t.loss(&train), t.loss(&held_out));
    for _ in 0..8 {
        t.train_epoch(&train, &mut |_| {});
    }
    let after = (t.loss(&train), t.loss(&held_out));
    assert!(
        after.0 < before.0 - 0.02,
        "training loss {before:?} -> {after:?}"
    );
    assert!(
        after.1 < before.1 - 0.01,
        "held-out loss {before:?} -> {after:?}"
    );
}

/// The quantised network, run by the engine's integer code, gives the float model's evaluation
/// up to rounding.
#[test]
fn the_quantised_network_evaluates_as_the_float_model() {
    let train = samples(3, 1500);
    let mut t = Trainer::new(TINY, config(1)).unwrap();
    for _ in 0..3 {
        t.train_epoch(&train, &mut |_| {});
    }
    let (raw, clamped) = t.model.quantize().unwrap();
    assert_eq!(clamped, 0);
    let nnue = Nnue::new(Arc::new(Network::<64, 8, 8>::from_raw(raw).unwrap()), 16);
    let mut act = model::Activations::new(TINY);
    let mut rng = Rng::new(9);
    let (mut total, mut n, mut spread) = (0.0f64, 0, 0.0f64);
    for _ in 0..300 {
        let mut pos = Position::startpos(Variant::Shogi);
        for _ in 0..rng.below(100) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves.as_slice()[rng.below(moves.len())]);
        }
        let Some(sample) = Sample::new(&pos, 0, 0) else {
            continue;
        };
        t.model.forward(&sample, &mut act);
        let float_eval = f64::from(act.out * model::EVAL_SCALE);
        let mut acc = Accumulator::ZERO;
        nnue.refresh(&pos, &mut acc);
        let int_eval = f64::from(nnue.evaluate_with(&pos, &acc).unwrap());
        total += (float_eval - int_eval).abs();
        spread += float_eval.abs();
        n += 1;
    }
    let (mean_error, mean_size) = (total / n as f64, spread / n as f64);
    assert!(mean_size > 20.0, "a model that says something: {mean_size}");
    assert!(
        mean_error < 8.0,
        "mean |float - int| {mean_error} (evals ~{mean_size})"
    );
}

#[test]
fn a_resumed_run_is_the_uninterrupted_run() {
    let train = samples(4, 800);
    let dir = std::env::temp_dir().join(format!("tokin-learn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    let mut straight = Trainer::new(TINY, config(2)).unwrap();
    straight.train_epoch(&train, &mut |_| {});
    straight.save(&path).unwrap();
    straight.train_epoch(&train, &mut |_| {});
    let mut resumed = Trainer::resume(&path, config(2)).unwrap();
    assert_eq!(resumed.epoch, 1);
    resumed.train_epoch(&train, &mut |_| {});
    assert_eq!(resumed.step, straight.step);
    assert_eq!(resumed.model.w1, straight.model.w1);
    assert_eq!(resumed.model.factor, straight.model.factor);
    assert!(resumed.model.ft[..] == straight.model.ft[..]);
    // A damaged checkpoint is refused with a reason.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let err = Trainer::resume(&path, config(2)).err().unwrap().to_string();
    assert!(err.contains("run.ckpt"), "{err}");
    std::fs::write(&path, b"not a checkpoint").unwrap();
    let err = Trainer::resume(&path, config(2)).err().unwrap().to_string();
    assert!(err.contains("not a Tokin training checkpoint"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

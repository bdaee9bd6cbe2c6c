//! The trainer end to end on small networks: it learns (loss falls, on held-out samples too), its
//! quantised network evaluates as the float model does, and a run resumed from a checkpoint is
//! the run that was not interrupted.

use super::*;
use crate::core::movegen::legal_moves;
use crate::core::{Position, Variant};
use crate::eval::nnue::{Architecture, Network, Nnue, RawNetwork};
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
        out.extend(Sample::new(&pos, score, result).map(|mut s| {
            s.hand_written = HandWritten.evaluate_fresh(&pos).clamp(-32000, 32000) as i16;
            s
        }));
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
        ft_decay: 0.0,
        king_relative: true,
        residual: false,
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

/// --ft-decay shrinks the king-specific rows a batch uses (and only the transformer's): the same
/// run with decay ends with smaller such rows and the same-sized dense layers' update rule.
#[test]
fn ft_decay_shrinks_the_king_specific_rows() {
    let train = samples(1, 1000);
    let mut plain = Trainer::new(TINY, config(1)).unwrap();
    let mut decayed = Trainer::new(
        TINY,
        TrainConfig {
            ft_decay: 100.0,
            ..config(1)
        },
    )
    .unwrap();
    let start: Vec<f32> = plain.model.ft.iter().copied().collect();
    for _ in 0..2 {
        plain.train_epoch(&train, &mut |_| {});
        decayed.train_epoch(&train, &mut |_| {});
    }
    // The squared norm of the rows the data used (those training moved).
    let l1 = TINY.l1;
    let used: Vec<usize> = (0..start.len() / l1)
        .filter(|&r| plain.model.ft[r * l1..(r + 1) * l1] != start[r * l1..(r + 1) * l1])
        .collect();
    assert!(used.len() > 100, "{} rows used", used.len());
    let norm = |t: &Trainer| -> f64 {
        used.iter()
            .flat_map(|&r| &t.model.ft[r * l1..(r + 1) * l1])
            .map(|&w| f64::from(w * w))
            .sum()
    };
    assert!(
        norm(&decayed) < 0.5 * norm(&plain),
        "rows used: {} without decay, {} with",
        norm(&plain),
        norm(&decayed)
    );
    // The factoriser is not decayed: it carries what every king square shares.
    let factor_norm = |t: &Trainer| {
        t.model
            .factor
            .iter()
            .map(|&w| f64::from(w * w))
            .sum::<f64>()
    };
    assert!(factor_norm(&decayed) > 0.5 * factor_norm(&plain));
}

/// The mean |float - integer| evaluation of `model` and the network `raw` as the engine runs it
/// (for a residual network, both with the hand-written evaluation added), over positions of random
/// play, and the mean |network output|.
fn float_against_integer(model: &Model, raw: RawNetwork) -> (f64, f64) {
    let residual = raw.residual;
    let nnue = Nnue::new(Arc::new(Network::<64, 8, 8>::from_raw(raw).unwrap()), 16);
    let engine = crate::eval::nnue::Residual::new(nnue.clone());
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
        let Some(mut sample) = Sample::new(&pos, 0, 0) else {
            continue;
        };
        sample.hand_written = HandWritten.evaluate_fresh(&pos) as i16;
        model.forward(&sample, &mut act);
        let output = act.out * model::EVAL_SCALE;
        let float_eval = f64::from(sample.evaluation(output, model.residual));
        let int_eval = f64::from(if residual {
            engine.evaluate_fresh(&pos)
        } else {
            nnue.evaluate_unclamped(&pos).unwrap()
        });
        total += (float_eval - int_eval).abs();
        spread += f64::from(output.abs());
        n += 1;
    }
    (total / n as f64, spread / n as f64)
}

/// HalfRelativeKP: a piece and its king moved together share a row, another offset or another
/// piece is another row, every row is reached and in range, and pieces in hand have none.
#[test]
fn relative_rows_follow_the_offset_from_the_king() {
    use crate::eval::nnue::features::{FE_END, FE_HAND_END};
    use model::{relative_row, RELATIVE_ROWS};
    let square = |file: usize, rank: usize| file * 9 + rank;
    let board = |table: usize, sq: usize| FE_HAND_END as usize + table * 81 + sq;
    let gold = 8; // the friend gold's table
    let in_front = |king_file, piece_rank| {
        relative_row(
            square(king_file, 8),
            board(gold, square(king_file, piece_rank)),
        )
    };
    assert_eq!(in_front(4, 7), in_front(0, 7));
    assert_ne!(in_front(4, 7), in_front(4, 6));
    assert_ne!(
        relative_row(square(4, 8), board(gold, square(3, 7))),
        relative_row(square(4, 8), board(gold, square(5, 7))),
        "left and right of the king"
    );
    assert_ne!(
        relative_row(square(4, 8), board(gold, square(4, 7))),
        relative_row(square(4, 8), board(gold + 1, square(4, 7))),
        "a friend and an enemy gold"
    );
    let mut reached = vec![false; RELATIVE_ROWS];
    for king in 0..81 {
        let mut rows = std::collections::HashSet::new();
        for bona in 0..FE_END as usize {
            match relative_row(king, bona) {
                None => assert!(bona < FE_HAND_END as usize, "{bona}"),
                Some(r) => {
                    assert!(r < RELATIVE_ROWS);
                    assert!(rows.insert(r), "king {king}: two pieces on row {r}");
                    reached[r] = true;
                }
            }
        }
    }
    assert!(reached.iter().all(|&r| r), "an unreachable row");
}

/// The HalfRelativeKP and HalfK rows fold into the file's rows: with large random values in them
/// the engine's integer network still evaluates as the float model, and without them (a model
/// trained with P alone) they are left out of both.
#[test]
fn the_factorisers_fold_into_the_network_file() {
    let train = samples(7, 800);
    let mut t = Trainer::new(TINY, config(1)).unwrap();
    t.train_epoch(&train, &mut |_| {});
    let mut rng = Rng::new(11);
    for w in t.model.relative.iter_mut().chain(t.model.king.iter_mut()) {
        *w = ((rng.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.3;
    }
    let (with, clamped) = t.model.quantize().unwrap();
    assert_eq!(clamped, 0);
    let (error, size) = float_against_integer(&t.model, with);
    assert!(size > 20.0, "a model that says something: {size}");
    assert!(error < 8.0, "mean |float - int| {error} (evals ~{size})");
    t.model.king_relative = false;
    let (without, _) = t.model.quantize().unwrap();
    let (error_without, _) = float_against_integer(&t.model, without);
    assert!(error_without < 8.0, "mean |float - int| {error_without}");
    // The folded rows are what made the difference: the file without them is not the model with.
    let (without, _) = t.model.quantize().unwrap();
    t.model.king_relative = true;
    let (mismatch, _) = float_against_integer(&t.model, without);
    assert!(
        mismatch > 4.0 * error.max(1.0),
        "{mismatch} against {error}"
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
    let (mean_error, mean_size) = float_against_integer(&t.model, raw);
    assert!(mean_size > 20.0, "a model that says something: {mean_size}");
    assert!(
        mean_error < 8.0,
        "mean |float - int| {mean_error} (evals ~{mean_size})"
    );
}

fn same_network(a: &RawNetwork, b: &RawNetwork) -> bool {
    a.architecture == b.architecture
        && a.transformer_biases == b.transformer_biases
        && a.transformer_weights[..] == b.transformer_weights[..]
        && a.hidden1_biases == b.hidden1_biases
        && a.hidden1_weights == b.hidden1_weights
        && a.hidden2_biases == b.hidden2_biases
        && a.hidden2_weights == b.hidden2_weights
        && a.output_bias == b.output_bias
        && a.output_weights == b.output_weights
}

/// A network file read back into a float model (`--init`) is the same network: it quantises to
/// the same integers, evaluates as the engine does, trains on from there, and a file made for
/// another FV_SCALE is rescaled into the units of the files the trainer writes.
#[test]
fn a_network_file_becomes_the_float_model_it_came_from() {
    let train = samples(6, 1200);
    let mut t = Trainer::new(TINY, config(1)).unwrap();
    t.train_epoch(&train, &mut |_| {});
    let (raw, _) = t.model.quantize().unwrap();
    let (model, out_of_range) = Model::from_raw(&raw, 16).unwrap();
    assert_eq!(out_of_range, 0);
    assert_eq!(model.factor.iter().filter(|&&f| f != 0.0).count(), 0);
    let (again, clamped) = model.quantize().unwrap();
    assert_eq!(clamped, 0);
    assert!(same_network(&raw, &again), "read back and written again");
    let (mean_error, mean_size) = float_against_integer(&model, again);
    assert!(mean_size > 20.0, "a model that says something: {mean_size}");
    assert!(
        mean_error < 8.0,
        "mean |float - int| {mean_error} (evals ~{mean_size})"
    );
    // At FV_SCALE 32 the file's evaluations are half as large, and so are the model's.
    let (halved, _) = Model::from_raw(&raw, 32).unwrap();
    let mut act = model::Activations::new(TINY);
    for s in &train[..50] {
        model.forward(s, &mut act);
        let full = act.out;
        halved.forward(s, &mut act);
        assert!((act.out * 2.0 - full).abs() < 1e-4, "{} vs {full}", act.out);
    }
    // Training goes on from it: the loss it starts with is the trained model's, and falls.
    let mut from_file = Trainer::around(model, config(1)).unwrap();
    let start = from_file.loss(&train);
    assert!(
        (start - t.loss(&train)).abs() < 0.01,
        "{start} vs {}",
        t.loss(&train)
    );
    from_file.train_epoch(&train, &mut |_| {});
    assert!(
        from_file.loss(&train) < start,
        "{start} -> {}",
        from_file.loss(&train)
    );
}

/// The result-only loss ignores the scores: it is the loss of a blend with lambda 0.
#[test]
fn the_results_alone_loss_is_the_lambda_zero_loss() {
    let train = samples(7, 600);
    let mut t = Trainer::new(TINY, config(1)).unwrap();
    t.train_epoch(&train, &mut |_| {});
    let (raw, _) = t.model.quantize().unwrap();
    let copy = |lambda| {
        let (model, _) = Model::from_raw(&raw, 16).unwrap();
        Trainer::around(
            model,
            TrainConfig {
                lambda,
                ..config(1)
            },
        )
        .unwrap()
    };
    let (blend, results) = copy(1.0).losses(&train);
    assert_eq!(blend, copy(1.0).loss(&train));
    assert!((copy(0.0).loss(&train) - results).abs() < 1e-9);
    assert!(
        (blend - results).abs() > 1e-3,
        "the scores count in the blend: {blend} vs {results}"
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
    assert_eq!(resumed.model.relative, straight.model.relative);
    assert_eq!(resumed.model.king, straight.model.king);
    assert!(resumed.model.relative.iter().any(|&w| w != 0.0));
    assert!(resumed.model.ft[..] == straight.model.ft[..]);
    // Going on with other factorisers than the run's is refused.
    let other = TrainConfig {
        king_relative: false,
        ..config(2)
    };
    let err = Trainer::resume(&path, other).err().unwrap().to_string();
    assert!(err.contains("--factorisers all"), "{err}");
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

/// A residual network starts as the hand-written evaluation (its loss is that evaluation's loss,
/// to the last digit), learns from there, and its file is marked residual: the engine adds the
/// hand-written evaluation to it, and then evaluates as the float model with that added.
#[test]
fn a_residual_network_corrects_the_hand_written_evaluation() {
    let train = samples(8, 1500);
    let config = TrainConfig {
        residual: true,
        // The results (which follow the score's sign, beyond 300) leave it something to learn.
        lambda: 0.0,
        ..config(1)
    };
    let mut t = Trainer::new(TINY, config.clone()).unwrap();
    let hand_written_loss = train
        .iter()
        .map(|s| {
            let p = sample::sigmoid(f32::from(s.hand_written) / config.scale);
            train::cross_entropy(p, s.target(config.scale, config.lambda))
        })
        .sum::<f64>()
        / train.len() as f64;
    let start = t.loss(&train);
    assert!(
        (start - hand_written_loss).abs() < 1e-9,
        "{start} vs {hand_written_loss}"
    );
    for _ in 0..3 {
        t.train_epoch(&train, &mut |_| {});
    }
    assert!(
        t.loss(&train) < start - 0.001,
        "{} from {start}",
        t.loss(&train)
    );
    let (raw, _) = t.model.quantize().unwrap();
    assert!(raw.residual);
    let mut bytes = Vec::new();
    raw.write(&mut bytes).unwrap();
    let read = RawNetwork::read(&bytes[..], bytes.len() as u64, &[TINY]).unwrap();
    assert!(read.raw.residual);
    let (model, _) = Model::from_raw(&read.raw, 16).unwrap();
    assert!(model.residual, "read back as the residual model it was");
    // The engine's number (the hand-written evaluation added) is the float model's.
    let (error, size) = float_against_integer(&t.model, read.raw);
    assert!(size > 1.0, "a correction that says something: {size}");
    assert!(error < 8.0, "mean |float - engine| {error}");
}

//! Texel tuning of every evaluation weight (`eval::params::Weights`) on self-play data from
//! examples/datagen.rs.
//!
//! ```text
//! cargo run --release --example tune -- DATA.txt [--max N] [--rounds R] [--prior P] [--threads T]
//!     [--k K] [--freeze GROUP-OR-WEIGHT,...] [--offset-sd SD] [--write src/eval/default_weights.rs]
//!     [--teacher] [--teacher-k KT] [--result-weight L]
//! ```
//!
//! Model: the probability that the side to move wins is `sigmoid(eval / K)`; the tuner minimises the
//! cross-entropy against the game results (draws count 0.5) plus a Gaussian prior that pulls each
//! weight toward its current default (`--prior` scales it; weights the data says nothing about stay
//! put). `K` is fitted first with the default weights and then held, so the tuned evaluation keeps
//! the search's scale; the pawn on the board is frozen at its value for the same reason.
//!
//! With `--teacher`, each line carries a fourth column, a stronger engine's search score for the
//! side to move (scripts/label.py writes it), and the target is that engine's opinion instead of the
//! game result: `sigmoid(score / KT)`, mixed with the result by `--result-weight` (0 by default).
//! `KT` is fitted to the game results unless given, so the teacher's scale is translated into a
//! winning probability before Tokin's evaluation is fitted to it. A teacher's score says much more
//! about one position than the result of a game decided far later, so far fewer positions suffice.
//!
//! Method: the evaluation is linear in most weights but not in the king-danger units (quadratic
//! danger, clamps), so each round linearises it around the current weights (central differences of
//! `evaluate_with` over every weight, stored sparsely), takes Newton steps on the linearised
//! logistic loss (a few hundred weights: the dense Hessian is cheap), rounds to integers, and keeps the
//! step only as far as the true loss (with the real evaluation) improves. Every tenth block of
//! positions is held out and reported as the validation loss.
//!
//! The king-offset tables (3060 entries, a few dozen read per position) are exactly linear, so their
//! derivatives are counted from `eval::king_offset_entries` instead of differenced.
//!
//! The result is Rust source for src/eval/default_weights.rs, written there by `--write` (printed
//! otherwise).

use rayon::prelude::*;
use tokin::core::{Position, Variant};
use tokin::eval::params::{Shape, Weights};
use tokin::eval::{evaluate_with, king_offset_entries, KingTable, EVAL_MAX};

struct Args {
    data: String,
    max: usize,
    rounds: usize,
    prior: f64,
    threads: usize,
    k: Option<f64>,
    freeze: Vec<String>,
    offset_sd: f64,
    write: Option<String>,
    teacher: bool,
    teacher_k: Option<f64>,
    result_weight: f64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        data: String::new(),
        max: usize::MAX,
        rounds: 4,
        prior: 1.0,
        threads: 2,
        k: None,
        freeze: Vec::new(),
        offset_sd: 60.0,
        write: None,
        teacher: false,
        teacher_k: None,
        result_weight: 0.0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--max" => args.max = num(&value("--max")?)?,
            "--rounds" => args.rounds = num(&value("--rounds")?)?,
            "--threads" => args.threads = num(&value("--threads")?)?,
            "--prior" => args.prior = num(&value("--prior")?)?,
            "--k" => args.k = Some(num(&value("--k")?)?),
            "--freeze" => args.freeze = value("--freeze")?.split(',').map(str::to_string).collect(),
            "--offset-sd" => args.offset_sd = num(&value("--offset-sd")?)?,
            "--write" => args.write = Some(value("--write")?),
            "--teacher" => args.teacher = true,
            "--teacher-k" => args.teacher_k = Some(num(&value("--teacher-k")?)?),
            "--result-weight" => args.result_weight = num(&value("--result-weight")?)?,
            _ if args.data.is_empty() && !a.starts_with("--") => args.data = a,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if args.data.is_empty() {
        return Err("usage: tune DATA.txt [--max N] [--rounds R] [--prior P] [--k K]".into());
    }
    Ok(args)
}

fn num<T: std::str::FromStr>(s: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    s.parse().map_err(|e| format!("{s}: {e}"))
}

/// One weight of the flattened vector.
#[derive(Clone, Debug)]
struct Param {
    name: String,
    min: i32,
    max: i32,
    /// Prior standard deviation around the default: how far the data must push to move it.
    sd: f64,
    frozen: bool,
    /// For an entry of a king-offset table: which table. The evaluation is linear in those entries
    /// and `eval::king_offset_entries` lists the ones a position reads, so their derivatives are
    /// counted rather than differenced (thousands of weights, a few dozen read per position).
    table: Option<KingTable>,
}

fn flatten(w: &mut Weights) -> Vec<i32> {
    w.params_mut()
        .into_iter()
        .flat_map(|g| g.values.to_vec())
        .collect()
}

fn unflatten(w: &mut Weights, v: &[i32]) {
    let mut i = 0;
    for g in w.params_mut() {
        for x in g.values.iter_mut() {
            *x = v[i];
            i += 1;
        }
    }
}

/// Groups counted in king-danger units or per-square steps: small integers, so a small prior spread.
const UNIT_GROUPS: &[&str] = &[
    "attack_unit",
    "hand_attack_unit",
    "defend_unit",
    "danger_linear",
    "danger_quadratic",
    "mobility",
];

/// Groups whose first values were guesses (no data behind them yet): the wide prior spread of the
/// king-offset entries, so the data decides.
const GUESSED_GROUPS: &[&str] = &["threatened_to_move", "threatened_waiting"];

/// The king-offset tables, by group name.
fn king_table(group: &str) -> Option<KingTable> {
    match group {
        "own_king_offset" => Some(KingTable::Own),
        "enemy_king_offset" => Some(KingTable::Enemy),
        _ => None,
    }
}

/// Sets the `i`th weight of the flattened vector.
fn set_weight(w: &mut Weights, mut i: usize, value: i32) {
    for g in w.params_mut() {
        if i < g.values.len() {
            g.values[i] = value;
            return;
        }
        i -= g.values.len();
    }
}

/// `offset_sd`: the prior spread of a king-offset entry. Each entry sees a sliver of the data that
/// one distance entry used to see, so the spread is wider than the default 10 lest the prior freeze
/// them. On 471k positions, validation loss was best at 60 (30: 0.6079, 60: 0.6068, 120: 0.6083).
fn describe(freeze: &[String], offset_sd: f64) -> Vec<Param> {
    let mut w = Weights::DEFAULT;
    let mut out = Vec::new();
    for g in w.params_mut() {
        let unit = UNIT_GROUPS.contains(&g.name);
        let table = king_table(g.name);
        for (i, &v) in g.values.iter().enumerate() {
            let floor = if table.is_some() || GUESSED_GROUPS.contains(&g.name) {
                offset_sd
            } else {
                10.0
            };
            let sd = if unit {
                (0.5 * f64::from(v.abs())).max(1.0)
            } else {
                (0.25 * f64::from(v.abs())).max(floor)
            };
            let name = format!("{}[{i}]", g.name);
            // The pawn on the board is the unit of the scale (and `eval::PAWN_VALUE`).
            let frozen = name == "board[0]" || freeze.iter().any(|f| f == g.name || *f == name);
            out.push(Param {
                name,
                min: g.min,
                max: g.max,
                sd,
                frozen,
                table,
            });
        }
    }
    out
}

struct Sample {
    sfen: String,
    /// What the evaluation is fitted to: the game result (1 win, 0.5 draw, 0 loss for the side to
    /// move) or, with a teacher, the teacher's winning probability.
    result: f64,
    /// A stronger engine's score for the side to move (fourth column), when the data has one.
    teacher: Option<f64>,
}

/// Lines are `sfen<TAB>result<TAB>score[<TAB>teacher score]`; `need_teacher` skips lines without one.
fn load(path: &str, max: usize, need_teacher: bool) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if out.len() >= max {
            break;
        }
        let mut fields = line.split('\t');
        let (Some(sfen), Some(result)) = (fields.next(), fields.next()) else {
            eprintln!("{path}:{}: skipped (fields)", n + 1);
            continue;
        };
        let Ok(result) = result.parse::<f64>() else {
            eprintln!("{path}:{}: skipped (result)", n + 1);
            continue;
        };
        let teacher = fields.nth(1).and_then(|t| t.parse::<f64>().ok());
        if need_teacher && teacher.is_none() {
            eprintln!("{path}:{}: skipped (teacher score)", n + 1);
            continue;
        }
        if Position::from_sfen(sfen, Variant::Shogi).is_err() {
            eprintln!("{path}:{}: skipped (sfen)", n + 1);
            continue;
        }
        out.push(Sample {
            sfen: sfen.to_string(),
            result,
            teacher,
        });
    }
    Ok(out)
}

fn position(s: &Sample) -> Position {
    // Checked in `load`.
    Position::from_sfen(&s.sfen, Variant::Shogi).expect("sfen checked when loaded")
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of `p` against result `r`, guarded against log(0).
fn cross_entropy(r: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
}

/// Evaluations with `w`; positions near the clamp carry no gradient and are left to the caller.
fn evals(w: &Weights, data: &[Sample]) -> Vec<i32> {
    data.par_iter()
        .map(|s| evaluate_with(w, &position(s)))
        .collect()
}

fn mean_loss(evals: &[i32], data: &[Sample], k: f64) -> f64 {
    let sum: f64 = evals
        .iter()
        .zip(data)
        .map(|(&e, s)| cross_entropy(s.result, sigmoid(f64::from(e) / k)))
        .sum();
    sum / data.len().max(1) as f64
}

/// The scale in 20..20000 minimising `loss` (golden-section search on a log scale).
fn fit_scale(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (20f64.ln(), 20000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The teacher's scale: the `KT` whose `sigmoid(score / KT)` best predicts the game results.
fn fit_teacher_k(data: &[Sample]) -> f64 {
    fit_scale(|kt| {
        let sum: f64 = data
            .iter()
            .filter_map(|s| Some(cross_entropy(s.result, sigmoid(s.teacher? / kt))))
            .sum();
        sum / data.len().max(1) as f64
    })
}

/// The linearised evaluation of one position: its value and its nonzero partial derivatives.
struct Row {
    e0: f64,
    result: f64,
    idx: Vec<u16>,
    val: Vec<f32>,
}

impl Row {
    /// The linearised evaluation with the weights moved by `d` from the expansion point.
    fn eval_at(&self, d: &[f64]) -> f64 {
        self.e0
            + self
                .idx
                .iter()
                .zip(&self.val)
                .map(|(&i, &v)| f64::from(v) * d[i as usize])
                .sum::<f64>()
    }
}

/// The derivatives of the evaluation around `w0` in every unfrozen weight: counted for the
/// king-offset entries, central differences for the rest.
fn jacobian(w0: &[i32], params: &[Param], data: &[Sample]) -> Vec<Row> {
    // Where each king-offset table starts in the flattened vector.
    let base = |table: KingTable| params.iter().position(|p| p.table == Some(table));
    let bases = [base(KingTable::Own), base(KingTable::Enemy)];
    data.par_iter()
        .map_init(
            || {
                let mut w = Weights::DEFAULT;
                unflatten(&mut w, w0);
                w
            },
            |w, s| {
                let pos = position(s);
                let e0 = evaluate_with(w, &pos);
                let mut entries: Vec<(u16, f32)> = Vec::new();
                if e0.abs() < EVAL_MAX / 2 {
                    for (i, p) in params.iter().enumerate() {
                        if p.frozen || p.table.is_some() {
                            continue;
                        }
                        set_weight(w, i, w0[i] + 1);
                        let up = evaluate_with(w, &pos);
                        set_weight(w, i, w0[i] - 1);
                        let down = evaluate_with(w, &pos);
                        set_weight(w, i, w0[i]);
                        if up != down {
                            entries.push((i as u16, (up - down) as f32 / 2.0));
                        }
                    }
                    let mover = pos.side_to_move();
                    king_offset_entries(&pos, |table, entry, owner| {
                        let base = bases[usize::from(table == KingTable::Enemy)];
                        if let Some(i) = base.map(|b| b + entry) {
                            if !params[i].frozen {
                                let sign = if owner == mover { 1.0 } else { -1.0 };
                                entries.push((i as u16, sign));
                            }
                        }
                    });
                }
                // Sorted and merged: the Hessian fill visits each pair once, lower triangle only.
                entries.sort_unstable_by_key(|&(i, _)| i);
                let mut row = Row {
                    e0: f64::from(e0),
                    result: s.result,
                    idx: Vec::with_capacity(entries.len()),
                    val: Vec::with_capacity(entries.len()),
                };
                for (i, v) in entries {
                    if row.idx.last() == Some(&i) {
                        if let Some(last) = row.val.last_mut() {
                            *last += v;
                        }
                    } else {
                        row.idx.push(i);
                        row.val.push(v);
                    }
                }
                row
            },
        )
        .collect()
}

/// Solves `a x = b` for symmetric positive definite `a` (Cholesky); `None` if it is not.
fn solve_spd(mut a: Vec<f64>, n: usize, b: &[f64]) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * y[k];
        }
        y[i] = s / a[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k * n + i] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    Some(x)
}

/// The linearised objective at offset `d` from the linearisation point (per position, plus prior).
fn linear_objective(
    rows: &[Row],
    d: &[f64],
    w0: &[i32],
    defaults: &[i32],
    params: &[Param],
    k: f64,
    prior: f64,
) -> f64 {
    let data: f64 = rows
        .par_iter()
        .map(|r| {
            let e = r.eval_at(d);
            cross_entropy(r.result, sigmoid(e / k))
        })
        .sum();
    data + prior_term(d, w0, defaults, params, prior)
}

fn prior_term(d: &[f64], w0: &[i32], defaults: &[i32], params: &[Param], prior: f64) -> f64 {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let off = (f64::from(w0[i]) + d[i] - f64::from(defaults[i])) / p.sd;
            prior * off * off / 2.0
        })
        .sum()
}

/// Newton iterations on the linearised objective; returns the offset from `w0`.
fn newton(
    rows: &[Row],
    w0: &[i32],
    defaults: &[i32],
    params: &[Param],
    k: f64,
    prior: f64,
) -> Vec<f64> {
    let n = params.len();
    let mut d = vec![0.0; n];
    let mut current = linear_objective(rows, &d, w0, defaults, params, k, prior);
    for iter in 0..12 {
        // Gradient and Gauss-Newton Hessian of the data term (exact for the logistic loss).
        // A few big chunks: each owns a dense n x n accumulator (tens of MB with the king tables).
        let chunk = rows.len().div_ceil(2 * rayon::current_num_threads()).max(1);
        let (grad, hess) = rows
            .par_chunks(chunk)
            .map(|rows| {
                let (mut g, mut h) = (vec![0.0; n], vec![0.0; n * n]);
                for r in rows {
                    let e = r.eval_at(&d);
                    let p = sigmoid(e / k);
                    let de = (p - r.result) / k;
                    let dde = p * (1.0 - p) / (k * k);
                    for (a, (&i, &vi)) in r.idx.iter().zip(&r.val).enumerate() {
                        let (i, vi) = (i as usize, f64::from(vi));
                        g[i] += de * vi;
                        let hi = &mut h[i * n..i * n + n];
                        for (&j, &vj) in r.idx[..=a].iter().zip(&r.val[..=a]) {
                            hi[j as usize] += dde * vi * f64::from(vj);
                        }
                    }
                }
                (g, h)
            })
            .reduce(
                || (vec![0.0; n], vec![0.0; n * n]),
                |(mut g1, mut h1), (g2, h2)| {
                    g1.iter_mut().zip(&g2).for_each(|(a, b)| *a += b);
                    h1.iter_mut().zip(&h2).for_each(|(a, b)| *a += b);
                    (g1, h1)
                },
            );
        let mut grad = grad;
        let mut hess = hess;
        // Indices were visited with j <= i only: mirror the lower triangle.
        for i in 0..n {
            for j in 0..i {
                hess[j * n + i] = hess[i * n + j];
            }
        }
        for (i, p) in params.iter().enumerate() {
            let off = (f64::from(w0[i]) + d[i] - f64::from(defaults[i])) / p.sd;
            grad[i] += prior * off / p.sd;
            hess[i * n + i] += prior / (p.sd * p.sd);
            if p.frozen {
                // Frozen: a decoupled unit row keeps its step at zero.
                for j in 0..n {
                    hess[i * n + j] = 0.0;
                    hess[j * n + i] = 0.0;
                }
                hess[i * n + i] = 1.0;
                grad[i] = 0.0;
            }
        }
        let Some(step) = solve_spd(hess, n, &grad) else {
            eprintln!("newton: Hessian not positive definite");
            break;
        };
        // Damped: halve until the linearised objective falls.
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-3 {
            let trial: Vec<f64> = d.iter().zip(&step).map(|(x, s)| x - t * s).collect();
            let value = linear_objective(rows, &trial, w0, defaults, params, k, prior);
            if value < current {
                let gain = current - value;
                d = trial;
                current = value;
                improved = true;
                eprintln!(
                    "  newton {iter}: objective {:.6} (step {t})",
                    current / rows.len() as f64
                );
                if gain < 1e-6 * rows.len() as f64 {
                    return d;
                }
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    d
}

fn clamp_round(w0: &[i32], d: &[f64], t: f64, params: &[Param]) -> Vec<i32> {
    w0.iter()
        .zip(d)
        .zip(params)
        .map(|((&w, &x), p)| {
            if p.frozen {
                w
            } else {
                ((f64::from(w) + t * x).round() as i32).clamp(p.min, p.max)
            }
        })
        .collect()
}

/// The weights as the source of src/eval/default_weights.rs, laid out by each group's shape.
fn weights_source(w: &mut Weights) -> String {
    let numbers = |v: &[i32]| {
        v.iter()
            .map(|x| format!("{x},"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::from(
        "//! The evaluation weights in use, generated by examples/tune.rs (`--write`), which starts from
//! them. Their meaning and history are in params.rs; hand edits there are noted there.

use super::params::Weights;

#[rustfmt::skip]
pub const DEFAULT_WEIGHTS: Weights = Weights {
",
    );
    for g in w.params_mut() {
        match g.shape {
            Shape::Scalar => out += &format!("    {}: {}\n", g.name, numbers(g.values)),
            Shape::List => {
                out += &format!(
                    "    {}: [{}],\n",
                    g.name,
                    numbers(g.values).trim_end_matches(',')
                )
            }
            Shape::Table { row_names, line } => {
                out += &format!(
                    "    // A row per class, a line per file distance from the king (0..=8), a column\n    \
                     // per rank step (-8..=8, ahead of the king as the piece's owner moves > 0).\n    {}: [\n",
                    g.name
                );
                let row_len = g.values.len() / row_names.len();
                for (row, name) in g.values.chunks(row_len).zip(row_names) {
                    out += &format!("        // {name}\n        [\n");
                    for part in row.chunks(line) {
                        let cells: String = part.iter().map(|x| format!("{x:>4},")).collect();
                        out += &format!("           {cells}\n");
                    }
                    out += "        ],\n";
                }
                out += "    ],\n";
            }
        }
    }
    out += "};\n";
    out
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build_global()
    {
        eprintln!("thread pool: {e}");
    }
    let mut all = match load(&args.data, args.max, args.teacher) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    if args.teacher {
        let kt = args.teacher_k.unwrap_or_else(|| fit_teacher_k(&all));
        let mix = args.result_weight.clamp(0.0, 1.0);
        let before: f64 = all.iter().map(|s| s.result).sum::<f64>() / all.len().max(1) as f64;
        for s in &mut all {
            let opinion = sigmoid(s.teacher.unwrap_or(0.0) / kt);
            s.result = mix * s.result + (1.0 - mix) * opinion;
        }
        let after: f64 = all.iter().map(|s| s.result).sum::<f64>() / all.len().max(1) as f64;
        eprintln!(
            "teacher scale KT = {kt:.1}; targets mix {mix} of the result; mean target {before:.3} -> {after:.3}"
        );
    }
    // Games are written whole, so blocks of consecutive lines keep most games on one side.
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, s) in all.into_iter().enumerate() {
        if (i / 1000) % 10 == 9 {
            valid.push(s);
        } else {
            train.push(s);
        }
    }
    eprintln!(
        "{} training and {} validation positions",
        train.len(),
        valid.len()
    );

    let params = describe(&args.freeze, args.offset_sd);
    let defaults = flatten(&mut Weights::DEFAULT.clone());
    let default_evals = evals(&Weights::DEFAULT, &train);
    let k = args
        .k
        .unwrap_or_else(|| fit_scale(|k| mean_loss(&default_evals, &train, k)));
    let loss = |w: &Weights, set: &[Sample]| mean_loss(&evals(w, set), set, k);
    eprintln!(
        "K = {k:.1}; default loss: train {:.6}, valid {:.6}",
        loss(&Weights::DEFAULT, &train),
        loss(&Weights::DEFAULT, &valid)
    );

    let mut w_flat = defaults.clone();
    let mut best_loss = loss(&Weights::DEFAULT, &train);
    for round in 0..args.rounds {
        let rows = jacobian(&w_flat, &params, &train);
        let nnz: usize = rows.iter().map(|r| r.idx.len()).sum();
        eprintln!(
            "round {round}: linearised ({:.1} nonzero per position)",
            nnz as f64 / rows.len().max(1) as f64
        );
        let d = newton(&rows, &w_flat, &defaults, &params, k, args.prior);
        drop(rows);
        // The true loss decides how much of the step to keep (the danger terms are not linear).
        let mut t = 1.0;
        let mut moved = false;
        while t > 0.05 {
            let trial = clamp_round(&w_flat, &d, t, &params);
            let mut w = Weights::DEFAULT;
            unflatten(&mut w, &trial);
            let l = loss(&w, &train);
            eprintln!("  step {t}: true train loss {l:.6}");
            if l < best_loss {
                best_loss = l;
                moved = trial != w_flat;
                w_flat = trial;
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
    }

    let mut tuned = Weights::DEFAULT;
    unflatten(&mut tuned, &w_flat);
    eprintln!(
        "tuned loss: train {:.6}, valid {:.6}",
        loss(&tuned, &train),
        loss(&tuned, &valid)
    );
    for (i, p) in params.iter().enumerate() {
        if w_flat[i] != defaults[i] {
            eprintln!("  {:24} {:5} -> {:5}", p.name, defaults[i], w_flat[i]);
        }
    }
    let source = weights_source(&mut tuned);
    match &args.write {
        Some(path) => {
            if let Err(e) = std::fs::write(path, source) {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        }
        None => print!("{source}"),
    }
}

//! Texel tuning of every evaluation weight (`eval::params::Weights`) on self-play data from
//! examples/datagen.rs.
//!
//! ```text
//! cargo run --release --example tune -- DATA.txt [--max N] [--rounds R] [--prior P] [--threads T]
//!     [--k K] [--freeze GROUP,...]
//! ```
//!
//! Model: the probability that the side to move wins is `sigmoid(eval / K)`; the tuner minimises the
//! cross-entropy against the game results (draws count 0.5) plus a Gaussian prior that pulls each
//! weight toward its current default (`--prior` scales it; weights the data says nothing about stay
//! put). `K` is fitted first with the default weights and then held, so the tuned evaluation keeps
//! the search's scale; the pawn on the board is frozen at its value for the same reason.
//!
//! Method: the evaluation is linear in most weights but not in the king-danger units (quadratic
//! danger, clamps), so each round linearises it around the current weights (central differences of
//! `evaluate_with` over every weight, stored sparsely), takes Newton steps on the linearised
//! logistic loss (a few hundred weights: the dense Hessian is cheap), rounds to integers, and keeps the
//! step only as far as the true loss (with the real evaluation) improves. Every tenth block of
//! positions is held out and reported as the validation loss.
//!
//! The result is printed as Rust source for `Weights::DEFAULT` in src/eval/params.rs.

use rayon::prelude::*;
use tokin::core::{Position, Variant};
use tokin::eval::params::Weights;
use tokin::eval::{evaluate_with, EVAL_MAX};

struct Args {
    data: String,
    max: usize,
    rounds: usize,
    prior: f64,
    threads: usize,
    k: Option<f64>,
    freeze: Vec<String>,
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

fn describe(freeze: &[String]) -> Vec<Param> {
    let mut w = Weights::DEFAULT;
    let mut out = Vec::new();
    for g in w.params_mut() {
        let unit = UNIT_GROUPS.contains(&g.name);
        for (i, &v) in g.values.iter().enumerate() {
            let sd = if unit {
                (0.5 * f64::from(v.abs())).max(1.0)
            } else {
                (0.25 * f64::from(v.abs())).max(10.0)
            };
            let name = format!("{}[{i}]", g.name);
            // The pawn on the board is the unit of the scale (and `eval::PAWN_VALUE`).
            let frozen = name == "board[0]" || freeze.iter().any(|f| f == g.name);
            out.push(Param {
                name,
                min: g.min,
                max: g.max,
                sd,
                frozen,
            });
        }
    }
    out
}

struct Sample {
    sfen: String,
    result: f64,
}

fn load(path: &str, max: usize) -> Result<Vec<Sample>, String> {
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
        if Position::from_sfen(sfen, Variant::Shogi).is_err() {
            eprintln!("{path}:{}: skipped (sfen)", n + 1);
            continue;
        }
        out.push(Sample {
            sfen: sfen.to_string(),
            result,
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

/// K minimising the loss of the given evaluations (golden-section search on a log scale).
fn fit_k(evals: &[i32], data: &[Sample]) -> f64 {
    let (mut lo, mut hi) = (20f64.ln(), 5000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if mean_loss(evals, data, a.exp()) < mean_loss(evals, data, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
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

/// Central differences of the evaluation in every unfrozen weight around `w0`.
fn jacobian(w0: &[i32], params: &[Param], data: &[Sample]) -> Vec<Row> {
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
                let mut row = Row {
                    e0: f64::from(e0),
                    result: s.result,
                    idx: Vec::new(),
                    val: Vec::new(),
                };
                if e0.abs() >= EVAL_MAX / 2 {
                    return row;
                }
                let mut flat = w0.to_vec();
                for (i, p) in params.iter().enumerate() {
                    if p.frozen {
                        continue;
                    }
                    flat[i] = w0[i] + 1;
                    unflatten(w, &flat);
                    let up = evaluate_with(w, &pos);
                    flat[i] = w0[i] - 1;
                    unflatten(w, &flat);
                    let down = evaluate_with(w, &pos);
                    flat[i] = w0[i];
                    if up != down {
                        row.idx.push(i as u16);
                        row.val.push((up - down) as f32 / 2.0);
                    }
                }
                unflatten(w, w0);
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
        let (grad, hess) = rows
            .par_iter()
            .fold(
                || (vec![0.0; n], vec![0.0; n * n]),
                |(mut g, mut h), r| {
                    let e = r.eval_at(&d);
                    let p = sigmoid(e / k);
                    let de = (p - r.result) / k;
                    let dde = p * (1.0 - p) / (k * k);
                    for (a, (&i, &vi)) in r.idx.iter().zip(&r.val).enumerate() {
                        let (i, vi) = (i as usize, f64::from(vi));
                        g[i] += de * vi;
                        for (&j, &vj) in r.idx[..=a].iter().zip(&r.val[..=a]) {
                            h[i * n + j as usize] += dde * vi * f64::from(vj);
                        }
                    }
                    (g, h)
                },
            )
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

/// The weights as Rust source for `Weights::DEFAULT` (rustfmt lays it out).
fn rust_source(w: &Weights) -> String {
    let list = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    let table = |t: &[[i32; 9]]| {
        let names = [
            "pawn",
            "lance",
            "knight",
            "silver",
            "gold",
            "bishop",
            "rook",
            "promoted minors",
            "horse",
            "dragon",
        ];
        t.iter()
            .zip(names)
            .map(|(row, name)| format!("            [{}], // {name}\n", list(row)))
            .collect::<String>()
    };
    format!(
        "    pub const DEFAULT: Weights = Weights {{
        //       P    L    N    S    B    R    G    K   +P   +L   +N   +S   +B   +R
        board: [{}],
        //     P    L    N    S    B    R    G
        hand: [{}],
        hand_first: [{}],
        no_drop_material_scale: {},
        own_king_distance: [
{}        ],
        enemy_king_distance: [
{}        ],
        pawn_rank: [{}],
        lance_rank: [{}],
        knight_rank: [{}],
        king_rank: [{}],
        //        L  B  R  +B +R
        mobility: [{}],
        promotion_reach: [{}],
        //            P  L  N  S  G  B  R  PM +B +R
        attack_unit: [{}],
        //                P  L  N  S  B  R  G
        hand_attack_unit: [{}],
        defend_unit: [{}],
        danger_linear: {},
        danger_quadratic: {},
        escape: [{}],
        open_file: [{}],
        open_file_ranger: {},
        tempo: {},
    }};
",
        list(&w.board),
        list(&w.hand),
        list(&w.hand_first),
        w.no_drop_material_scale,
        table(&w.own_king_distance),
        table(&w.enemy_king_distance),
        list(&w.pawn_rank),
        list(&w.lance_rank),
        list(&w.knight_rank),
        list(&w.king_rank),
        list(&w.mobility),
        list(&w.promotion_reach),
        list(&w.attack_unit),
        list(&w.hand_attack_unit),
        list(&w.defend_unit),
        w.danger_linear,
        w.danger_quadratic,
        list(&w.escape),
        list(&w.open_file),
        w.open_file_ranger,
        w.tempo,
    )
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
    let all = match load(&args.data, args.max) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
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

    let params = describe(&args.freeze);
    let defaults = flatten(&mut Weights::DEFAULT.clone());
    let default_evals = evals(&Weights::DEFAULT, &train);
    let k = args.k.unwrap_or_else(|| fit_k(&default_evals, &train));
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
    print!("{}", rust_source(&tuned));
}

//! The `tokin` binary: with no arguments the USI loop on stdin/stdout; subcommands for perft,
//! bench, analysis, mate problems, training data and network play. Argument parsing only: the
//! work and the text live in `tokin::usi` and `tokin::csa`.

use clap::{ArgAction, ArgGroup, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tokin::core::Variant;
use tokin::csa::config::{CsaArgs, Settings, PASSWORD_ENV};
use tokin::gensfen::relabel::RelabelConfig;
use tokin::gensfen::{GensfenConfig, MoveLimit, RandomMoves, SearchSettings};
use tokin::psv::OpenMode;
use tokin::usi::cli::{self, AnalyseArgs, EvalArgs, MateArgs, MateInput};
use tokin::usi::data_cli::{self, GensfenArgs, RelabelArgs, SfenInfoArgs, ShuffleArgs};
use tokin::usi::learn_cli;

#[derive(Parser)]
#[command(
    name = "tokin",
    version,
    about = "Tokin, a USI shogi engine (modern shogi and Heian shogi)",
    long_about = "Tokin, a USI shogi engine (modern shogi and Heian shogi).\n\n\
        Without a subcommand Tokin speaks USI on stdin/stdout: register target/release/tokin in a GUI \
        such as ShogiHome or ShogiGUI. Logging goes to stderr and is off unless RUST_LOG is set \
        (e.g. RUST_LOG=debug)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

/// The evaluation a tool runs (the USI options EvalFile, FV_SCALE and UseNNUE).
#[derive(clap::Args)]
struct EvalFlags {
    /// A network file in YaneuraOu's NNUE layout (e.g. a 64 MB nn.bin, HalfKP 256x2-32-32);
    /// without it the built-in network plays.
    #[arg(long, conflicts_with = "hand_written")]
    evalfile: Option<PathBuf>,
    /// The network's output is divided by this (YaneuraOu's FV_SCALE).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=128))]
    fv_scale: Option<i32>,
    /// Play the hand-written evaluation instead of the built-in network (UseNNUE false).
    #[arg(long)]
    hand_written: bool,
}

impl EvalFlags {
    fn args(self) -> EvalArgs {
        EvalArgs {
            evalfile: self.evalfile,
            fv_scale: self.fv_scale,
            hand_written: self.hand_written,
        }
    }
}

#[derive(Subcommand)]
enum Tool {
    /// Count move paths to a depth (checks the move generator); prints one `<move>: <count>` line per
    /// root move, an empty line, `Nodes searched: N`, then the time and speed.
    Perft {
        /// Depth in plies (at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=tokin::core::movegen::MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Start from this SFEN instead of the variant's start position (quote it).
        #[arg(long)]
        sfen: Option<String>,
        /// Rule set: shogi, heian (9x8) or heian8 (8x8).
        #[arg(long, default_value = "shogi")]
        variant: Variant,
        /// Threads (root moves are split between them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search a fixed set of positions (1 thread, 16 MB) and print `Nodes searched` and
    /// `Nodes/second`; the node count is a signature of the search.
    Bench {
        /// Search depth per position.
        #[arg(long, default_value_t = tokin::usi::engine::BENCH_DEFAULT_DEPTH)]
        depth: u32,
        #[command(flatten)]
        eval: EvalFlags,
    },
    /// Analyse one position: prints the USI `info` lines and the `bestmove`. Without a limit it
    /// searches for 3 seconds.
    Analyse {
        /// Position as SFEN (quote it); default: the variant's start position.
        #[arg(long)]
        sfen: Option<String>,
        /// Moves played from that position, in USI notation (e.g. --moves 7g7f 3c3d).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Stop at this depth.
        #[arg(long, group = "limit")]
        depth: Option<u32>,
        /// Think this many milliseconds.
        #[arg(long, group = "limit")]
        movetime: Option<i64>,
        /// Stop after this many nodes.
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Number of best lines to show.
        #[arg(long)]
        multipv: Option<u32>,
        /// Search threads.
        #[arg(long)]
        threads: Option<usize>,
        /// Rule set: shogi, heian (9x8) or heian8 (8x8).
        #[arg(long, default_value = "shogi")]
        variant: Variant,
        #[command(flatten)]
        eval: EvalFlags,
    },
    /// Solve mate problems (tsume) with the df-pn solver: the side to move attacks with checks.
    /// With --sfen prints the `checkmate <moves>|nomate|timeout` line `go mate` would answer,
    /// the mate length, nodes and time; with --file one line per problem and a summary.
    #[command(group(ArgGroup::new("problems").required(true).args(["sfen", "file"])))]
    Mate {
        /// The problem as SFEN (quote it). By the tsume convention the defender holds every piece
        /// not on the board or in the attacker's hand; a problem needs no attacking king.
        #[arg(long)]
        sfen: Option<String>,
        /// A file of problems: one SFEN per line (an optional `sfen ` prefix; blank lines and
        /// lines starting with # are skipped).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Time per problem in milliseconds; 0 means no limit.
        #[arg(long, default_value_t = cli::MATE_DEFAULT_TIME_MS)]
        time: u64,
        /// Mate table size in MB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Rule set: shogi, heian (9x8) or heian8 (8x8).
        #[arg(long, default_value = "shogi")]
        variant: Variant,
    },
    /// Generate training data by self-play: positions with Tokin's search score and move and the
    /// game's result, in YaneuraOu's PackedSfenValue records (40 bytes each). Games start from
    /// balanced openings plus seeded random moves and are played to their real end. A progress
    /// line goes to stderr, a summary to stdout.
    #[command(group(ArgGroup::new("limit").args(["nodes", "depth"])))]
    Gensfen(GensfenCli),
    /// Search the records of PackedSfenValue files again (deeper, or with a network) and write
    /// them with the new score and best move, the position, game ply and result kept: a better
    /// teacher for positions already played. Output in input order, one record for each good
    /// input record (bad ones are dropped and counted); --append resumes a killed run exactly.
    #[command(group(ArgGroup::new("limit").args(["nodes", "depth"]).required(true)))]
    Relabel(RelabelCli),
    /// Train a network from PackedSfenValue files (ours from gensfen, or anyone's) on the CPU and
    /// write it in YaneuraOu's file layout (loadable with EvalFile, and by YaneuraOu for the
    /// standard shape). Every epoch writes the network and a checkpoint; --resume continues a
    /// killed run from its checkpoint.
    Learn(LearnCli),
    /// Check PackedSfenValue files: record counts, bad records, results, score and game-ply
    /// histograms (and how well the scores predict the results).
    Sfeninfo {
        /// Record files (read in order, as one stream).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Width of a score bucket.
        #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(i32).range(1..=32000))]
        score_bucket: i32,
        /// Scores from this on (either sign) share one bucket.
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(i32).range(1..=32767))]
        score_clamp: i32,
        /// Width of a game-ply bucket.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        ply_bucket: u32,
        /// Describe this many bad records one by one (the rest are counted).
        #[arg(long, default_value_t = 10)]
        show_errors: usize,
    },
    /// Shuffle PackedSfenValue files into one file in random order, optionally holding out a
    /// validation file (by whole games, in blocks of at least 256 consecutive records, so one
    /// game's positions stay on one side): for trainers that read records in file order, such as nnue-pytorch. Holds every
    /// record in memory (40 bytes each); bad records are dropped and counted.
    Shuffle {
        /// Record files (read in order, as one stream).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The shuffled training records.
        #[arg(long)]
        output: PathBuf,
        /// The shuffled held-out records.
        #[arg(long)]
        validation_output: Option<PathBuf>,
        /// Fraction of the records held out, in [0, 0.9).
        #[arg(long, default_value_t = 0.0)]
        validation: f64,
        /// Seed of the split and the shuffle: the same files and seed give the same output.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Replace output files that exist.
        #[arg(long)]
        overwrite: bool,
        /// Describe this many bad records one by one (the rest are counted).
        #[arg(long, default_value_t = 10)]
        show_errors: usize,
    },
    /// Play on a CSA protocol server (floodgate, a championship's server, a private
    /// shogi-server): log in, play, write each game's record and log, and log in again for the
    /// next game. Exits 0 once the games are played, non-zero with the reason when they cannot be.
    #[command(
        after_help = "The password may also come from the environment variable TOKIN_CSA_PASSWORD \
        (keeps it out of shell history). On floodgate it is <game name>,<your secret>, e.g. \
        floodgate-300-10F,secret. A config file holds `name = value` lines: the settings above \
        by their long names (host, port, id, password, games, ponder, record-dir, log, keepalive, \
        comments, retries) and engine options by their USI names (Threads = 2); the command line \
        wins over the file."
    )]
    Csa(CsaCli),
}

/// `tokin csa`'s flags (see `Tool::Csa`).
#[derive(clap::Args)]
struct CsaCli {
    /// Server host name or address.
    #[arg(long)]
    host: Option<String>,
    /// Server port [default: 4081].
    #[arg(long)]
    port: Option<u16>,
    /// Login id (1-32 letters, digits or _ - @ .).
    #[arg(long)]
    id: Option<String>,
    /// Login password (or TOKIN_CSA_PASSWORD, or the config file).
    #[arg(long)]
    password: Option<String>,
    /// Games to play, one login each [default: 1].
    #[arg(long)]
    games: Option<u32>,
    /// Think on the opponent's time (USI_Ponder).
    #[arg(long)]
    ponder: bool,
    /// An engine option as Name=Value (repeatable), e.g. --option Threads=2.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// A file of settings and options (name = value lines).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where each game's record (.csa) and log go [default: csa-games].
    #[arg(long)]
    record_dir: Option<PathBuf>,
    /// Append the whole transcript (every line sent and received, and notes) to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Seconds without sending before a keep-alive empty line; 0: none [default: 40].
    #[arg(long)]
    keepalive: Option<u64>,
    /// Send moves without floodgate's score-and-line comment.
    #[arg(long)]
    no_comments: bool,
    /// Failed attempts in a row (no connection, no game, a dropped game) before giving up
    /// [default: 10].
    #[arg(long)]
    retries: Option<u32>,
}

impl CsaCli {
    fn into_args(self) -> CsaArgs {
        CsaArgs {
            host: self.host,
            port: self.port,
            id: self.id,
            password: self.password,
            games: self.games,
            ponder: self.ponder,
            options: self.options,
            config: self.config,
            record_dir: self.record_dir,
            log: self.log,
            keepalive: self.keepalive,
            no_comments: self.no_comments,
            retries: self.retries,
        }
    }
}

#[derive(clap::Args)]
struct LearnCli {
    /// Record files (shuffled together).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    output: PathBuf,
    /// Network shape: 64x2-32-32 (Tokin's own size, 16 MB) or 256x2-32-32 (the standard nn.bin)
    /// [default: 64x2-32-32, or the shape of --init].
    #[arg(long)]
    arch: Option<tokin::eval::nnue::Architecture>,
    /// Start from this network file instead of random weights: the last generation's network, or
    /// anyone's of a shape the engine evaluates (fine-tuning it on this data).
    #[arg(long)]
    init: Option<PathBuf>,
    /// The FV_SCALE the --init network was made for; the networks written are for 16.
    #[arg(long, default_value_t = tokin::eval::nnue::DEFAULT_FV_SCALE,
          value_parser = clap::value_parser!(i32).range(1..=128))]
    init_fv_scale: i32,
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// Samples per Adam step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's step size in the first epoch.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// The step size is multiplied by this after every epoch.
    #[arg(long, default_value_t = 0.9)]
    lr_decay: f32,
    /// Weight of the search score in the target; the rest is the game's result.
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Score units per unit of the win probability's logit: p = sigmoid(score / scale).
    #[arg(long, default_value_t = 600.0)]
    scale: f32,
    /// Fraction of the data held out for validation [default: 0.05, or 0 with --validation-data].
    #[arg(long, conflicts_with = "validation_data")]
    validation: Option<f64>,
    /// Validate on the records of this file (repeatable) instead of a part of the data, e.g. the
    /// --validation-output of `tokin shuffle`: runs on different data then share one yardstick.
    #[arg(long)]
    validation_data: Vec<PathBuf>,
    /// Use at most this many samples (0: all).
    #[arg(long, default_value_t = 0)]
    max_samples: usize,
    /// Training threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights, the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Checkpoint file [default: the output with .ckpt appended].
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint if there is one.
    #[arg(long)]
    resume: bool,
    /// Do not mirror samples (by default half of them, a fresh half each epoch, are mirrored left
    /// to right: the rules are symmetric, so the data doubles).
    #[arg(long)]
    no_mirror: bool,
    /// Weight decay of the king-specific first-layer rows (AdamW's, per unit of step size): what
    /// the data does not insist on is left to the rows shared by every king square. 0 = none.
    #[arg(long, default_value_t = 0.0)]
    ft_decay: f32,
    /// The rows shared between king squares while training (folded into the file's rows at
    /// export): "all" is YaneuraOu's learner's set for HalfKP (P, HalfRelativeKP, HalfK), "piece"
    /// is P alone.
    #[arg(long, value_enum, default_value_t = Factorisers::All)]
    factorisers: Factorisers,
    /// Train a correction to the hand-written evaluation (the evaluation is their sum) instead of
    /// a whole evaluation: Tokin's own kind of network, meaningless to other engines alone.
    #[arg(long)]
    residual: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Factorisers {
    /// P (piece and square), HalfRelativeKP (piece and offset from the king) and HalfK (king square).
    All,
    /// P alone.
    Piece,
}

impl LearnCli {
    fn into_args(self) -> learn_cli::LearnArgs {
        let defaults = tokin::learn::TrainConfig::default();
        learn_cli::LearnArgs {
            data: self.data,
            output: self.output,
            architecture: self.arch,
            init: self.init,
            init_fv_scale: self.init_fv_scale,
            epochs: self.epochs,
            validation: self
                .validation
                .unwrap_or(if self.validation_data.is_empty() {
                    0.05
                } else {
                    0.0
                }),
            validation_data: self.validation_data,
            max_samples: self.max_samples,
            checkpoint: self.checkpoint,
            resume: self.resume,
            config: tokin::learn::TrainConfig {
                batch_size: self.batch,
                learning_rate: self.lr,
                lr_decay: self.lr_decay,
                lambda: self.lambda,
                scale: self.scale,
                threads: self.threads.unwrap_or(defaults.threads),
                seed: self.seed,
                mirror: !self.no_mirror,
                ft_decay: self.ft_decay,
                king_relative: self.factorisers == Factorisers::All,
                residual: self.residual,
            },
        }
    }
}

#[derive(clap::Args)]
struct GensfenCli {
    /// The record file to write.
    #[arg(long)]
    output: PathBuf,
    /// Records the file holds when done (with --append, those already in it count: repeating a
    /// killed run's command with --append completes it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Nodes per move [default: 5000 unless --depth is given].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth per move instead of a node count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Games played at once, one search thread each [default: the number of cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Seed of the openings and random moves: a seed gives the same file, whatever --threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random legal moves in each game's first plies, after the opening line.
    #[arg(long, default_value_t = 5)]
    random_plies: u32,
    /// First game ply (move number, 1 = the first move) a random move may be played at.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    random_min_ply: u32,
    /// Last game ply a random move may be played at.
    #[arg(long, default_value_t = 24)]
    random_max_ply: u32,
    /// 0: random moves are any legal move. N > 1: one of the search's N best moves within
    /// --random-multipv-diff of the best.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    random_multipv: u32,
    /// Score margin of --random-multipv.
    #[arg(long, default_value_t = 32000)]
    random_multipv_diff: i32,
    /// Positions before this game ply (plies from the start position) are not written.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// Skip positions in check.
    #[arg(long, default_value_t = true, action = ArgAction::Set)]
    skip_in_check: bool,
    /// Skip positions whose best move is a capture or a promotion.
    #[arg(long, default_value_t = true, action = ArgAction::Set)]
    skip_noisy: bool,
    /// Skip positions whose |score| is above this.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(i32).range(0..=32000))]
    eval_limit: i32,
    /// A game that reaches this many plies is a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=65535))]
    max_plies: u32,
    /// Opening lines, one a line (USI moves from the start, or "sfen ... [moves ...]")
    /// [default: the balanced openings of scripts/openings.sfen, built in].
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Table size of each game's search, MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    #[command(flatten)]
    output_mode: OutputMode,
    #[command(flatten)]
    eval: EvalFlags,
}

#[derive(clap::Args)]
struct RelabelCli {
    /// Record files (read in order, as one stream).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The relabelled records.
    #[arg(long)]
    output: PathBuf,
    /// Nodes per record.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth per record.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Records searched at once, one search thread each [default: the number of cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Table size of each thread's search, MB (emptied every 64 records).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    #[command(flatten)]
    output_mode: OutputMode,
    /// Describe this many bad records one by one (the rest are counted).
    #[arg(long, default_value_t = 10)]
    show_errors: usize,
    #[command(flatten)]
    eval: EvalFlags,
}

impl RelabelCli {
    fn into_args(self) -> RelabelArgs {
        let defaults = GensfenConfig::default();
        let limit = match (self.nodes, self.depth) {
            (_, Some(d)) => MoveLimit::Depth(d),
            (Some(n), None) => MoveLimit::Nodes(n),
            (None, None) => unreachable!("clap requires --nodes or --depth"),
        };
        RelabelArgs {
            files: self.files,
            output: self.output,
            mode: self.output_mode.mode(),
            eval: self.eval.args(),
            config: RelabelConfig {
                search: SearchSettings {
                    limit,
                    ..defaults.search
                },
                threads: cores_or(self.threads),
                hash_mb: self.hash as usize,
            },
            show_errors: self.show_errors,
        }
    }
}

/// The number given, or every core.
fn cores_or(threads: Option<u64>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// What a data tool does with an output file that exists: refuse it unless told.
#[derive(clap::Args)]
struct OutputMode {
    /// Add to an existing output: the same command with --append continues a killed run (a torn
    /// last record is cut off first).
    #[arg(long, conflicts_with = "overwrite")]
    append: bool,
    /// Replace an existing output.
    #[arg(long)]
    overwrite: bool,
}

impl OutputMode {
    fn mode(&self) -> OpenMode {
        if self.append {
            OpenMode::Append
        } else if self.overwrite {
            OpenMode::Overwrite
        } else {
            OpenMode::CreateNew
        }
    }
}

impl GensfenCli {
    fn into_args(self) -> GensfenArgs {
        let defaults = GensfenConfig::default();
        let limit = match (self.nodes, self.depth) {
            (_, Some(d)) => MoveLimit::Depth(d),
            (Some(n), None) => MoveLimit::Nodes(n),
            (None, None) => defaults.search.limit,
        };
        let threads = cores_or(self.threads);
        GensfenArgs {
            output: self.output,
            mode: self.output_mode.mode(),
            openings: self.openings,
            eval: self.eval.args(),
            config: GensfenConfig {
                count: self.count,
                search: SearchSettings {
                    limit,
                    max_plies: self.max_plies,
                    ..defaults.search
                },
                threads,
                seed: self.seed,
                hash_mb: self.hash as usize,
                random: RandomMoves {
                    count: self.random_plies,
                    min_ply: self.random_min_ply,
                    max_ply: self.random_max_ply,
                    multipv: self.random_multipv,
                    multipv_diff: self.random_multipv_diff,
                },
                filter: tokin::gensfen::filter::RecordFilter {
                    min_ply: self.min_ply,
                    skip_in_check: self.skip_in_check,
                    skip_noisy: self.skip_noisy,
                    eval_limit: self.eval_limit,
                },
            },
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result: Result<(), String> = match cli.command {
        None => {
            drop(stdout);
            tokin::usi::engine::run(std::io::stdin(), tokin::usi::output::Output::stdout());
            Ok(())
        }
        Some(Tool::Perft {
            depth,
            sfen,
            variant,
            threads,
        }) => cli::perft(&mut stdout, depth, sfen.as_deref(), variant, threads)
            .map_err(|e| e.to_string()),
        Some(Tool::Bench { depth, eval }) => {
            cli::bench(&mut stdout, depth, &eval.args()).map_err(|e| e.to_string())
        }
        Some(Tool::Analyse {
            sfen,
            moves,
            depth,
            movetime,
            nodes,
            multipv,
            threads,
            variant,
            eval,
        }) => cli::analyse(
            &mut stdout,
            &AnalyseArgs {
                sfen,
                moves,
                depth,
                movetime,
                nodes,
                multipv,
                threads,
                variant,
                eval: eval.args(),
            },
        )
        .map_err(|e| e.to_string()),
        Some(Tool::Mate {
            sfen,
            file,
            time,
            hash,
            variant,
        }) => {
            // The group above makes clap insist on exactly one of the two.
            let input = match (sfen, file) {
                (Some(s), _) => MateInput::Sfen(s),
                (None, Some(f)) => MateInput::File(f),
                (None, None) => unreachable!("clap requires --sfen or --file"),
            };
            cli::mate(
                &mut stdout,
                &MateArgs {
                    input,
                    time_ms: (time > 0).then_some(time),
                    hash_mb: hash.max(1),
                    variant,
                },
            )
            .map_err(|e| e.to_string())
        }
        Some(Tool::Learn(args)) => {
            learn_cli::learn(&mut stdout, &args.into_args()).map_err(|e| e.to_string())
        }
        Some(Tool::Gensfen(args)) => {
            data_cli::gensfen(&mut stdout, &args.into_args()).map_err(|e| e.to_string())
        }
        Some(Tool::Relabel(args)) => {
            data_cli::relabel(&mut stdout, &args.into_args()).map_err(|e| e.to_string())
        }
        Some(Tool::Sfeninfo {
            files,
            score_bucket,
            score_clamp,
            ply_bucket,
            show_errors,
        }) => data_cli::sfeninfo(
            &mut stdout,
            &SfenInfoArgs {
                files,
                score_bucket,
                score_clamp,
                ply_bucket,
                show_errors,
            },
        )
        .map_err(|e| e.to_string()),
        Some(Tool::Shuffle {
            files,
            output,
            validation_output,
            validation,
            seed,
            overwrite,
            show_errors,
        }) => data_cli::shuffle(
            &mut stdout,
            &ShuffleArgs {
                files,
                output,
                validation_output,
                validation,
                seed,
                mode: if overwrite {
                    OpenMode::Overwrite
                } else {
                    OpenMode::CreateNew
                },
                show_errors,
            },
        )
        .map_err(|e| e.to_string()),
        Some(Tool::Csa(cli)) => {
            let args = cli.into_args();
            let played = Settings::resolve(&args, std::env::var(PASSWORD_ENV).ok())
                .map_err(|e| e.to_string())
                .and_then(|settings| {
                    tokin::csa::client::run(&settings, &mut stdout).map_err(|e| e.to_string())
                });
            return match played {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tokin csa: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tokin: {e}");
            ExitCode::FAILURE
        }
    }
}

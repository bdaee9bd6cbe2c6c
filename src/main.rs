//! The `tokin` binary: with no arguments the USI loop on stdin/stdout; subcommands for perft,
//! bench, analysis, mate problems and network play. Argument parsing only: the work and the text
//! live in `tokin::usi` and `tokin::csa`.

use clap::{ArgGroup, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tokin::core::Variant;
use tokin::csa::config::{CsaArgs, Settings, PASSWORD_ENV};
use tokin::usi::cli::{self, AnalyseArgs, EvalArgs, MateArgs, MateInput};

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

/// The evaluation a tool runs (the USI options EvalFile and FV_SCALE).
#[derive(clap::Args)]
struct EvalFlags {
    /// A network file in YaneuraOu's NNUE layout (e.g. a 64 MB nn.bin, HalfKP 256x2-32-32);
    /// without it the built-in evaluation plays.
    #[arg(long)]
    evalfile: Option<PathBuf>,
    /// The network's output is divided by this (YaneuraOu's FV_SCALE).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=128))]
    fv_scale: Option<i32>,
}

impl EvalFlags {
    fn args(self) -> EvalArgs {
        EvalArgs {
            evalfile: self.evalfile,
            fv_scale: self.fv_scale,
        }
    }
}

#[derive(Subcommand)]
enum Tool {
    /// Count move paths to a depth (checks the move generator); prints one `<move>: <count>` line per
    /// root move, an empty line, `Nodes searched: N`, then the time and speed.
    Perft {
        /// Depth in plies.
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
    Csa {
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
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match cli.command {
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
        }) => cli::perft(&mut stdout, depth, sfen.as_deref(), variant, threads),
        Some(Tool::Bench { depth, eval }) => cli::bench(&mut stdout, depth, &eval.args()),
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
        ),
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
        }
        Some(Tool::Csa {
            host,
            port,
            id,
            password,
            games,
            ponder,
            options,
            config,
            record_dir,
            log,
            keepalive,
            no_comments,
            retries,
        }) => {
            let args = CsaArgs {
                host,
                port,
                id,
                password,
                games,
                ponder,
                options,
                config,
                record_dir,
                log,
                keepalive,
                no_comments,
                retries,
            };
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

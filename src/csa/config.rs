//! `tokin csa`'s settings: the command line over the environment over a config file over the
//! defaults. A config file holds one `name = value` a line, `#` comments and blank lines skipped;
//! a name is a setting (`host`, `port`, `id`, `password`, `games`, `ponder`, `record-dir`, `log`,
//! `keepalive`, `comments`, `retries`) or an engine option (`Threads = 2`, `USI_Hash = 1024`).

use super::player::NETWORK_DELAY2_DEFAULT_MS;
use crate::core::Variant;
use crate::usi::options::{OptionError, OptionId, Options};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The environment variable the password may come from (it keeps it out of shell history).
pub const PASSWORD_ENV: &str = "TOKIN_CSA_PASSWORD";
/// The CSA protocol's usual port.
pub const DEFAULT_PORT: u16 = 4081;
/// Seconds of silence before a keep-alive line. The protocol allows a client's empty line no more
/// often than every 30 s; 40 s stays clear of that and well inside the idle timeouts of routers.
pub const DEFAULT_KEEPALIVE_S: u64 = 40;
/// Attempts in a row that may fail (no connection, no game, a dropped game) before giving up.
pub const DEFAULT_RETRIES: u32 = 10;

/// What the command line gave (`None`/empty: not given).
#[derive(Clone, Debug, Default)]
pub struct CsaArgs {
    pub host: Option<String>,
    pub port: Option<u16>,
    pub id: Option<String>,
    pub password: Option<String>,
    pub games: Option<u32>,
    pub ponder: bool,
    /// `Name=Value` engine options.
    pub options: Vec<String>,
    pub config: Option<PathBuf>,
    pub record_dir: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub keepalive: Option<u64>,
    pub no_comments: bool,
    pub retries: Option<u32>,
}

/// Everything a run needs, checked.
#[derive(Clone, Debug)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    pub id: String,
    pub password: String,
    pub games: u32,
    pub record_dir: PathBuf,
    pub log: Option<PathBuf>,
    /// `None`: never send keep-alive lines.
    pub keepalive: Option<Duration>,
    /// Send floodgate's comment (score and expected line) with our moves.
    pub comments: bool,
    pub retries: u32,
    pub options: Options,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("config file {path}, line {line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("--option '{0}' is not Name=Value")]
    OptionSyntax(String),
    #[error("option {0}")]
    Option(#[from] OptionError),
    #[error("no {0} given (use --{0} or the config file)")]
    Missing(&'static str),
    #[error("no password given (use --password, {PASSWORD_ENV} or the config file)")]
    MissingPassword,
    #[error("id '{0}' must be 1-32 letters, digits or _ - @ . (what the servers accept)")]
    BadId(String),
    #[error("the password must not be empty or hold spaces")]
    BadPassword,
    #[error("--games must be at least 1")]
    NoGames,
    #[error("CSA servers play modern shogi; USI_Variant must be shogi, not {0}")]
    Variant(String),
    #[error("{name} '{value}' is not {what}")]
    BadValue {
        name: &'static str,
        value: String,
        what: &'static str,
    },
}

/// The config file's settings, before the command line goes over them.
#[derive(Default)]
struct FileSettings {
    host: Option<String>,
    port: Option<u16>,
    id: Option<String>,
    password: Option<String>,
    games: Option<u32>,
    ponder: Option<bool>,
    record_dir: Option<PathBuf>,
    log: Option<PathBuf>,
    keepalive: Option<u64>,
    comments: Option<bool>,
    retries: Option<u32>,
    options: Vec<(usize, String, String)>,
}

impl Settings {
    /// Merges the command line, the password from the environment (`env_password`) and the config
    /// file, and checks the result.
    pub fn resolve(args: &CsaArgs, env_password: Option<String>) -> Result<Settings, ConfigError> {
        let file = match &args.config {
            Some(path) => read_file(path)?,
            None => FileSettings::default(),
        };
        let mut options = Options::for_this_machine();
        let mut delay2_given = false;
        for (line, name, value) in &file.options {
            let path = args.config.clone().unwrap_or_default();
            set_option(&mut options, name, value, &mut delay2_given).map_err(|e| {
                ConfigError::Line {
                    path,
                    line: *line,
                    message: e.to_string(),
                }
            })?;
        }
        for text in &args.options {
            let (name, value) = text
                .split_once('=')
                .ok_or_else(|| ConfigError::OptionSyntax(text.clone()))?;
            set_option(&mut options, name.trim(), value.trim(), &mut delay2_given)?;
        }
        if !delay2_given {
            options
                .set(
                    "NetworkDelay2",
                    Some(&NETWORK_DELAY2_DEFAULT_MS.to_string()),
                )
                .map_err(ConfigError::Option)?;
        }
        if args.ponder || file.ponder == Some(true) {
            options
                .set("USI_Ponder", Some("true"))
                .map_err(ConfigError::Option)?;
        }
        if options.combo(OptionId::UsiVariant) != Variant::Shogi.usi_name() {
            return Err(ConfigError::Variant(
                options.combo(OptionId::UsiVariant).to_string(),
            ));
        }
        let host = args
            .host
            .clone()
            .or(file.host)
            .ok_or(ConfigError::Missing("host"))?;
        let id = args
            .id
            .clone()
            .or(file.id)
            .ok_or(ConfigError::Missing("id"))?;
        let id_ok = (1..=32).contains(&id.len())
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-@.".contains(&b));
        if !id_ok {
            return Err(ConfigError::BadId(id));
        }
        let password = args
            .password
            .clone()
            .or(env_password)
            .or(file.password)
            .ok_or(ConfigError::MissingPassword)?;
        if password.is_empty() || password.contains(char::is_whitespace) {
            return Err(ConfigError::BadPassword);
        }
        let games = args.games.or(file.games).unwrap_or(1);
        if games == 0 {
            return Err(ConfigError::NoGames);
        }
        let keepalive = args
            .keepalive
            .or(file.keepalive)
            .unwrap_or(DEFAULT_KEEPALIVE_S);
        Ok(Settings {
            host,
            port: args.port.or(file.port).unwrap_or(DEFAULT_PORT),
            id,
            password,
            games,
            record_dir: args
                .record_dir
                .clone()
                .or(file.record_dir)
                .unwrap_or_else(|| PathBuf::from("csa-games")),
            log: args.log.clone().or(file.log),
            keepalive: (keepalive > 0).then(|| Duration::from_secs(keepalive)),
            comments: !args.no_comments && file.comments != Some(false),
            retries: args.retries.or(file.retries).unwrap_or(DEFAULT_RETRIES),
            options,
        })
    }
}

fn set_option(
    options: &mut Options,
    name: &str,
    value: &str,
    delay2_given: &mut bool,
) -> Result<(), ConfigError> {
    options.set(name, Some(value))?;
    if Options::lookup(name) == Some(OptionId::NetworkDelay2) {
        *delay2_given = true;
    }
    Ok(())
}

fn read_file(path: &Path) -> Result<FileSettings, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_file(path, &text)
}

fn parse_file(path: &Path, text: &str) -> Result<FileSettings, ConfigError> {
    let mut s = FileSettings::default();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| ConfigError::Line {
            path: path.to_path_buf(),
            line: line_no,
            message,
        };
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| err(format!("'{line}' is not name = value")))?;
        let (name, value) = (name.trim(), value.trim().to_string());
        let number = |what: &str| -> Result<u64, ConfigError> {
            value
                .parse()
                .map_err(|_| err(format!("{what} '{value}' is not a whole number")))
        };
        let flag = || -> Result<bool, ConfigError> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" => Ok(true),
                "false" | "no" | "off" => Ok(false),
                _ => Err(err(format!("{name} '{value}' is not true or false"))),
            }
        };
        match name {
            "host" => s.host = Some(value),
            "port" => {
                let port = number("port")?;
                s.port = Some(
                    u16::try_from(port).map_err(|_| err(format!("port {port} is too large")))?,
                );
            }
            "id" => s.id = Some(value),
            "password" => s.password = Some(value),
            "games" => s.games = Some(number("games")?.min(u32::MAX as u64) as u32),
            "ponder" => s.ponder = Some(flag()?),
            "record-dir" => s.record_dir = Some(PathBuf::from(value)),
            "log" => s.log = Some(PathBuf::from(value)),
            "keepalive" => s.keepalive = Some(number("keepalive")?),
            "comments" => s.comments = Some(flag()?),
            "retries" => s.retries = Some(number("retries")?.min(u32::MAX as u64) as u32),
            other if Options::lookup(other).is_some() => {
                s.options.push((line_no, other.to_string(), value))
            }
            other => {
                return Err(err(format!(
                    "'{other}' is neither a setting of tokin csa nor an engine option"
                )))
            }
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> CsaArgs {
        CsaArgs {
            host: Some("localhost".into()),
            id: Some("tokin".into()),
            password: Some("pw".into()),
            ..CsaArgs::default()
        }
    }

    #[test]
    fn defaults_and_the_password_sources() {
        let s = Settings::resolve(&args(), None).unwrap();
        assert_eq!((s.port, s.games, s.retries), (4081, 1, DEFAULT_RETRIES));
        assert_eq!(s.keepalive, Some(Duration::from_secs(40)));
        assert!(s.comments);
        // Over the internet the worst-case delay kept from the flag is 1 s, not the USI 300 ms.
        assert_eq!(s.options.spin(OptionId::NetworkDelay2), 1000);
        assert!(!s.options.check(OptionId::UsiPonder));
        let no_pw = CsaArgs {
            password: None,
            ..args()
        };
        assert!(matches!(
            Settings::resolve(&no_pw, None),
            Err(ConfigError::MissingPassword)
        ));
        let s = Settings::resolve(&no_pw, Some("from-env".into())).unwrap();
        assert_eq!(s.password, "from-env");
        // The command line wins over the environment.
        let s = Settings::resolve(&args(), Some("from-env".into())).unwrap();
        assert_eq!(s.password, "pw");
    }

    #[test]
    fn options_flags_and_checks() {
        let a = CsaArgs {
            options: vec![
                "Threads=2".into(),
                "NetworkDelay2 = 500".into(),
                "USI_Hash=32".into(),
            ],
            ponder: true,
            keepalive: Some(0),
            no_comments: true,
            ..args()
        };
        let s = Settings::resolve(&a, None).unwrap();
        assert_eq!(s.options.spin(OptionId::Threads), 2);
        assert_eq!(s.options.spin(OptionId::NetworkDelay2), 500);
        assert_eq!(s.options.spin(OptionId::UsiHash), 32);
        assert!(s.options.check(OptionId::UsiPonder));
        assert_eq!(s.keepalive, None);
        assert!(!s.comments);
        let bad = |a: CsaArgs| Settings::resolve(&a, None).unwrap_err().to_string();
        assert_eq!(
            bad(CsaArgs {
                options: vec!["Threads".into()],
                ..args()
            }),
            "--option 'Threads' is not Name=Value"
        );
        assert!(bad(CsaArgs {
            options: vec!["Bogus=1".into()],
            ..args()
        })
        .contains("unknown option 'Bogus'"));
        assert!(bad(CsaArgs {
            options: vec!["USI_Variant=heian".into()],
            ..args()
        })
        .contains("USI_Variant must be shogi"));
        assert!(bad(CsaArgs {
            id: Some("has space".into()),
            ..args()
        })
        .contains("id 'has space'"));
        assert!(bad(CsaArgs {
            password: Some("a b".into()),
            ..args()
        })
        .contains("password"));
        assert!(bad(CsaArgs {
            games: Some(0),
            ..args()
        })
        .contains("at least 1"));
        assert!(bad(CsaArgs {
            host: None,
            ..args()
        })
        .contains("no host"));
    }

    #[test]
    fn config_files() {
        let path = Path::new("tokin.conf");
        let text = "# floodgate\nhost = wdoor.c.u-tokyo.ac.jp\nport=4081\nid = tokin_test\n\
                    password = floodgate-300-10F,secret\ngames = 3\nponder = yes\n\
                    record-dir = rec\nlog = csa.log\nkeepalive = 45\ncomments = off\n\
                    retries = 2\nThreads = 2\n\n";
        let f = parse_file(path, text).unwrap();
        assert_eq!(f.host.as_deref(), Some("wdoor.c.u-tokyo.ac.jp"));
        assert_eq!(f.password.as_deref(), Some("floodgate-300-10F,secret"));
        assert_eq!(
            (f.games, f.ponder, f.keepalive),
            (Some(3), Some(true), Some(45))
        );
        assert_eq!((f.comments, f.retries), (Some(false), Some(2)));
        assert_eq!(f.options, [(13, "Threads".to_string(), "2".to_string())]);
        let err = |text: &str| parse_file(path, text).err().unwrap().to_string();
        assert_eq!(
            err("host = x\nnonsense\n"),
            "config file tokin.conf, line 2: 'nonsense' is not name = value"
        );
        assert!(err("port = 99999").contains("too large"));
        assert!(err("games = many").contains("not a whole number"));
        assert!(err("ponder = maybe").contains("not true or false"));
        assert!(err("colour = blue").contains("neither a setting"));
    }
}

//! A small seeded pseudo-random generator (xorshift64*) for everything in the project that needs
//! reproducible randomness: the magic-number search, random playouts in tests, self-play openings
//! for data generation, benchmark inputs. Not for anything secret.

/// xorshift64*: 64 bits of state, one multiply per draw; the same seed gives the same sequence.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (zero, xorshift's one fixed point, is replaced).
    pub const fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)] // an endless stream, not an `Iterator`
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_zero_seed_is_not_stuck() {
        let draw = |seed| {
            let mut r = Rng::new(seed);
            [r.next(), r.next(), r.next()]
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let zero = draw(0);
        assert!(zero.iter().all(|&x| x != 0) && zero[0] != zero[1]);
        let mut r = Rng::new(1);
        assert!((0..1000).all(|_| r.below(10) < 10));
        assert_eq!(r.below(0), 0);
    }
}

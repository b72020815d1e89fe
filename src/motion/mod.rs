//! What a line sets in motion beyond its own words: commands it sends elsewhere.

pub mod channels;

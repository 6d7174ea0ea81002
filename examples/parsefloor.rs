use std::time::Instant;
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let n = 30;
    let t = Instant::now();
    for _ in 0..n {
        let _: serde::de::IgnoredAny = serde_json::from_str(&text).unwrap();
    }
    println!(
        "IgnoredAny   {:.2} ms",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let _: serde_json::Value = serde_json::from_str(&text).unwrap();
    }
    println!(
        "Value        {:.2} ms",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let _ = git_loop::manifest::Manifest::parse(&text).unwrap();
    }
    println!(
        "Manifest     {:.2} ms",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let _ = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    }
    println!(
        "read file    {:.2} ms",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}

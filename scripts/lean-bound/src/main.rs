//! `lean-bound fb|df CYCLES`: runs one of the lean bounds and prints what it delivered.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cycles: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let run = match args.get(1).map(String::as_str) {
        Some("fb") => lean_bound::fb(cycles),
        Some("df") => lean_bound::df(cycles),
        _ => {
            eprintln!("usage: lean-bound fb|df CYCLES");
            std::process::exit(2);
        }
    };
    let per_cycle = run.delivered as f64 / cycles.max(1) as f64;
    let mean = run.latency as f64 / run.delivered.max(1) as f64;
    println!("{cycles} cycles: {} delivered ({per_cycle:.1} per cycle), mean latency {mean:.2}", run.delivered);
}

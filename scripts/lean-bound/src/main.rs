fn main() {
    let cycles: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    println!("{}", fbfloor::run(cycles));
}

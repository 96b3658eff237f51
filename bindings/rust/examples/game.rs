//! A Rust game loop over libtca: the dice roller on the store's manual clock at a fixed 60 Hz
//! timestep, its requests taken once a frame (pull mode) and the haptics performed by the host,
//! the roll landing 500 ms after the tap, the die drawn as text; then the counter, whose number
//! fact the host answers from a closure (callback mode).
//!
//!     cargo run --offline --example game        (make test-rust runs it)
use tca::{Options, Pending, Store};

fn main() -> Result<(), tca::Error> {
    let dice = Store::with_options("dice", None, &Options::new().manual_clock().queued().seed(7))?;
    let mut buzzes = 0;
    let mut elapsed = 0u64;
    for frame in 0..45u64 {
        if frame == 5 {
            println!("frame {:2}  tap: roll", frame);
            dice.send(r#""rollButtonTapped""#)?;
        }
        // The requests of this frame, at the point of the frame the game chooses.
        for pending in dice.take_requests()? {
            if let Pending::Request(request) = pending {
                if request.name == "haptics.impact" {
                    buzzes += 1; // a real game buzzes the controller here
                    println!("        host: {} {}  *bzzt*", request.name, request.payload);
                }
            }
        }
        let rolling = dice.get("/isRolling")? == "true";
        let face = dice.get("/currentRoll")?;
        if frame % 5 == 0 {
            let shown = if rolling { "~" } else if face == "null" { " " } else { face.as_str() };
            println!("frame {:2}  t={:3} ms  die [{}]", frame, elapsed, shown);
        }
        // Fixed timestep: frame n is at n * 1000 / 60 ms.
        let next = (frame + 1) * 1000 / 60;
        dice.advance(next - elapsed)?;
        elapsed = next;
    }
    println!(
        "dice: rolled {} after 500 ms ({} buzz), history {}",
        dice.get("/currentRoll")?,
        buzzes,
        dice.get("/rollHistory")?
    );

    let counter = Store::new("counter")?;
    // The host's number facts (a real one would ask a service, and answer later by id).
    counter.on_request(|request| Ok(Some(tca::quote(&format!("{} is the number of this example.", request.payload)))))?;
    counter.send(r#""incrementButtonTapped""#)?;
    counter.send(r#""incrementButtonTapped""#)?;
    counter.send(r#""numberFactButtonTapped""#)?;
    println!("counter: {} — {}", counter.get("/count")?, tca::unquote(&counter.get("/numberFact")?)?);
    Ok(())
}

//! A Rust game loop over libtca: the dice roller on the store's manual clock at a fixed 60 Hz
//! timestep, its requests taken once a frame (pull mode) and the haptics performed by the host,
//! the roll landing 500 ms after the tap. The game keeps its own die, read whole once and then
//! brought up to date each frame by the patch since the frame before (what changed, not the whole
//! state), and draws it as text. Then the counter, whose number fact the host answers from a
//! closure (callback mode), and whose changes a subscriber hears.
//!
//!     cargo run --offline --example game        (make test-rust runs it)
use std::cell::Cell;
use std::rc::Rc;

use tca::{sys, Op, Options, PatchOp, Pending, Store};

/// The die as the game draws it, kept from frame to frame.
#[derive(Default)]
struct Die {
    rolling: bool,
    /// JSON: null before the first roll, then 1 to 6.
    face: String,
    /// JSON numbers, the newest first.
    history: Vec<String>,
    /// A change it could not follow: read the state again.
    stale: bool,
}

impl Die {
    /// From the whole state (the first frame, or when the store no longer keeps the version seen).
    fn load(state_json: &str) -> Result<Die, tca::Error> {
        let mut die = Die { face: "null".to_string(), ..Die::default() };
        for (name, value) in tca::members(state_json)? {
            die.set(&name, value)?;
        }
        Ok(die)
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), tca::Error> {
        match name {
            "isRolling" => self.rolling = value == "true",
            "currentRoll" => self.face = value.to_string(),
            "rollHistory" => {
                self.history = tca::items(value)?.into_iter().map(String::from).collect()
            }
            _ => {}
        }
        Ok(())
    }

    /// One operation of a patch (RFC 6902); parts of the state the game does not draw are skipped.
    fn apply(&mut self, op: &PatchOp) -> Result<(), tca::Error> {
        let path = op.tokens()?;
        let value = op.value.as_deref().unwrap_or("null");
        match (path.as_slice(), op.op) {
            ([], _) => *self = Die::load(value)?,
            ([name], Op::Add | Op::Replace) => self.set(name, value)?,
            ([list, index], _) if list == "rollHistory" => {
                let at = if index == "-" {
                    Some(self.history.len())
                } else {
                    index.parse::<usize>().ok()
                };
                match (op.op, at) {
                    (Op::Add, Some(at)) if at <= self.history.len() => {
                        self.history.insert(at, value.to_string())
                    }
                    (Op::Remove, Some(at)) if at < self.history.len() => {
                        self.history.remove(at);
                    }
                    (Op::Replace, Some(at)) if at < self.history.len() => {
                        self.history[at] = value.to_string()
                    }
                    _ => self.stale = true,
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn main() -> Result<(), tca::Error> {
    let dice = Store::with_options("dice", None, &Options::new().manual_clock().queued().seed(7))?;
    let (mut buzzes, mut patches, mut reads) = (0, 0, 1);
    let mut die = Die::load(&dice.state()?)?;
    let mut seen = dice.version()?;
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
        // What changed since the last frame, applied to the die the game keeps.
        let now = dice.version()?;
        if now != seen {
            match dice.patch(seen) {
                Ok(patch) => {
                    for op in tca::parse_patch(&patch)? {
                        die.apply(&op)?;
                    }
                    patches += 1;
                }
                // The store keeps its last 16 versions: too far behind.
                Err(error) if error.status() == sys::TCA_ERR_VERSION_GONE => die.stale = true,
                Err(error) => return Err(error),
            }
            if die.stale {
                die = Die::load(&dice.state()?)?;
                reads += 1;
            }
            seen = now;
        }
        if frame % 5 == 0 || frame == 35 {
            let shown = if die.rolling {
                "~"
            } else if die.face == "null" {
                " "
            } else {
                die.face.as_str()
            };
            println!("frame {:2}  t={:3} ms  die [{}]", frame, elapsed, shown);
        }
        // Fixed timestep: frame n is at n * 1000 / 60 ms.
        let next = (frame + 1) * 1000 / 60;
        dice.advance(next - elapsed)?;
        elapsed = next;
    }
    let history = format!("[{}]", die.history.join(","));
    println!("dice: rolled {} after 500 ms ({} buzz), history {}", die.face, buzzes, history);
    let same = die.face == dice.get("/currentRoll")? && history == dice.get("/rollHistory")?;
    println!(
        "dice: {} patches followed, the state read whole {} time(s); {}",
        patches,
        reads,
        if same { "the kept die matches the store" } else { "the kept die is WRONG" }
    );

    let counter = Store::new("counter")?;
    // The host's number facts (a real one would ask a service, and answer later by id).
    counter.on_request(|request| {
        Ok(Some(tca::quote(&format!("{} is the number of this example.", request.payload))))
    })?;
    let changes = Rc::new(Cell::new(0));
    let heard = changes.clone();
    let _subscription = counter.subscribe(move |_version| heard.set(heard.get() + 1))?;
    counter.send(r#""incrementButtonTapped""#)?;
    counter.send(r#""incrementButtonTapped""#)?;
    counter.send(r#""numberFactButtonTapped""#)?;
    println!(
        "counter: {} — {}",
        counter.get("/count")?,
        tca::unquote(&counter.get("/numberFact")?)?
    );
    println!("counter: the subscriber heard {} changes", changes.get());
    if !same {
        std::process::exit(1);
    }
    Ok(())
}

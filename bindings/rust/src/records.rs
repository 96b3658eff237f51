//! What the library reports as JSON, read into structs whose JSON values stay JSON text: a host
//! request (`Request`, `Pending`), a reduced action (`Reduction`), a feature (`Feature`), an
//! operation of a JSON Patch (`PatchOp`, `parse_patch`).

use crate::json::{pointer_tokens, Reader};
use crate::Error;

/// How a request is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// One `respond`, or one `fail`.
    OneShot,
    /// Any number of `respond`, then `complete` (or `fail`).
    Stream,
    /// No answer.
    FireAndForget,
}

/// A request the feature makes of the host; answer it by `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: u64,
    /// `"numberFact.fetch"`
    pub name: String,
    /// JSON: `"7"`
    pub payload: String,
    pub kind: RequestKind,
}

/// What `Store::take_requests` returns: a request, or the notice that one was cancelled (it
/// takes no answer any more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    Request(Request),
    Cancelled(u64),
}

/// Where a reduced action came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Sent by the host.
    Host,
    /// Fed back by an effect: an answer, a timer.
    Effect,
}

/// An action a recorded store reduced, with the state right after it (`Store::take_reductions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub origin: Origin,
    /// JSON, canonical (`tca::canonical_action`): `{"incrementButtonTapped":{}}`
    pub action: String,
    /// JSON: the state once the action was reduced.
    pub state: String,
}

/// A feature compiled into the library (`tca::features`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// `"counter"`: what `Store::new` takes.
    pub name: String,
    pub description: String,
    /// The host requests it may make: `"numberFact.fetch"`.
    pub requests: Vec<String>,
    /// JSON: its default state.
    pub initial_state: String,
}

/// The kind of a JSON Patch operation (RFC 6902).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Remove,
    Replace,
    Move,
    Copy,
    Test,
}

/// One operation of a JSON Patch (RFC 6902), as `Store::patch`'s text holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchOp {
    pub op: Op,
    /// A JSON Pointer: `"/todos/3/isComplete"`.
    pub path: String,
    /// Move and copy: the pointer moved or copied from.
    pub from: Option<String>,
    /// Add, replace and test: the value as JSON text.
    pub value: Option<String>,
}

impl PatchOp {
    /// The tokens of `path` (`tca::pointer_tokens`): `["todos", "3", "isComplete"]`.
    pub fn tokens(&self) -> Result<Vec<String>, Error> {
        pointer_tokens(&self.path)
    }
}

/// The operations of a JSON Patch (`Store::patch`'s text), in order. `Error` with
/// TCA_ERR_JSON_SYNTAX, or TCA_ERR_JSON_SHAPE for JSON that is no patch (an unknown op, no path).
pub fn parse_patch(json: &str) -> Result<Vec<PatchOp>, Error> {
    let mut reader = Reader::new(json, "tca::parse_patch");
    let mut ops = Vec::new();
    reader.array(|reader| {
        let (mut op, mut path, mut from, mut value) = (None, None, None, None);
        reader.object(|reader, name| {
            match name.as_str() {
                "op" => {
                    op = Some(match reader.text()?.as_str() {
                        "add" => Op::Add,
                        "remove" => Op::Remove,
                        "replace" => Op::Replace,
                        "move" => Op::Move,
                        "copy" => Op::Copy,
                        "test" => Op::Test,
                        _ => return Err(reader.shape("an op of RFC 6902")),
                    })
                }
                "path" => path = Some(reader.text()?),
                "from" => from = Some(reader.text()?),
                "value" => value = Some(reader.value()?.to_string()),
                _ => {
                    reader.value()?;
                }
            }
            Ok(())
        })?;
        match (op, path) {
            (Some(op), Some(path)) => {
                ops.push(PatchOp { op, path, from: from.take(), value: value.take() });
                Ok(())
            }
            _ => Err(reader.shape("an operation with an op and a path")),
        }
    })?;
    reader.end()?;
    Ok(ops)
}

/// Reads `tca_store_take_requests`' array.
pub(crate) fn read_requests(json: &str) -> Result<Vec<Pending>, Error> {
    let mut reader = Reader::new(json, "tca::Store::take_requests");
    let mut out = Vec::new();
    reader.array(|reader| {
        let mut request = Request {
            id: 0,
            name: String::new(),
            payload: String::new(),
            kind: RequestKind::OneShot,
        };
        let mut cancelled = None;
        reader.object(|reader, name| {
            match name.as_str() {
                "id" => request.id = reader.u64()?,
                "cancelled" => cancelled = Some(reader.u64()?),
                "name" => request.name = reader.text()?,
                "kind" => {
                    request.kind = match reader.text()?.as_str() {
                        "stream" => RequestKind::Stream,
                        "fireAndForget" => RequestKind::FireAndForget,
                        _ => RequestKind::OneShot,
                    }
                }
                "payload" => request.payload = reader.value()?.to_string(),
                _ => {
                    reader.value()?;
                }
            }
            Ok(())
        })?;
        out.push(match cancelled {
            Some(id) => Pending::Cancelled(id),
            None => Pending::Request(request),
        });
        Ok(())
    })?;
    reader.end()?;
    Ok(out)
}

/// Reads `tca_store_take_reductions`' array.
pub(crate) fn read_reductions(json: &str) -> Result<Vec<Reduction>, Error> {
    let mut reader = Reader::new(json, "tca::Store::take_reductions");
    let mut out = Vec::new();
    reader.array(|reader| {
        let mut reduction =
            Reduction { origin: Origin::Host, action: String::new(), state: String::new() };
        reader.object(|reader, name| {
            match name.as_str() {
                "origin" => {
                    reduction.origin =
                        if reader.text()? == "effect" { Origin::Effect } else { Origin::Host }
                }
                "action" => reduction.action = reader.value()?.to_string(),
                "state" => reduction.state = reader.value()?.to_string(),
                _ => {
                    reader.value()?;
                }
            }
            Ok(())
        })?;
        out.push(reduction);
        Ok(())
    })?;
    reader.end()?;
    Ok(out)
}

/// Reads `tca_features`' array.
pub(crate) fn read_features(json: &str) -> Result<Vec<Feature>, Error> {
    let mut reader = Reader::new(json, "tca::features");
    let mut out = Vec::new();
    reader.array(|reader| {
        let mut feature = Feature {
            name: String::new(),
            description: String::new(),
            requests: Vec::new(),
            initial_state: String::new(),
        };
        reader.object(|reader, name| {
            match name.as_str() {
                "name" => feature.name = reader.text()?,
                "description" => feature.description = reader.text()?,
                "requests" => {
                    let mut requests = Vec::new();
                    reader.array(|reader| {
                        requests.push(reader.text()?);
                        Ok(())
                    })?;
                    feature.requests = requests;
                }
                "initialState" => feature.initial_state = reader.value()?.to_string(),
                _ => {
                    reader.value()?;
                }
            }
            Ok(())
        })?;
        out.push(feature);
        Ok(())
    })?;
    reader.end()?;
    Ok(out)
}

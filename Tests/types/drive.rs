//! Drives counter, todos and dice through their generated Rust types (counter.rs, …, written by
//! `python -m tca types FEATURE --lang rust`) and the `tca` crate. Prints the lines every
//! language's driver prints (Tests/types/test_hosts.py compares them).
mod counter;
mod dice;
mod todos;

use tca::{Options, Store};

fn drive_counter() -> Result<String, tca::Error> {
    use counter::Action;
    let store = Store::new(counter::FEATURE)?;
    counter::send(&store, &Action::IncrementButtonTapped)?;
    counter::send(&store, &Action::IncrementButtonTapped)?;
    counter::send(&store, &Action::DecrementButtonTapped)?;
    counter::send(&store, &Action::NumberFactResponse("1 is a number.".to_string()))?;
    let state = counter::state(&store)?;
    let mut line = format!(
        "{} \"{}\" {}",
        state.count,
        state.number_fact.unwrap_or_default(),
        state.is_number_fact_loading
    );
    let snapshot = counter::State {
        count: 41,
        number_fact: Some("x".to_string()),
        number_fact_error: None,
        is_number_fact_loading: false,
    };
    let again = Store::with_options(counter::FEATURE, Some(&snapshot.to_json()), &Options::new())?;
    let read = counter::state(&again)?;
    line += &format!(" | snapshot {} \"{}\"", read.count, read.number_fact.unwrap_or_default());
    Ok(format!("counter: {}", line))
}

fn show(state: &todos::State) -> String {
    let names: Vec<String> = state
        .todos
        .iter()
        .map(|t| format!("{}{}", t.description, if t.is_complete { "*" } else { "" }))
        .collect();
    names.join(" ")
}

fn drive_todos() -> Result<String, tca::Error> {
    use todos::{Action, IdentifiedActionUUIDTodoAction as Element, TodoAction};
    let store = Store::with_options(todos::FEATURE, None, &Options::new().manual_clock().seed(1))?;
    let mut parts = Vec::new();
    todos::send(&store, &Action::AddTodoButtonTapped)?;
    todos::send(&store, &Action::AddTodoButtonTapped)?;
    let ids: Vec<String> = todos::state(&store)?.todos.into_iter().map(|t| t.id).collect();
    let edit = |id: &str, action: TodoAction| {
        Action::Todos(Element::Element { id: id.to_string(), action })
    };
    todos::send(&store, &edit(&ids[0], TodoAction::TextFieldChanged("eggs".to_string())))?;
    todos::send(&store, &edit(&ids[1], TodoAction::TextFieldChanged("milk".to_string())))?;
    todos::send(&store, &edit(&ids[0], TodoAction::CheckBoxToggled))?;
    parts.push(show(&todos::state(&store)?));
    store.advance(1000)?;
    parts.push(show(&todos::state(&store)?));
    todos::send(&store, &Action::Move { from: vec![1], to: 0 })?;
    parts.push(show(&todos::state(&store)?));
    store.advance(100)?;
    parts.push(show(&todos::state(&store)?));
    todos::send(&store, &Action::FilterPicked(todos::TodosFilter::Active))?;
    let state = todos::state(&store)?;
    let active: Vec<String> = state
        .filtered_todos
        .iter()
        .filter_map(|id| state.todos.iter().find(|t| &t.id == id))
        .map(|t| t.description.clone())
        .collect();
    parts.push(format!("active {}", active.join(" ")));
    Ok(format!("todos: {}", parts.join(" | ")))
}

fn drive_dice() -> Result<String, tca::Error> {
    use dice::{
        Action, ButtonStateRole, DiceActionAlert, DiceActionViewAction, DiceDestinationAction,
        DiceHistoryAction, PresentationActionDiceActionAlert,
        PresentationActionDiceDestinationAction,
    };
    let store = Store::with_options(dice::FEATURE, None, &Options::new().manual_clock().seed(1))?;
    let mut parts = Vec::new();
    dice::send(&store, &Action::RollButtonTapped)?;
    store.advance(500)?;
    dice::send(&store, &Action::View(DiceActionViewAction::RollButtonTapped))?;
    store.advance(500)?;
    let state = dice::state(&store)?;
    let rolls: Vec<String> = state.roll_history.iter().map(|r| r.to_string()).collect();
    parts.push(format!("{} [{}]", state.current_roll.unwrap_or(0), rolls.join(",")));
    dice::send(&store, &Action::ViewFullHistoryTapped)?;
    let history = dice::state(&store)?.destination.expect("the history is shown").history;
    let (rolls, entries) = (history.rolls.len(), history.entries.len());
    parts.push(format!("history {} rolls, {} entries", rolls, entries));
    let close = DiceDestinationAction::History(DiceHistoryAction::CloseButtonTapped);
    let presented = PresentationActionDiceDestinationAction::Presented(close);
    dice::send(&store, &Action::Destination(presented))?;
    let closed = dice::state(&store)?.destination.is_none();
    parts.push((if closed { "closed" } else { "open" }).to_string());
    dice::send(&store, &Action::ResetButtonTapped)?;
    let alert = dice::state(&store)?.alert.expect("an alert");
    let buttons: Vec<String> = alert
        .buttons
        .iter()
        .map(|b| {
            let role = match b.role {
                Some(ButtonStateRole::Cancel) => "cancel",
                Some(ButtonStateRole::Destructive) => "destructive",
                None => "null",
            };
            let action = match b.action {
                Some(DiceActionAlert::ConfirmReset) => "confirmReset",
                None => "-",
            };
            format!("{}:{}:{}", b.label, role, action)
        })
        .collect();
    let message = alert.message.clone().unwrap_or_default();
    parts.push(format!("alert \"{}\" {}", message, buttons.join(" ")));
    let tapped = alert.buttons[0].action.clone().expect("an action");
    dice::send(&store, &Action::Alert(PresentationActionDiceActionAlert::Presented(tapped)))?;
    let state = dice::state(&store)?;
    let shown = if state.alert.is_none() { "none" } else { "shown" };
    parts.push(format!("reset {} rolls, alert {}", state.roll_history.len(), shown));
    Ok(format!("dice: {}", parts.join(" | ")))
}

fn main() -> Result<(), tca::Error> {
    println!("{}", drive_counter()?);
    println!("{}", drive_todos()?);
    println!("{}", drive_dice()?);
    Ok(())
}

// Drives counter, todos and dice through their generated TypeScript types (counter.ts, …,
// written by `python -m tca types FEATURE --lang typescript`), checked by tsc --strict, run by
// node over the Node binding (bindings/node). Prints the lines every language's driver prints
// (Tests/types/test_hosts.py compares them).
import * as counter from "./counter";
import * as dice from "./dice";
import * as todos from "./todos";
import { Store } from "tca";

declare const console: { log(text: string): void };

function driveCounter(): string {
  const store = new Store(counter.FEATURE);
  store.send(counter.Action.incrementButtonTapped());
  store.send(counter.Action.incrementButtonTapped());
  store.send(counter.Action.decrementButtonTapped());
  store.send(counter.Action.numberFactResponse("1 is a number."));
  const state = store.state<counter.State>();
  let line = `${state.count} "${state.numberFact}" ${state.isNumberFactLoading}`;
  store.close();
  const snapshot: counter.State = { count: 41, numberFact: "x", isNumberFactLoading: false };
  const again = new Store(counter.FEATURE, { state: snapshot });
  const read = again.state<counter.State>();
  line += ` | snapshot ${read.count} "${read.numberFact}"`;
  again.close();
  return "counter: " + line;
}

function driveTodos(): string {
  const { Action, TodoAction } = todos;
  const Element = todos.IdentifiedActionUUIDTodoAction;
  const show = (state: todos.State): string =>
    state.todos.map((t) => t.description + (t.isComplete ? "*" : "")).join(" ");
  const parts: string[] = [];
  const store = new Store(todos.FEATURE, { clock: "manual", seed: 1 });
  store.send(Action.addTodoButtonTapped());
  store.send(Action.addTodoButtonTapped());
  const ids = store.state<todos.State>().todos.map((t) => t.id);
  store.send(Action.todos(Element.element(ids[0], TodoAction.textFieldChanged("eggs"))));
  store.send(Action.todos(Element.element(ids[1], TodoAction.textFieldChanged("milk"))));
  store.send(Action.todos(Element.element(ids[0], TodoAction.checkBoxToggled())));
  parts.push(show(store.state<todos.State>()));
  store.advance(1000);
  parts.push(show(store.state<todos.State>()));
  store.send(Action.move([1], 0));
  parts.push(show(store.state<todos.State>()));
  store.advance(100);
  parts.push(show(store.state<todos.State>()));
  store.send(Action.filterPicked("active"));
  const state = store.state<todos.State>();
  const names = new Map(state.todos.map((t) => [t.id, t.description]));
  parts.push("active " + state.filteredTodos.map((id) => names.get(id)).join(" "));
  store.close();
  return "todos: " + parts.join(" | ");
}

function caseName(action: dice.DiceActionAlert | null): string {
  if (action === null) return "-";
  return typeof action === "string" ? action : Object.keys(action)[0];
}

function driveDice(): string {
  const { Action } = dice;
  const parts: string[] = [];
  const store = new Store(dice.FEATURE, { clock: "manual", seed: 1 });
  store.send(Action.rollButtonTapped());
  store.advance(500);
  store.send(Action.view(dice.DiceActionViewAction.rollButtonTapped()));
  store.advance(500);
  let state = store.state<dice.State>();
  parts.push(`${state.currentRoll} [${state.rollHistory.join(",")}]`);
  store.send(Action.viewFullHistoryTapped());
  state = store.state<dice.State>();
  if (state.destination === null) throw new Error("no history shown");
  const history = state.destination.history;
  parts.push(`history ${history.rolls.length} rolls, ${history.entries.length} entries`);
  store.send(
    Action.destination(
      dice.PresentationActionDiceDestinationAction.presented(
        dice.DiceDestinationAction.history(dice.DiceHistoryAction.closeButtonTapped())
      )
    )
  );
  parts.push(store.state<dice.State>().destination === null ? "closed" : "open");
  store.send(Action.resetButtonTapped());
  const alert = store.state<dice.State>().alert;
  if (alert === null) throw new Error("no alert");
  const buttons = alert.buttons.map((b) => `${b.label}:${b.role}:${caseName(b.action)}`);
  parts.push(`alert "${alert.message}" ${buttons.join(" ")}`);
  const tapped = alert.buttons[0].action;
  if (tapped === null) throw new Error("no action");
  store.send(Action.alert(dice.PresentationActionDiceActionAlert.presented(tapped)));
  state = store.state<dice.State>();
  const shown = state.alert === null ? "none" : "shown";
  parts.push(`reset ${state.rollHistory.length} rolls, alert ${shown}`);
  store.close();
  return "dice: " + parts.join(" | ");
}

console.log(driveCounter());
console.log(driveTodos());
console.log(driveDice());

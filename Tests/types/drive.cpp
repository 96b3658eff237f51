// Drives counter, todos and dice through their generated C++ types (counter.hpp, …, written by
// `python -m tca types FEATURE --lang cpp`) and tca.hpp. Prints the lines every language's
// driver prints (Tests/types/test_hosts.py compares them).
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "counter.hpp"
#include "dice.hpp"
#include "todos.hpp"

static std::string join(const std::vector<std::string> &parts, const char *separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) out += (i ? separator : "") + parts[i];
  return out;
}

static std::string drive_counter() {
  using counter::Action;
  tca::Store store(counter::FEATURE);
  counter::send(store, Action::incrementButtonTapped());
  counter::send(store, Action::incrementButtonTapped());
  counter::send(store, Action::decrementButtonTapped());
  counter::send(store, Action::numberFactResponse("1 is a number."));
  counter::State state = counter::state(store);
  std::ostringstream line;
  line << state.count << " \"" << state.numberFact.value_or("") << "\" "
       << (state.isNumberFactLoading ? "true" : "false");
  counter::State snapshot;
  snapshot.count = 41;
  snapshot.numberFact = "x";
  tca::Store again(counter::FEATURE, snapshot.to_json());
  counter::State read = counter::state(again);
  line << " | snapshot " << read.count << " \"" << read.numberFact.value_or("") << "\"";
  return "counter: " + line.str();
}

static std::string show(const todos::State &state) {
  std::vector<std::string> names;
  for (const auto &todo : state.todos)
    names.push_back(todo.description + (todo.isComplete ? "*" : ""));
  return join(names, " ");
}

static std::string drive_todos() {
  using todos::Action;
  using todos::TodoAction;
  using Element = todos::IdentifiedActionUUIDTodoAction;
  tca::Options options;
  options.manual_clock().seed(1);
  tca::Store store(todos::FEATURE, options);
  std::vector<std::string> parts;
  todos::send(store, Action::addTodoButtonTapped());
  todos::send(store, Action::addTodoButtonTapped());
  std::vector<std::string> ids;
  for (const auto &todo : todos::state(store).todos) ids.push_back(todo.id);
  auto edit = [&](const std::string &id, TodoAction action) {
    todos::send(store, Action::todos(Element::element(id, std::move(action))));
  };
  edit(ids[0], TodoAction::textFieldChanged("eggs"));
  edit(ids[1], TodoAction::textFieldChanged("milk"));
  todos::send(store, Action::todos(Element::element(ids[0], TodoAction::checkBoxToggled())));
  parts.push_back(show(todos::state(store)));
  store.advance(1000);
  parts.push_back(show(todos::state(store)));
  todos::send(store, Action::move({1}, 0));
  parts.push_back(show(todos::state(store)));
  store.advance(100);
  parts.push_back(show(todos::state(store)));
  todos::send(store, Action::filterPicked(todos::TodosFilter::active));
  todos::State state = todos::state(store);
  std::map<std::string, std::string> names;
  for (const auto &todo : state.todos) names[todo.id] = todo.description;
  std::vector<std::string> active;
  for (const auto &id : state.filteredTodos) active.push_back(names[id]);
  parts.push_back("active " + join(active, " "));
  return "todos: " + join(parts, " | ");
}

static std::string drive_dice() {
  using dice::Action;
  tca::Options options;
  options.manual_clock().seed(1);
  tca::Store store(dice::FEATURE, options);
  std::vector<std::string> parts;
  dice::send(store, Action::rollButtonTapped());
  store.advance(500);
  dice::send(store, Action::view(dice::DiceActionViewAction::rollButtonTapped()));
  store.advance(500);
  dice::State state = dice::state(store);
  std::vector<std::string> rolls;
  for (int64_t roll : state.rollHistory) rolls.push_back(std::to_string(roll));
  parts.push_back(std::to_string(state.currentRoll.value_or(0)) + " [" + join(rolls, ",") + "]");
  dice::send(store, Action::viewFullHistoryTapped());
  dice::DiceHistoryState history = dice::state(store).destination.value().history;
  parts.push_back("history " + std::to_string(history.rolls.size()) + " rolls, " +
                  std::to_string(history.entries.size()) + " entries");
  dice::send(store, Action::destination(dice::PresentationActionDiceDestinationAction::presented(
                        dice::DiceDestinationAction::history(
                            dice::DiceHistoryAction::closeButtonTapped()))));
  parts.push_back(dice::state(store).destination ? "open" : "closed");
  dice::send(store, Action::resetButtonTapped());
  dice::AlertStateDiceActionAlert alert = dice::state(store).alert.value();
  std::vector<std::string> buttons;
  for (const auto &button : alert.buttons) {
    std::string role = !button.role                                           ? "null"
                       : *button.role == dice::ButtonStateRole::destructive ? "destructive"
                                                                              : "cancel";
    std::string action = !button.action ? "-"
                         : std::holds_alternative<dice::DiceActionAlert::ConfirmReset>(
                               button.action->value)
                             ? "confirmReset"
                             : "?";
    buttons.push_back(button.label + ":" + role + ":" + action);
  }
  parts.push_back("alert \"" + alert.message.value_or("") + "\" " + join(buttons, " "));
  dice::DiceActionAlert tapped = *alert.buttons[0].action;
  dice::send(store, Action::alert(dice::PresentationActionDiceActionAlert::presented(tapped)));
  state = dice::state(store);
  parts.push_back("reset " + std::to_string(state.rollHistory.size()) + " rolls, alert " +
                  (state.alert ? "shown" : "none"));
  return "dice: " + join(parts, " | ");
}

int main() {
  try {
    std::cout << drive_counter() << "\n" << drive_todos() << "\n" << drive_dice() << "\n";
  } catch (const tca::Error &error) {
    std::cerr << "drive: " << error.what() << "\n";
    return 1;
  }
  return 0;
}

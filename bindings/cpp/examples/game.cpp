// A C++ game loop over libtca (tca.hpp): the dice roller on the store's manual clock, at a fixed
// 60 Hz timestep, its requests taken once a frame (pull mode) and the haptics performed by the
// host, the roll landing 500 ms after the tap. The game keeps its own die, read whole once and
// then brought up to date each frame by the patch since the frame before (what changed, not the
// whole state), and draws it as text. Then the counter, whose number fact the host answers from a
// request handler (callback mode), and whose changes a subscriber hears.
//
//   make test-cpp   (builds and runs it), or by hand:
//   c++ -std=c++17 bindings/cpp/examples/game.cpp -Iinclude -Lbuild/lib -ltca
//     -Wl,-rpath,build/lib -o game
#include <tca.hpp>

#include <cstdio>
#include <string>
#include <vector>

// The die as the game draws it, kept from frame to frame.
struct Die {
  bool rolling = false;
  std::string face = "null";         // JSON: null before the first roll, then 1 to 6
  std::vector<std::string> history;  // JSON numbers, the newest first
  bool stale = false;                // a change it could not follow: read the state again

  /// From the whole state (the first frame, or when the store no longer keeps the version seen).
  void load(const std::string &state_json) {
    *this = Die();
    for (const auto &[name, value] : tca::members(state_json)) set(name, value);
  }

  void set(const std::string &name, const std::string &value) {
    if (name == "isRolling") rolling = value == "true";
    if (name == "currentRoll") face = value;
    if (name == "rollHistory") history = tca::items(value);
  }

  /// One operation of a patch (RFC 6902); parts of the state the game does not draw are skipped.
  void apply(const tca::PatchOp &op) {
    std::vector<std::string> path = op.tokens();
    if (path.empty()) return load(op.value);
    if (path.size() == 1 && (op.op == tca::PatchOp::add || op.op == tca::PatchOp::replace))
      return set(path[0], op.value);
    if (path[0] != "rollHistory" || path.size() != 2) return;
    size_t at = history.size() + 1;  // no place, unless the token names one
    if (path[1] == "-") {
      at = history.size();
    } else if (!path[1].empty() && path[1].size() < 9 &&
               path[1].find_first_not_of("0123456789") == std::string::npos) {
      at = std::stoul(path[1]);
    }
    if (op.op == tca::PatchOp::add && at <= history.size()) {
      history.insert(history.begin() + std::ptrdiff_t(at), op.value);
    } else if (op.op == tca::PatchOp::remove && at < history.size()) {
      history.erase(history.begin() + std::ptrdiff_t(at));
    } else if (op.op == tca::PatchOp::replace && at < history.size()) {
      history[at] = op.value;
    } else {
      stale = true;
    }
  }
};

static std::string joined(const std::vector<std::string> &items) {
  std::string out = "[";
  for (const std::string &item : items) out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}

int main() {
  try {
    tca::Store dice("dice", tca::Options().manual_clock().queued().seed(7));
    int buzzes = 0, patches = 0, reads = 1;
    Die die;
    die.load(dice.state());
    uint64_t seen = dice.version();

    // Fixed timestep: frame n is at n * 1000 / 60 ms; the clock moves 16 or 17 ms a frame.
    const int frames = 45;
    uint64_t elapsed = 0;
    for (int frame = 0; frame < frames; frame++) {
      if (frame == 5) {
        std::printf("frame %2d  tap: roll\n", frame);
        dice.send(R"("rollButtonTapped")");
      }
      // The requests of this frame, at the point of the frame the game chooses.
      for (const tca::Request &request : dice.take_requests()) {
        if (request.name == "haptics.impact") {
          buzzes++;  // a real game buzzes the controller here
          std::printf("        host: %s %s  *bzzt*\n", request.name.c_str(),
                      request.payload.c_str());
        }
      }
      // What changed since the last frame, applied to the die the game keeps.
      uint64_t now = dice.version();
      if (now != seen) {
        try {
          for (const tca::PatchOp &op : tca::parse_patch(dice.patch(seen))) die.apply(op);
          patches++;
        } catch (const tca::Error &error) {
          if (error.status() != TCA_ERR_VERSION_GONE) throw;
          die.stale = true;  // the store keeps its last 16 versions: too far behind
        }
        if (die.stale) {
          die.load(dice.state());
          reads++;
        }
        seen = now;
      }
      if (frame % 5 == 0 || frame == 35)
        std::printf("frame %2d  t=%3llu ms  die [%s]\n", frame, (unsigned long long)elapsed,
                    die.rolling ? "~" : (die.face == "null" ? " " : die.face.c_str()));
      uint64_t next = uint64_t(frame + 1) * 1000 / 60;
      dice.advance(next - elapsed);
      elapsed = next;
    }
    std::printf("dice: rolled %s after 500 ms (%d buzz), history %s\n", die.face.c_str(), buzzes,
                joined(die.history).c_str());
    bool same = die.face == dice.get("/currentRoll") &&
                joined(die.history) == dice.get("/rollHistory");
    std::printf("dice: %d patches followed, the state read whole %d time(s); %s\n", patches,
                reads, same ? "the kept die matches the store" : "the kept die is WRONG");

    tca::Store counter("counter");
    counter.on_request([](tca::Store &store, const tca::Request &request) {
      // The host's number facts (a real one would ask a service, and answer later).
      store.respond(request.id, tca::quote(request.payload + " is the number of this example."));
    });
    int changes = 0;
    tca::Subscription subscription = counter.subscribe([&](uint64_t) { changes++; });
    counter.send(R"("incrementButtonTapped")");
    counter.send(R"("incrementButtonTapped")");
    counter.send(R"("numberFactButtonTapped")");
    std::printf("counter: %s — %s\n", counter.get("/count").c_str(),
                tca::unquote(counter.get("/numberFact")).c_str());
    std::printf("counter: the subscriber heard %d changes\n", changes);
    return same ? 0 : 1;
  } catch (const tca::Error &error) {
    std::fprintf(stderr, "libtca: %s (status %d)\n", error.what(), error.status());
    return 1;
  }
}

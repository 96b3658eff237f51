// A C++ game loop over libtca (tca.hpp): the dice roller on the store's manual clock, at a fixed
// 60 Hz timestep, its requests taken once a frame (pull mode) and the haptics performed by the
// host, the roll landing 500 ms after the tap, the die drawn as text each frame; then the
// counter, whose number fact the host answers from a request handler (callback mode).
//
//   make test-cpp   (builds and runs it), or by hand:
//   c++ -std=c++17 bindings/cpp/examples/game.cpp -Iinclude -Lbuild/lib -ltca
//     -Wl,-rpath,build/lib -o game
#include <tca.hpp>

#include <cstdio>
#include <string>

int main() {
  try {
    tca::Store dice("dice", tca::Options().manual_clock().queued().seed(7));
    int buzzes = 0;

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
      bool rolling = dice.get("/isRolling") == "true";
      std::string face = dice.get("/currentRoll");
      if (frame % 5 == 0 || frame == 35)
        std::printf("frame %2d  t=%3llu ms  die [%s]\n", frame, (unsigned long long)elapsed,
                    rolling ? "~" : (face == "null" ? " " : face.c_str()));
      uint64_t next = uint64_t(frame + 1) * 1000 / 60;
      dice.advance(next - elapsed);
      elapsed = next;
    }
    std::printf("dice: rolled %s after 500 ms (%d buzz), history %s\n",
                dice.get("/currentRoll").c_str(), buzzes, dice.get("/rollHistory").c_str());

    tca::Store counter("counter");
    counter.on_request([](tca::Store &store, const tca::Request &request) {
      // The host's number facts (a real one would ask a service, and answer later).
      store.respond(request.id, tca::quote(request.payload + " is the number of this example."));
    });
    counter.send(R"("incrementButtonTapped")");
    counter.send(R"("incrementButtonTapped")");
    counter.send(R"("numberFactButtonTapped")");
    std::printf("counter: %s — %s\n", counter.get("/count").c_str(),
                tca::unquote(counter.get("/numberFact")).c_str());
    return 0;
  } catch (const tca::Error &error) {
    std::fprintf(stderr, "libtca: %s (status %d)\n", error.what(), error.status());
    return 1;
  }
}

// tca/records.hpp — part of tca.hpp: what the library reports as JSON, read into structs whose
// JSON values stay JSON text: the features (tca::features), a host request (Request), a reduced
// action (Reduction); a feature's schema (tca::schema) and actions in their canonical form
// (tca::canonical_action).
#ifndef TCA_RECORDS_HPP
#define TCA_RECORDS_HPP

#include "json.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tca {

/// How a request is answered (tca_request.kind).
enum class RequestKind { one_shot = TCA_REQUEST_ONE_SHOT, stream = TCA_REQUEST_STREAM,
                         fire_and_forget = TCA_REQUEST_FIRE_AND_FORGET };

/// A request the feature makes of the host: answer it by id (Store::respond, fail, complete).
/// From Store::take_requests, also a cancellation notice: `cancelled` true, `id` the request
/// cancelled (it takes no answer any more), the other fields empty.
struct Request {
  uint64_t id = 0;
  std::string name;     // "numberFact.fetch"
  std::string payload;  // JSON: "7"
  RequestKind kind = RequestKind::one_shot;
  bool cancelled = false;
};

/// Where a reduced action came from (Store::take_reductions).
enum class Origin { host, effect };

/// An action a recorded store reduced, with the state right after it (Store::take_reductions).
struct Reduction {
  Origin origin = Origin::host;  // sent by the host, or fed back by an effect
  std::string action;            // JSON, canonical: {"incrementButtonTapped":{}}
  std::string state;             // JSON: the state once the action was reduced
};

/// A feature compiled into the library (tca::features).
struct Feature {
  std::string name;                   // "counter": what Store's constructor takes
  std::string description;
  std::vector<std::string> requests;  // the host requests it may make: "numberFact.fetch"
  std::string initial_state;          // JSON: its default state
};

namespace detail {

/// Reads tca_store_take_requests' array.
inline std::vector<Request> read_requests(std::string_view json) {
  JsonReader reader(json, "tca::Store::take_requests");
  std::vector<Request> out;
  reader.array([&] {
    Request request;
    reader.object([&](const std::string &name) {
      if (name == "id") {
        request.id = reader.u64();
      } else if (name == "cancelled") {
        request.id = reader.u64();
        request.cancelled = true;
      } else if (name == "name") {
        request.name = reader.text();
      } else if (name == "kind") {
        std::string kind = reader.text();
        request.kind = kind == "stream"          ? RequestKind::stream
                       : kind == "fireAndForget" ? RequestKind::fire_and_forget
                                                 : RequestKind::one_shot;
      } else if (name == "payload") {
        request.payload = std::string(reader.value());
      } else {
        reader.value();
      }
    });
    out.push_back(std::move(request));
  });
  reader.end();
  return out;
}

/// Reads tca_store_take_reductions' array.
inline std::vector<Reduction> read_reductions(std::string_view json) {
  JsonReader reader(json, "tca::Store::take_reductions");
  std::vector<Reduction> out;
  reader.array([&] {
    Reduction reduction;
    reader.object([&](const std::string &name) {
      if (name == "origin") {
        reduction.origin = reader.text() == "effect" ? Origin::effect : Origin::host;
      } else if (name == "action") {
        reduction.action = std::string(reader.value());
      } else if (name == "state") {
        reduction.state = std::string(reader.value());
      } else {
        reader.value();
      }
    });
    out.push_back(std::move(reduction));
  });
  reader.end();
  return out;
}

}  // namespace detail

/// The features compiled into the library (tca_features), in the library's order.
inline std::vector<Feature> features() {
  char *json = tca_features();
  if (json == nullptr) throw Error(TCA_ERR_NO_MEMORY, tca_last_error());
  std::string text = detail::take(json, std::char_traits<char>::length(json));
  detail::JsonReader reader(text, "tca::features");
  std::vector<Feature> out;
  reader.array([&] {
    Feature feature;
    reader.object([&](const std::string &name) {
      if (name == "name") {
        feature.name = reader.text();
      } else if (name == "description") {
        feature.description = reader.text();
      } else if (name == "requests") {
        reader.array([&] { feature.requests.push_back(reader.text()); });
      } else if (name == "initialState") {
        feature.initial_state = std::string(reader.value());
      } else {
        reader.value();
      }
    });
    out.push_back(std::move(feature));
  });
  reader.end();
  return out;
}

/// The schema of `feature` (tca_feature_schema_n; docs/schema.md): one JSON document with the JSON
/// Schemas of its state, its actions and its requests' payloads and answers, the text
/// `python -m tca types` writes host types from. Throws tca::Error (TCA_ERR_UNKNOWN_FEATURE).
inline std::string schema(std::string_view feature) {
  char *json = nullptr;
  size_t length = 0;
  detail::check(tca_feature_schema_n(feature.data(), feature.size(), &json, &length));
  return detail::take(json, length);
}

/// The canonical form of an action of `feature` (tca_canonical_action_n): any form its stores
/// accept, decoded and encoded again. canonical_action("counter", "\"incrementButtonTapped\"")
/// is {"incrementButtonTapped":{}}; two actions are the same exactly when these are equal.
inline std::string canonical_action(std::string_view feature, std::string_view action_json) {
  char *json = nullptr;
  size_t length = 0;
  detail::check(tca_canonical_action_n(feature.data(), feature.size(), action_json.data(),
                                       action_json.size(), &json, &length));
  return detail::take(json, length);
}

}  // namespace tca

#endif  // TCA_RECORDS_HPP

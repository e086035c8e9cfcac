// The shared-resource models on their own (no SystemC): the reservation calendar of a bank
// port and the max-min fair fluid of the GM bandwidth. Expected values are worked out by hand.
#include <catch2/catch.hpp>

#include "aicore/model/calendar.hpp"
#include "aicore/model/fluid_share.hpp"

using aicore::model::Calendar;
using aicore::model::FluidShare;
using aicore::model::reserve_jointly;

TEST_CASE("calendar: a request gets the first gap at or after its cycle that is long enough",
          "[model][calendar]") {
  Calendar c;
  c.reserve(522, 516);                    // a long Mmad booked first (its pipe ran ahead)
  CHECK(c.earliest_fit(7, 8) == 7);       // an earlier, short request fits before it: [7, 15)
  CHECK(c.earliest_fit(7, 515) == 7);     // [7, 522) ends exactly where the booking starts
  CHECK(c.earliest_fit(7, 516) == 1038);  // one cycle longer does not fit: after the booking
  CHECK(c.earliest_fit(600, 1) == 1038);  // inside the booking: after it
  CHECK(c.earliest_fit(1038, 5) == 1038);
  CHECK(c.earliest_fit(5, 0) == 5);  // nothing to hold fits anywhere
}

TEST_CASE("calendar: bookings in any order, touching intervals merge", "[model][calendar]") {
  Calendar c;
  c.reserve(100, 10);  // [100, 110)
  c.reserve(20, 10);   // [20, 30), before it
  c.reserve(110, 5);   // touches the first: [100, 115)
  c.reserve(30, 70);   // fills the gap: everything is [20, 115)
  CHECK(c.intervals() == 1);
  CHECK(c.booked_cycles() == 95);
  CHECK(c.earliest_fit(0, 20) == 0);
  CHECK(c.earliest_fit(0, 21) == 115);
  c.reserve(200, 0);  // zero length books nothing
  CHECK(c.intervals() == 1);
}

TEST_CASE("calendar: forget_before drops only intervals that ended", "[model][calendar]") {
  Calendar c;
  for (uint64_t i = 0; i < 100; ++i) c.reserve(i * 10, 5);  // [0,5), [10,15), ...
  c.forget_before(500);
  CHECK(c.earliest_fit(500, 5) == 505);  // [500, 505) is still booked
  CHECK(c.earliest_fit(500, 6) == 995);  // from the floor on, every gap is 5 cycles long
  CHECK(c.earliest_fit(0, 6) == 0);      // what was forgotten is free (no request comes there)
  c.forget_before(2000);
  CHECK(c.earliest_fit(0, 1000) == 0);
}

TEST_CASE("calendar: a joint booking finds a cycle where every calendar is free", "[model][calendar]") {
  Calendar a, b;
  a.reserve(10, 10);  // [10, 20)
  b.reserve(25, 10);  // [25, 35)
  Calendar* both[] = {&a, &b};
  // From 5, a length of 8: [5, 13) clashes with a; [20, 28) with b; [35, 43) fits both.
  CHECK(reserve_jointly(both, 2, 5, 8) == 35);
  CHECK(a.earliest_fit(35, 1) == 43);
  CHECK(b.earliest_fit(35, 1) == 43);
  CHECK(reserve_jointly(both, 2, 0, 5) == 0);  // [0, 5) is free in both
}

namespace {
// The shape the GM port gives the fluid: one port per core, then one chip resource that every
// flow uses at `per_byte` units per byte (1 for the L2, the fill ratio for the HBM).
struct Ports {
  FluidShare f;
  uint32_t chip;
  Ports(double chip_capacity, std::vector<double> ports)
      : f([&] {
          ports.push_back(chip_capacity);
          return ports;
        }()),
        chip(static_cast<uint32_t>(ports.size() - 1)) {}
  FluidShare::FlowId add(uint32_t core, double cap, uint64_t bytes, double per_byte = 1) {
    const FluidShare::Use uses[] = {{core, 1}, {chip, per_byte}};
    return f.add(cap, bytes, uses, 2);
  }
};
}  // namespace

TEST_CASE("fluid: a lone transfer runs at its own cap: ceil(bytes / cap) cycles", "[model][fluid]") {
  Ports p(864, {256});
  FluidShare& f = p.f;
  p.add(0, 150, 1024);
  CHECK(f.next_finish() == 7);  // 1024 / 150 = 6.83
  f.advance(6);
  CHECK(f.take_finished().empty());
  f.advance(7);
  CHECK(f.take_finished().size() == 1);
  CHECK(f.in_flight() == 0);
  CHECK(f.next_finish() == UINT64_MAX);
  Ports g(864, {256});
  g.add(0, 256, 1536);  // exactly 6 cycles, no rounding up
  CHECK(g.f.next_finish() == 6);
}

TEST_CASE("fluid: max-min fair shares under flow caps, a core's port and the chip", "[model][fluid]") {
  SECTION("two flows of one core: equal shares of its port, each under its own cap") {
    Ports p(864, {256});
    const auto a = p.add(0, 150, 100000), b = p.add(0, 128, 100000);
    CHECK(p.f.rate_of(a) == Approx(128));
    CHECK(p.f.rate_of(b) == Approx(128));
  }
  SECTION("a capped flow leaves the rest to the other") {
    Ports p(864, {256});
    const auto a = p.add(0, 200, 100000), b = p.add(0, 40, 100000);
    CHECK(p.f.rate_of(b) == Approx(40));
    CHECK(p.f.rate_of(a) == Approx(200));  // 216 would be left; its own cap is 200
  }
  SECTION("the chip's bandwidth is shared by the cores") {
    Ports p(200, {256, 256});
    const auto a = p.add(0, 150, 100000), b = p.add(1, 150, 100000);
    CHECK(p.f.rate_of(a) == Approx(100));
    CHECK(p.f.rate_of(b) == Approx(100));
  }
  SECTION("three flows, two cores: core 0's two flows share its port, core 1 takes the chip's rest") {
    Ports p(300, {120, 256});
    const auto a = p.add(0, 150, 100000), b = p.add(0, 150, 100000), c = p.add(1, 250, 100000);
    CHECK(p.f.rate_of(a) == Approx(60));
    CHECK(p.f.rate_of(b) == Approx(60));
    CHECK(p.f.rate_of(c) == Approx(180));
  }
}

TEST_CASE("fluid: a resource used at several units per byte", "[model][fluid]") {
  SECTION("alone: a flow filling 4 bytes of HBM per byte it moves gets a quarter of the HBM") {
    Ports p(100, {256});
    const auto a = p.add(0, 150, 100000, 4);
    CHECK(p.f.rate_of(a) == Approx(25));
  }
  SECTION("equal rates, unequal use: the HBM is full at 2 x r + 0.5 x r = 100") {
    Ports p(100, {256, 256});
    const auto a = p.add(0, 150, 100000, 2), b = p.add(1, 150, 100000, 0.5);
    CHECK(p.f.rate_of(a) == Approx(40));
    CHECK(p.f.rate_of(b) == Approx(40));
  }
  SECTION("a flow that does not use the HBM is not held by it") {
    Ports p(100, {256, 256});
    const FluidShare::Use port_only[] = {{1, 1}};
    const auto a = p.add(0, 150, 100000, 2);
    const auto b = p.f.add(150, 100000, port_only, 1);
    CHECK(p.f.rate_of(a) == Approx(50));
    CHECK(p.f.rate_of(b) == Approx(150));
  }
  SECTION("flows under the capacities run at their own limits (no sharing needed)") {
    Ports p(1000, {256, 256});
    const auto a = p.add(0, 150, 100000, 2), b = p.add(1, 177, 100000, 1);
    CHECK(p.f.rate_of(a) == Approx(150));  // 300 + 177 < 1000
    CHECK(p.f.rate_of(b) == Approx(177));
  }
}

TEST_CASE("fluid: rates are recomputed when a transfer ends, whatever the order of arrival",
          "[model][fluid]") {
  // 1000 B and 3000 B, both capped at 100, sharing 100: 50 each until the first ends at 20;
  // the second then has 2000 B left at 100: ends at 40.
  for (int order = 0; order < 2; ++order) {
    Ports p(100, {100});
    FluidShare& f = p.f;
    if (order == 0) {
      p.add(0, 100, 1000);
      p.add(0, 100, 3000);
    } else {
      p.add(0, 100, 3000);
      p.add(0, 100, 1000);
    }
    CHECK(f.next_finish() == 20);
    f.advance(20);
    CHECK(f.take_finished().size() == 1);
    CHECK(f.next_finish() == 40);
    f.advance(40);
    CHECK(f.take_finished().size() == 1);
  }
}

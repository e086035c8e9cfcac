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

TEST_CASE("fluid: a lone transfer runs at its own cap: ceil(bytes / cap) cycles", "[model][fluid]") {
  FluidShare f(864, {256});
  f.add(0, 150, 1024);
  CHECK(f.next_finish() == 7);  // 1024 / 150 = 6.83
  f.advance(6);
  CHECK(f.take_finished().empty());
  f.advance(7);
  CHECK(f.take_finished().size() == 1);
  CHECK(f.in_flight() == 0);
  CHECK(f.next_finish() == UINT64_MAX);
  FluidShare g(864, {256});
  g.add(0, 256, 1536);  // exactly 6 cycles, no rounding up
  CHECK(g.next_finish() == 6);
}

TEST_CASE("fluid: max-min fair shares under flow caps, a core's port and the chip", "[model][fluid]") {
  SECTION("two flows of one core: equal shares of its port, each under its own cap") {
    FluidShare f(864, {256});
    const auto a = f.add(0, 150, 100000), b = f.add(0, 128, 100000);
    CHECK(f.rate_of(a) == Approx(128));
    CHECK(f.rate_of(b) == Approx(128));
  }
  SECTION("a capped flow leaves the rest to the other") {
    FluidShare f(864, {256});
    const auto a = f.add(0, 200, 100000), b = f.add(0, 40, 100000);
    CHECK(f.rate_of(b) == Approx(40));
    CHECK(f.rate_of(a) == Approx(200));  // 216 would be left; its own cap is 200
  }
  SECTION("the chip's bandwidth is shared by the cores") {
    FluidShare f(200, {256, 256});
    const auto a = f.add(0, 150, 100000), b = f.add(1, 150, 100000);
    CHECK(f.rate_of(a) == Approx(100));
    CHECK(f.rate_of(b) == Approx(100));
  }
  SECTION("three flows, two cores: core 0's two flows share its port, core 1 takes the chip's rest") {
    FluidShare f(300, {120, 256});
    const auto a = f.add(0, 150, 100000), b = f.add(0, 150, 100000), c = f.add(1, 250, 100000);
    CHECK(f.rate_of(a) == Approx(60));
    CHECK(f.rate_of(b) == Approx(60));
    CHECK(f.rate_of(c) == Approx(180));
  }
}

TEST_CASE("fluid: rates are recomputed when a transfer ends, whatever the order of arrival",
          "[model][fluid]") {
  // 1000 B and 3000 B, both capped at 100, sharing 100: 50 each until the first ends at 20;
  // the second then has 2000 B left at 100: ends at 40.
  for (int order = 0; order < 2; ++order) {
    FluidShare f(100, {100});
    if (order == 0) {
      f.add(0, 100, 1000);
      f.add(0, 100, 3000);
    } else {
      f.add(0, 100, 3000);
      f.add(0, 100, 1000);
    }
    CHECK(f.next_finish() == 20);
    f.advance(20);
    CHECK(f.take_finished().size() == 1);
    CHECK(f.next_finish() == 40);
    f.advance(40);
    CHECK(f.take_finished().size() == 1);
  }
}

// How SystemC's own reports reach the user: its informational reports (e.g. "simulation stopped by
// user" after a fault) say nothing a user needs, and what it displays goes to stderr, since
// stdout carries results only. Every process that runs the model calls this before elaborating.
#pragma once

namespace aicore::cli {

void route_systemc_reports();

}  // namespace aicore::cli

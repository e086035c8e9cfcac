// libsystemc's own main() needs an sc_main at link time (the sanitizer build keeps the library);
// Catch2's main (tests/catch_main.cpp) is the one that runs, so this is never called. An object
// library, so the linker takes it whatever else the executable references.
extern "C" int sc_main(int, char*[]) {
  return 0;
}

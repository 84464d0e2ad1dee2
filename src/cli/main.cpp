// Placeholder entry point; replaced by the real command-line front end.
#include <cstdio>

int main(int argc, char** argv) {
  std::fprintf(stderr,
               "usage: %s instrument --tool none INPUT -o OUTPUT\n"
               "  INPUT/OUTPUT: a .class file, a directory tree, or a .jar/.zip\n",
               argc > 0 ? argv[0] : "dragnet");
  return 2;
}

package dragnet.demo.cost;

/** A 32-bit FNV-1a hash of a name, the key of a Scope. */
final class Fingerprint {
  int value;

  /** Hashes {@code name} into {@link #value} (the object form: see Resolver.checkPlanted). */
  void compute(String name) {
    int h = 0x811c9dc5;
    for (int i = 0; i < name.length(); i++) {
      h = (h ^ name.charAt(i)) * 16777619;
    }
    this.value = h;
  }

  /** The hash of {@code name}. */
  static int of(String name) {
    int h = 0x811c9dc5;
    for (int i = 0; i < name.length(); i++) {
      h = (h ^ name.charAt(i)) * 16777619;
    }
    return h;
  }
}

package dragnet.demo.cost;

/** A unit's imported types by simple name: a hash table keyed by fingerprint. */
final class Scope {
  private final Symbol[] buckets = new Symbol[16];

  void add(Symbol s) {
    int b = s.fingerprint & (buckets.length - 1);
    s.next = buckets[b];
    buckets[b] = s;
  }

  Symbol lookup(String simpleName, int fingerprint) {
    for (Symbol s = buckets[fingerprint & (buckets.length - 1)]; s != null; s = s.next) {
      if (s.fingerprint == fingerprint && s.simpleName.equals(simpleName)) {
        return s;
      }
    }
    return null;
  }
}

package dragnet.demo.cost;

/** An imported type, visible in its unit under its simple name. */
final class Symbol {
  final String simpleName;
  final int size;
  int fingerprint;
  Symbol next;

  Symbol(String simpleName, int size) {
    this.simpleName = simpleName;
    this.size = size;
  }

  void computeFingerprint() {
    fingerprint = Fingerprint.of(simpleName);
  }
}

package dragnet.demo.cost;

/**
 * Checks a unit: every type import names a class file on the classpath, every on-demand
 * import an existing package, and every reference an imported type. {@link #checkPlanted}
 * does it with two planted low-utility structures, {@link #checkFixed} without them; both
 * count the same.
 */
final class Resolver {
  private final Classpath classpath;
  private final Stats stats;

  Resolver(Classpath classpath, Stats stats) {
    this.classpath = classpath;
    this.stats = stats;
  }

  void checkPlanted(Unit unit) {
    Scope scope = new Scope();
    for (int i = 0; i < unit.importDirs.length; i++) {
      String dir = unit.importDirs[i];
      String type = unit.importTypes[i];
      if (type == null) {
        // PLANTED (Fig. 14): a directory listing built to answer yes or no (Classpath).
        if (classpath.isPackage(dir)) {
          stats.packagesFound++;
        } else {
          stats.packagesMissing++;
        }
        continue;
      }
      ClassFileEntry file = classpath.find(dir, unit.importFiles[i]);
      if (file == null) {
        stats.typesMissing++;
        continue;
      }
      stats.typesFound++;
      Symbol symbol = new Symbol(type, file.size);
      // PLANTED (copied field): the fingerprint is computed into a Fingerprint object's
      // field in a loop and copied into the symbol right after; the object is dropped.
      Fingerprint fp = new Fingerprint();
      fp.compute(type);
      symbol.fingerprint = fp.value;
      scope.add(symbol);
    }
    resolveReferences(unit, scope);
  }

  void checkFixed(Unit unit) {
    Scope scope = new Scope();
    for (int i = 0; i < unit.importDirs.length; i++) {
      String dir = unit.importDirs[i];
      String type = unit.importTypes[i];
      if (type == null) {
        if (classpath.hasPackage(dir)) {
          stats.packagesFound++;
        } else {
          stats.packagesMissing++;
        }
        continue;
      }
      ClassFileEntry file = classpath.find(dir, unit.importFiles[i]);
      if (file == null) {
        stats.typesMissing++;
        continue;
      }
      stats.typesFound++;
      Symbol symbol = new Symbol(type, file.size);
      symbol.computeFingerprint();
      scope.add(symbol);
    }
    resolveReferences(unit, scope);
  }

  private void resolveReferences(Unit unit, Scope scope) {
    for (String name : unit.references) {
      int fingerprint = Fingerprint.of(name);
      Symbol s = scope.lookup(name, fingerprint);
      if (s == null) {
        stats.unresolved++;
      } else {
        stats.resolved++;
        stats.resolvedBytes += s.size;
        stats.fingerprintXor ^= s.fingerprint;
      }
    }
  }
}

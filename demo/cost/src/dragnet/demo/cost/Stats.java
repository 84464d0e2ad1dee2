package dragnet.demo.cost;

import java.util.Locale;

/** What the check found, over all units. */
final class Stats {
  int typesFound;
  int typesMissing;
  int packagesFound;
  int packagesMissing;
  int resolved;
  int unresolved;
  long resolvedBytes;
  int fingerprintXor;

  String render(Classpath classpath, int units) {
    return String.format(
        Locale.ROOT,
        "classpath: %d files%n"
            + "units: %d%n"
            + "type imports: %d found, %d missing%n"
            + "package imports: %d found, %d missing%n"
            + "references: %d resolved (%d bytes of class files), %d unresolved%n"
            + "fingerprints: %08x%n",
        classpath.files.length, units, typesFound, typesMissing, packagesFound, packagesMissing,
        resolved, resolvedBytes, unresolved, fingerprintXor);
  }
}

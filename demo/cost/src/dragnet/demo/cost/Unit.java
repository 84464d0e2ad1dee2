package dragnet.demo.cost;

import java.util.Random;

/**
 * A compilation unit: its imports (a directory, "org/acme/p07", with a simple name,
 * "CachedEventListener", and its class file name; or with null for "import org.acme.p07.*")
 * and the simple names of the types it references.
 */
final class Unit {
  static final int TYPE_IMPORTS = 5;
  static final int PACKAGE_IMPORTS = 2;
  static final int REFERENCES = 20;

  final String[] importDirs = new String[TYPE_IMPORTS + PACKAGE_IMPORTS];
  final String[] importTypes = new String[TYPE_IMPORTS + PACKAGE_IMPORTS];
  final String[] importFiles = new String[TYPE_IMPORTS + PACKAGE_IMPORTS];
  final String[] references = new String[REFERENCES];

  /** {@code n} units from a fixed seed; a few imports name packages that do not exist. */
  static Unit[] generate(int n) {
    Random random = new Random(2009);
    Unit[] units = new Unit[n];
    for (int u = 0; u < n; u++) {
      Unit unit = new Unit();
      for (int i = 0; i < TYPE_IMPORTS + PACKAGE_IMPORTS; i++) {
        boolean onDemand = i >= TYPE_IMPORTS;
        int p = random.nextInt(Classpath.PACKAGES + (onDemand ? 8 : 4));
        unit.importDirs[i] = Classpath.PACKAGE_PATHS[p];
        if (!onDemand) {
          int t = random.nextInt(Classpath.TYPES);
          unit.importTypes[i] = Classpath.TYPE_NAMES[t];
          unit.importFiles[i] = Classpath.CLASS_FILES[t];
        }
      }
      // Half the references name an imported type, the others any type.
      for (int r = 0; r < REFERENCES; r++) {
        unit.references[r] = r % 2 == 0
            ? unit.importTypes[random.nextInt(TYPE_IMPORTS)]
            : Classpath.TYPE_NAMES[random.nextInt(Classpath.TYPES)];
      }
      units[u] = unit;
    }
    return units;
  }
}

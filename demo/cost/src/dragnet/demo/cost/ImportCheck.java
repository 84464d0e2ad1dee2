package dragnet.demo.cost;

/**
 * The cost demo: checks the imports and type references of generated compilation units
 * against a generated classpath, with two planted low-utility structures (each marked
 * PLANTED in Resolver and Classpath). With {@code --fixed} it checks the same without them
 * and prints the same.
 *
 * <pre>
 * dragnet run --mode cost -o cost.dragnet -- java -jar cost-demo.jar [--fixed] [units]
 * </pre>
 */
public final class ImportCheck {
  private ImportCheck() {}

  public static void main(String[] args) {
    boolean fixed = false;
    int units = 2000;
    for (String a : args) {
      if (a.equals("--fixed")) {
        fixed = true;
      } else {
        units = Integer.parseInt(a);
      }
    }
    Classpath classpath = Classpath.generate();
    Unit[] sources = Unit.generate(units);
    Stats stats = new Stats();
    Resolver resolver = new Resolver(classpath, stats);
    for (Unit unit : sources) {
      if (fixed) {
        resolver.checkFixed(unit);
      } else {
        resolver.checkPlanted(unit);
      }
    }
    System.out.print(stats.render(classpath, sources.length));
  }
}

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Runs the methods of the classes that tests/relax/relax_gen.cpp generates: every static
 * method of every class named in the file given as the argument (one a line), by name, with
 * the argument 0 and then 1, printing "Class.method(p) = value". A class that does not load
 * or link, and a method that throws, print the exception instead, so that one bad class
 * shows as such and the others still run.
 */
public final class RelaxMain {
  public static void main(String[] args) throws Exception {
    List<String> names = Files.readAllLines(Paths.get(args[0]));
    for (String name : names) {
      Method[] methods;
      try {
        methods = Class.forName(name).getDeclaredMethods();
      } catch (Throwable t) {
        System.out.println(name + ": " + t);
        continue;
      }
      Arrays.sort(methods, Comparator.comparing(Method::getName));
      for (Method m : methods) {
        for (int p = 0; p < 2; p++) {
          String call = name + "." + m.getName() + "(" + p + ")";
          try {
            System.out.println(call + " = " + m.invoke(null, p));
          } catch (InvocationTargetException e) {
            System.out.println(call + " threw " + e.getCause());
          }
        }
      }
    }
  }
}

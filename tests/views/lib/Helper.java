// A library of ViewsOracle's: a prefix --app-exclude can name (lib.).
package lib;

public final class Helper {
  private Helper() {}

  public static void touch() {}

  public static int[] make(int n) {
    return new int[n]; // @make
  }
}

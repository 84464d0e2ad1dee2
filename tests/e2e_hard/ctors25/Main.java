// Flexible constructor bodies (Java 25, JEP 513): statements, a loop, a throw and field
// initialization before super(). Compiled and run with JDK 25 only.
class Base {
  final int v;

  Base(int v) {
    this.v = v;
  }
}

class Prologue extends Base {
  private final int extra;

  Prologue(int x) {
    if (x < 0) throw new IllegalArgumentException("negative");  // @check
    int y = x;
    for (int i = 0; i < x; i++) {
      y += i;  // @loop
    }
    extra = y % 7;  // @early
    super(y);
    System.out.println("after super " + v + " " + extra);  // @after
  }

  Prologue(int a, int b) {
    int s = a > b ? a - b : b - a;  // @delegate
    this(s);
  }
}

public class Main {
  public static void main(String[] args) {
    System.out.println(new Prologue(4).v);
    System.out.println(new Prologue(2, 9).v);
    try {
      new Prologue(-1);
    } catch (IllegalArgumentException e) {
      System.out.println("caught " + e.getMessage());
    }
  }
}

package dragnet.testdata;

public enum Color {
  RED,
  GREEN,
  BLUE
}

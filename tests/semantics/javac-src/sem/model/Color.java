package sem.model;

/** An enum with constant-specific bodies, fields and a switch over itself. */
public enum Color {
  RED(0xff0000) {
    @Override
    public Color complement() {
      return CYAN;
    }
  },
  GREEN(0x00ff00),
  BLUE(0x0000ff),
  CYAN(0x00ffff);

  private final int rgb;

  Color(int rgb) {
    this.rgb = rgb;
  }

  public int rgb() {
    return rgb;
  }

  public Color complement() {
    switch (this) {
      case GREEN:
        return RED;
      case BLUE:
        return GREEN;
      case CYAN:
        return RED;
      default:
        throw new AssertionError(this);
    }
  }

  public String hex() {
    return String.format("#%06x", rgb);
  }
}

package dragnet.demo.lifetime;

/** Roaming rates per dialled prefix, cents per minute: 512 K prefixes, 4 MB. */
final class RateCard {
  static final int PREFIXES = 1 << 19;
  private final long[] centsPerMinute = new long[PREFIXES];

  RateCard() {
    // "Loading" the card: puts only, so the array is not used until its first rate() call.
    for (int p = 0; p < PREFIXES; p++) {
      centsPerMinute[p] = 20 + (p * 37L) % 180;
    }
  }

  long rate(int prefix) {
    return centsPerMinute[prefix];
  }
}

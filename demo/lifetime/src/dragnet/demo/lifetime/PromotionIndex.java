package dragnet.demo.lifetime;

/** December's loyalty discounts, percent per customer number: 256 K entries, 1 MB. */
final class PromotionIndex {
  static final int SIZE = 1 << 18;
  private final int[] percent = new int[SIZE];

  PromotionIndex() {
    for (int c = 0; c < SIZE; c++) {
      percent[c] = c % 7 == 0 ? 10 : 0;
    }
  }

  long discount(int customer, long cents) {
    return cents * percent[customer % SIZE] / 100;
  }
}
